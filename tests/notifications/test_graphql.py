"""The inbox in GraphQL: the same readers and services as REST, the same answers and the same
refusals; the committed SDL has it (tests/graphql/test_sdl.py)."""

from __future__ import annotations

import pytest

from notifications.models import Notification, Preference
from tests.graphql.helpers import GqlPlayer

from .test_inbox_api import client_of

pytestmark = pytest.mark.django_db

NOTE = (
    "id kind matchId version seat game deadline seats status reason placements url "
    "events { seq version type byBot data } createdAt readAt"
)
INBOX = (
    "query($unread: Boolean!) { notifications(unread: $unread) "
    f"{{ totalCount unread items {{ {NOTE} }} }} }}"
)
AFTER = (
    "query($after: Int!) { notificationsAfter(after: $after) "
    f"{{ notifications {{ {NOTE} }} lastId more unread }} }}"
)
READ = f"mutation($id: Int!) {{ markNotificationRead(id: $id) {{ {NOTE} }} }}"
READ_ALL = "mutation($upTo: Int) { markAllNotificationsRead(upTo: $upTo) { marked unread } }"
PREFS = (
    "{ notificationPreferences { channels { channel kind on } timeZone quietStart quietEnd "
    "reminders } }"
)
UPDATE = (
    "mutation($input: NotificationPreferenceInput!) { updateNotificationPreferences(input: $input)"
    " { channels { channel kind on } timeZone quietStart quietEnd reminders } }"
)
HOOK = (
    "mutation($url: String!) { createWebhook(url: $url) "
    "{ webhook { id url active failures } secret } }"
)
HOOKS = "{ webhooks { id url active } }"
DELETE = "mutation($id: Int!) { deleteWebhook(id: $id) }"


def as_rest(note: dict) -> dict:
    return {
        "id": note["id"],
        "kind": note["kind"],
        "match": note["matchId"],
        "version": note["version"],
        "seat": note["seat"],
        "game": note["game"],
        "seats": note["seats"],
        "status": note["status"],
        "reason": note["reason"],
        "placements": note["placements"],
        "url": note["url"],
        "events": [e["data"] for e in note["events"]],
    }


def players() -> tuple[GqlPlayer, GqlPlayer, dict]:
    a, b = GqlPlayer("A"), GqlPlayer("B")
    match = a.create(game="fibber", seats=2)
    b.join(match["id"], match["inviteCode"])
    return a, b, match


def test_the_inbox_is_the_same_in_both_apis():
    a, _b, _match = players()
    gql = a.data(INBOX, unread=False)["notifications"]
    rest = client_of(a.user).get("/api/me/notifications/").json()
    assert gql["totalCount"] == rest["count"] and gql["unread"] == rest["unread"]
    keep = set(as_rest(gql["items"][0]))
    assert [as_rest(n) for n in gql["items"]] == [
        {k: v for k, v in n.items() if k in keep} for n in rest["results"]
    ]
    after = a.data(AFTER, after=0)["notificationsAfter"]
    assert [n["id"] for n in after["notifications"]] == sorted(n["id"] for n in gql["items"])


def test_marking_read_in_graphql():
    a, _b, _match = players()
    first = a.data(INBOX, unread=False)["notifications"]["items"][-1]
    read = a.data(READ, id=first["id"])["markNotificationRead"]
    assert read["readAt"] is not None
    left = a.data(READ_ALL, upTo=None)["markAllNotificationsRead"]
    assert left["unread"] == 0
    assert not Notification.objects.filter(user=a.user, read_at__isnull=True).exists()


def test_graphql_refuses_what_rest_refuses():
    a, b, _match = players()
    theirs = Notification.objects.filter(user=b.user).first()
    assert a.error(READ, id=theirs.pk)["extensions"]["code"] == "not_found"
    assert a.error(READ, id=0)["extensions"]["code"] == "not_found"
    assert a.error(READ_ALL, upTo=0)["extensions"]["code"] == "invalid"
    assert a.error(AFTER, after=-1)["extensions"]["code"] == "invalid"
    bad = a.error(UPDATE, input={"timeZone": "Mars/Olympus"})
    assert bad["extensions"]["code"] == "invalid"
    assert not Preference.objects.filter(user=a.user).exists()
    assert a.error(HOOK, url="https://127.0.0.1/x")["extensions"]["code"] == "invalid"
    assert GqlPlayer(anonymous=True).error(PREFS)["extensions"]["code"] == "not_authenticated"


def test_preferences_and_webhooks_in_graphql(settings):
    settings.NOTIFICATIONS = {"WEBHOOK_ALLOW_HTTP": True, "WEBHOOK_ALLOW_PRIVATE": True}
    a = GqlPlayer("A")
    changed = a.data(
        UPDATE,
        input={
            "channels": [{"channel": "email", "kind": "your_turn", "on": False}],
            "quietStart": "23:00",
            "quietEnd": "06:00",
            "timeZone": "Asia/Tokyo",
        },
    )["updateNotificationPreferences"]
    switches = {(s["channel"], s["kind"]): s["on"] for s in changed["channels"]}
    assert switches[("email", "your_turn")] is False and switches[("webhook", "your_turn")]
    rest = client_of(a.user).get("/api/me/notification-preferences/").json()
    assert rest["channels"]["email"]["your_turn"] is False
    assert (rest["quiet_start"], rest["quiet_end"], rest["time_zone"]) == (
        "23:00",
        "06:00",
        "Asia/Tokyo",
    )
    cleared = a.data(UPDATE, input={"quietStart": None, "quietEnd": None})
    assert cleared["updateNotificationPreferences"]["quietStart"] is None
    made = a.data(HOOK, url="http://127.0.0.1:9/h")["createWebhook"]
    assert len(made["secret"]) == 64 and made["webhook"]["active"]
    assert [h["id"] for h in a.data(HOOKS)["webhooks"]] == [made["webhook"]["id"]]
    assert a.data(DELETE, id=made["webhook"]["id"])["deleteWebhook"] is True
    assert a.data(HOOKS)["webhooks"] == []
