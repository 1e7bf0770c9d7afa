"""Mobile push end to end, through local fakes of FCM HTTP v1 and APNs (HTTP/2): a move's
``your_turn`` reaches the next player's phones with the match and version a tap opens; a token
the service reports unregistered is deleted and the attempt recorded; 429 and 5xx are tried
again after the back-off or the service's ``Retry-After``; without credentials the channel is
off; the "mobile" preference turns it off per kind."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from notifications import deliveries
from notifications.channels import attempt_many
from notifications.models import Delivery, Device, Notification
from notifications.tasks import relay

from .helpers import move, table, to_act
from .mobile_fakes import fake_apns, fake_fcm
from .test_inbox_api import client_of

pytestmark = pytest.mark.django_db

BASE = {"BACKOFF_SECONDS": 0.0, "MAX_ATTEMPTS": 3}
APNS_TOKEN = "ab" * 32


def register(user, platform: str, token: str, label: str = "") -> dict:
    body = {"platform": platform, "token": token, "label": label}
    response = client_of(user).post("/api/me/devices/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def turn_of_the_next_player(users) -> tuple:
    """A move; returns the match refreshed and the seats now waiting."""
    match, users = users
    relay()  # match_started and the first your_turn out of the way
    seat = move(match, users, random.Random(5))
    match.refresh_from_db()
    return match, [s for s in to_act(match) if s != seat]


def test_a_move_reaches_the_next_players_phone_through_fcm_with_what_a_tap_opens(settings):
    with fake_fcm() as fcm:
        settings.NOTIFICATIONS = {**BASE, **fcm.settings()}
        match, users = table()
        for user in users:
            register(user, "fcm", f"fcm-token-{user.pk}", "Pixel")
        relay()
        fcm.messages.clear()
        match, waiting = turn_of_the_next_player((match, users))
        relay()
        relay()  # nothing twice
        assert fcm.errors == []
        turns = [m for m in fcm.messages if m["data"]["kind"] == "your_turn"]
        assert waiting and len(turns) == len(waiting)
        for message in turns:
            data = message["data"]
            assert data["match"] == str(match.pk) and data["version"] == str(match.version)
            assert int(data["seat"]) in waiting
            assert message["token"] == f"fcm-token-{users[int(data['seat'])].pk}"
            assert message["notification"]["title"] == "fibserver: Your turn"
            assert message["android"]["priority"] == "high"
            note = Notification.objects.get(pk=int(data["id"]))
            assert note.kind == "your_turn" and note.version == match.version
        assert fcm.token_requests == 1  # the OAuth token is reused
    sent = Delivery.objects.filter(channel="mobile")
    assert sent.exists() and {d.status for d in sent} == {"sent"}
    assert all(len(d.attempts) == 1 and d.attempts[0]["ok"] for d in sent)
    assert Device.objects.filter(last_used_at__isnull=False).count() == 2


def test_a_move_reaches_an_iphone_through_apns_over_http2_with_a_valid_provider_token(settings):
    with fake_apns() as apns:
        settings.NOTIFICATIONS = {**BASE, **apns.settings()}
        match, users = table()
        tokens = {u.pk: f"{u.pk:02x}" * 32 for u in users}
        for user in users:
            register(user, "apns", tokens[user.pk], "iPhone")
        relay()
        apns.messages.clear()
        match, waiting = turn_of_the_next_player((match, users))
        relay()
        assert apns.errors == []
        assert apns.protocols and set(apns.protocols) == {"h2"}
        turns = [m for m in apns.messages if m["payload"]["kind"] == "your_turn"]
        assert turns
        for message in turns:
            payload = message["payload"]
            assert payload["match"] == str(match.pk) and payload["version"] == str(match.version)
            assert int(payload["seat"]) in waiting
            assert message["token"] == tokens[users[int(payload["seat"])].pk]
            assert message["headers"]["apns-priority"] == "10"
            assert payload["aps"]["alert"]["title"] == "fibserver: Your turn"


@pytest.mark.parametrize(
    "platform, answer",
    [("fcm", "unregistered"), ("fcm", "invalid"), ("apns", "unregistered"), ("apns", "bad")],
)
def test_a_token_reported_unregistered_is_deleted_and_the_attempt_kept(settings, platform, answer):
    with fake_fcm() as fcm, fake_apns() as apns:
        settings.NOTIFICATIONS = {**BASE, **fcm.settings(), **apns.settings()}
        _match, users = table()
        token = APNS_TOKEN if platform == "apns" else "fcm-gone"
        getattr(fcm if platform == "fcm" else apns, answer).add(token)
        device = register(users[0], platform, token)
        keep = register(users[0], "fcm", "fcm-kept")
        relay()
        assert fcm.errors == [] and apns.errors == []
    assert list(Device.objects.values_list("pk", flat=True)) == [keep["id"]]
    lost = Delivery.objects.filter(channel="mobile", device__isnull=True)
    assert lost.exists() and {d.status for d in lost} == {"failed"}
    for delivery in lost:
        assert len(delivery.attempts) == 1 and not delivery.attempts[0]["ok"]
        assert (
            "unregistered" in delivery.attempts[0]["detail"]
            or "not valid" in (delivery.attempts[0]["detail"])
        )
    assert Delivery.objects.filter(channel="mobile", device_id=keep["id"], status="sent").exists()
    assert client_of(users[0]).get("/api/me/devices/").json()["results"][0]["id"] != device["id"]


@pytest.mark.parametrize("platform", ["fcm", "apns"])
def test_429_and_5xx_are_tried_again_after_the_services_retry_after(settings, platform):
    with fake_fcm() as fcm, fake_apns() as apns:
        settings.NOTIFICATIONS = {**BASE, **fcm.settings(), **apns.settings()}
        fake = fcm if platform == "fcm" else apns
        _, users = table()
        for user in users[1:]:
            Notification.objects.filter(user=user).update(dispatched=True)
        kept = Notification.objects.filter(user=users[0]).order_by("pk").first()
        Notification.objects.filter(user=users[0]).exclude(pk=kept.pk).update(dispatched=True)
        fake.script += [
            (429, {"reason": "TooManyRequests"}, {"Retry-After": "30"}),
            (503, {"reason": "ServiceUnavailable"}, {}),
        ]
        register(users[0], platform, APNS_TOKEN if platform == "apns" else "fcm-retry")
        count, ids = deliveries.dispatch()
        assert count and ids
        before = timezone.now()
        again = attempt_many(ids)
        assert again and min(again.values()) >= 30  # Retry-After beats the back-off of 0 s
        row = Delivery.objects.get(pk=next(iter(again)))
        assert row.status == "pending" and row.not_before >= before + timedelta(seconds=29)
        Delivery.objects.filter(pk__in=ids).update(not_before=None)
        attempt_many(ids)  # the 503: tried again
        Delivery.objects.filter(pk__in=ids).update(not_before=None)
        attempt_many(ids)
        assert fake.errors == []
    rows = Delivery.objects.filter(pk__in=ids)
    assert any(r.status == "sent" for r in rows)
    first = rows.order_by("id").first()
    assert [a["ok"] for a in first.attempts] == [False, False, True]
    assert "429" in first.attempts[0]["detail"] and "503" in first.attempts[1]["detail"]


def test_without_credentials_the_channel_is_off(settings):
    settings.NOTIFICATIONS = dict(BASE)
    _match, users = table()
    register(users[0], "fcm", "fcm-off")
    register(users[0], "apns", APNS_TOKEN)
    relay()
    assert not Delivery.objects.filter(channel="mobile").exists()


def test_the_mobile_preference_turns_kinds_off(settings):
    with fake_fcm() as fcm:
        settings.NOTIFICATIONS = {**BASE, **fcm.settings()}
        _match, users = table()
        register(users[0], "fcm", "fcm-muted")
        register(users[1], "fcm", "fcm-heard")
        off = {
            "channels": [
                {"channel": "mobile", "kind": "match_started", "on": False},
                {"channel": "mobile", "kind": "your_turn", "on": False},
            ]
        }
        answer = client_of(users[0]).patch("/api/me/notification-preferences/", off, format="json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["channels"]["mobile"]["your_turn"] is False
        relay()
        assert {m["token"] for m in fcm.messages} == {"fcm-heard"}
