"""The inbox over REST: list with the unread count, mark read, the follower, preferences and
webhooks; every answer fits its OpenAPI component and every bad input is a 4xx that changes
nothing."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from accounts.services import guest_create
from notifications.models import Kind, Notification, Preference, Webhook
from tests.api.helpers import assert_error
from tests.api.openapi_validation import assert_fits

from .helpers import move, table, to_act

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    from accounts.services import token_issue

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=user)}")
    return client


def test_the_inbox_lists_newest_first_with_the_unread_count_and_marks_read():
    match, users = table()
    seat = to_act(match)[0]
    user = users[seat]
    client = client_of(user)
    body = client.get("/api/me/notifications/").json()
    assert_fits("NotificationPageOut", body)
    assert body["unread"] == body["count"] == 2
    turn, started = body["results"]
    assert (turn["kind"], started["kind"]) == ("your_turn", "match_started")
    assert turn["match"] == str(match.pk) and turn["version"] == match.version
    assert turn["seat"] == seat and turn["game"] == "fibber"

    one = client.post(f"/api/me/notifications/{turn['id']}/read/")
    assert one.status_code == 200, one.content
    assert_fits("NotificationOut", one.json())
    assert one.json()["read_at"] is not None
    assert client.get("/api/me/notifications/").json()["unread"] == 1
    assert client.get("/api/me/notifications/?unread=true").json()["count"] == 1
    everything = client.post("/api/me/notifications/read/", {}, format="json")
    assert everything.json() == {"marked": 1, "unread": 0}
    assert_fits("NotificationsReadOut", everything.json())


def test_mark_read_up_to_an_id_leaves_later_ones_unread():
    _match, users = table()
    user = users[0]
    client = client_of(user)
    first = Notification.objects.filter(user=user).order_by("id").first()
    answer = client.post("/api/me/notifications/read/", {"up_to": first.pk}, format="json")
    assert answer.json()["marked"] == 1
    assert answer.json()["unread"] == Notification.objects.filter(user=user).count() - 1


def test_someone_elses_notification_is_not_found_and_stays_unread():
    _match, users = table()
    theirs = Notification.objects.filter(user=users[0]).first()
    stranger = client_of(guest_create()[0])
    assert_error(stranger.post(f"/api/me/notifications/{theirs.pk}/read/"), 404, "not_found")
    assert_error(stranger.post("/api/me/notifications/x1/read/"), 404, "not_found")
    assert_error(stranger.post("/api/me/notifications/99999999999999999999/read/"), 404)
    theirs.refresh_from_db()
    assert theirs.read_at is None


@pytest.mark.parametrize(
    "path",
    [
        "/api/me/notifications/?unread=yes",
        "/api/me/notifications/?limit=0",
        "/api/me/notifications/events/?after=-1",
        "/api/me/notifications/events/?wait=31",
        "/api/me/notifications/events/?after=1.5",
    ],
)
def test_bad_queries_are_400(path):
    assert_error(client_of(guest_create()[0]).get(path), 400, "invalid")


@pytest.mark.parametrize(
    "body",
    [[], {"up_to": "1"}, {"up_to": 0}, {"up_to": True}, {"other": 1}],
)
def test_bad_read_all_bodies_are_400_and_change_nothing(body):
    _match, users = table()
    client = client_of(users[0])
    assert_error(client.post("/api/me/notifications/read/", body, format="json"), 400, "invalid")
    assert Notification.objects.filter(user=users[0], read_at__isnull=False).count() == 0


def test_anonymous_callers_are_401():
    client = APIClient()
    for path in ("/api/me/notifications/", "/api/me/notifications/events/", "/api/me/webhooks/"):
        assert_error(client.get(path), 401)
    assert_error(client.get("/api/me/notification-preferences/"), 401)


def test_the_follower_answers_the_notifications_after_an_id_oldest_first():
    match, users = table()
    rng = random.Random(2)
    seat = to_act(match)[0]
    other = users[1 - seat]
    client = client_of(other)
    first = client.get("/api/me/notifications/events/?after=0").json()
    assert_fits("NotificationFollowOut", first)
    assert [n["kind"] for n in first["notifications"]] == ["match_started"]
    move(match, users, rng, seat)
    later = client.get(f"/api/me/notifications/events/?after={first['last_id']}&wait=0").json()
    assert_fits("NotificationFollowOut", later)
    assert [n["kind"] for n in later["notifications"]] in (["your_turn"], ["match_ended"])
    again = client.get(f"/api/me/notifications/events/?after={later['last_id']}").json()
    assert again["notifications"] == [] and again["last_id"] == later["last_id"]


def test_preferences_per_kind_and_channel_quiet_hours_and_reminders():
    user = guest_create()[0]
    client = client_of(user)
    defaults = client.get("/api/me/notification-preferences/").json()
    assert_fits("NotificationPreferenceOut", defaults)
    assert all(all(v.values()) for v in defaults["channels"].values())
    changed = client.patch(
        "/api/me/notification-preferences/",
        {
            "channels": [{"channel": "webhook", "kind": "your_turn", "on": False}],
            "time_zone": "Europe/Paris",
            "quiet_start": "22:00",
            "quiet_end": "07:30",
            "reminders": False,
        },
        format="json",
    )
    assert changed.status_code == 200, changed.content
    body = changed.json()
    assert_fits("NotificationPreferenceOut", body)
    assert body["channels"]["webhook"]["your_turn"] is False
    assert body["channels"]["email"]["your_turn"] is True
    assert (body["quiet_start"], body["quiet_end"], body["time_zone"]) == (
        "22:00",
        "07:30",
        "Europe/Paris",
    )
    assert body["reminders"] is False
    on_again = client.patch(
        "/api/me/notification-preferences/",
        {"channels": [{"channel": "webhook", "kind": "your_turn", "on": True}]},
        format="json",
    ).json()
    assert on_again["channels"]["webhook"]["your_turn"] is True
    assert on_again["quiet_start"] == "22:00"  # left out: kept


@pytest.mark.parametrize(
    "body",
    [
        {"time_zone": "Mars/Olympus"},
        {"time_zone": 3},
        {"quiet_start": "25:00", "quiet_end": "07:00"},
        {"quiet_start": "22:00"},
        {"quiet_start": "22:00", "quiet_end": None},
        {"channels": [{"channel": "pigeon", "kind": "your_turn", "on": False}]},
        {"channels": [{"channel": "email", "kind": "your_turn", "on": "no"}]},
        {"channels": {"email": False}},
        {"reminders": 1},
        {"unknown": True},
        [],
    ],
)
def test_bad_preferences_are_400_and_change_nothing(body):
    user = guest_create()[0]
    response = client_of(user).patch("/api/me/notification-preferences/", body, format="json")
    assert_error(response, 400, "invalid")
    assert not Preference.objects.filter(user=user).exists()


def test_webhooks_are_created_listed_and_deleted(settings):
    settings.NOTIFICATIONS = {"WEBHOOK_ALLOW_HTTP": True, "WEBHOOK_ALLOW_PRIVATE": True}
    user = guest_create()[0]
    client = client_of(user)
    made = client.post("/api/me/webhooks/", {"url": "http://127.0.0.1:9/hook"}, format="json")
    assert made.status_code == 201, made.content
    assert_fits("WebhookCreatedOut", made.json())
    assert len(made.json()["secret"]) == 64
    listed = client.get("/api/me/webhooks/").json()
    assert_fits("WebhookListOut", listed)
    assert [h["id"] for h in listed["results"]] == [made.json()["id"]]
    assert "secret" not in listed["results"][0]
    stranger = client_of(guest_create()[0])
    assert_error(stranger.delete(f"/api/me/webhooks/{made.json()['id']}/"), 404)
    assert client.delete(f"/api/me/webhooks/{made.json()['id']}/").status_code == 204
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "url",
    ["http://93.184.216.34/hook", "https://127.0.0.1/hook", "https://10.1.2.3/", "ftp://x/", 5, ""],
)
def test_webhook_urls_must_be_https_and_public(url):
    user = guest_create()[0]
    response = client_of(user).post("/api/me/webhooks/", {"url": url}, format="json")
    assert_error(response, 400, "invalid")
    assert not Webhook.objects.exists()


def test_a_takeover_notification_shows_the_decision_as_the_seat_sees_it():
    from games import services
    from games.models import Seat

    match, users = table()
    seat = to_act(match)[0]
    Seat.objects.filter(match=match, position=seat).update(deadline="2000-01-01T00:00:00Z")
    services.deadline_expire(match_id=match.pk)
    body = client_of(users[seat]).get("/api/me/notifications/").json()
    assert_fits("NotificationPageOut", body)
    taken = [n for n in body["results"] if n["kind"] == Kind.TAKEOVER]
    assert len(taken) == 1 and taken[0]["events"]
    assert all(e["version"] == taken[0]["version"] for e in taken[0]["events"])
