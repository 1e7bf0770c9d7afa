"""Web Push: a move's notification reaches a browser's subscription encrypted (RFC 8291,
aes128gcm) and signed with the server's VAPID key (RFC 8292), checked and decrypted by a local
push service that holds the subscriber's keys; a failing push service gets retries with
back-off; a subscription the push service says is gone is deleted."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from notifications import services
from notifications.channels import web_push
from notifications.models import Delivery, PushSubscription
from notifications.tasks import relay

from .helpers import LOCAL, move, table, to_act
from .push_receiver import push_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def local(settings):
    settings.NOTIFICATIONS = dict(LOCAL)
    return settings


def subscribe(client: APIClient, subscription: dict) -> dict:
    response = client.post("/api/me/push-subscriptions/", subscription, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_move_is_pushed_encrypted_and_vapid_signed_to_the_next_players_browser(local):
    match, users = table()
    key = client_of(users[0]).get("/api/push/vapid-key/").json()["public_key"]
    assert key == web_push.public_key()
    with push_service(server_key=key) as service:
        for user in users:
            subscribe(client_of(user), service.subscription(f"u{user.pk}"))
        relay()
        service.messages.clear()
        service.headers.clear()
        rng = random.Random(3)
        seat = move(match, users, rng)
        relay()
        relay()  # nothing twice
        assert service.errors == []
        waiting = [s for s in to_act(match) if s != seat]
        turns = [m for m in service.messages if m["notification"]["kind"] == "your_turn"]
        assert waiting and len(turns) == len(waiting)
        match.refresh_from_db()
        for message in turns:
            note = message["notification"]
            assert note["match"] == str(match.pk) and note["version"] == match.version
            assert note["seat"] in waiting
            assert message["title"] == "fibserver: Your turn"
            assert message["url"] == f"/play/#/match/{match.pk}"
        assert all(h["urgency"] == "high" for h in service.headers)
    sent = Delivery.objects.filter(channel="web_push")
    assert sent.exists() and {d.status for d in sent} == {"sent"}


def test_the_payload_is_the_inbox_rendering(local):
    with push_service() as service:
        match, users = table()
        seat = to_act(match)[0]
        client = client_of(users[seat])
        subscribe(client, service.subscription())
        relay()
        inbox = client.get("/api/me/notifications/").json()["results"]
        pushed = sorted((m["notification"] for m in service.messages), key=lambda n: n["id"])
        assert pushed == sorted(inbox, key=lambda n: n["id"])


def test_a_failing_push_service_is_tried_again_with_back_off_then_given_up(local):
    local.NOTIFICATIONS = {**LOCAL, "BACKOFF_SECONDS": 0.0, "MAX_ATTEMPTS": 3}
    with push_service(status=503) as service:
        match, users = table()
        seat = to_act(match)[0]
        subscribe(client_of(users[seat]), service.subscription())
        relay()
        pending = Delivery.objects.filter(channel="web_push")
        assert pending.exists() and {d.status for d in pending} == {"pending"}
        for _ in range(3):
            relay()
        done = Delivery.objects.filter(channel="web_push")
        assert {d.status for d in done} == {"failed"} and {len(d.attempts) for d in done} == {3}
        attempts = [a for d in done for a in d.attempts]
        assert all(not a["ok"] and a["detail"] == "HTTP 503" for a in attempts)
        assert len(service.headers) == len(attempts)  # each attempt reached the service
        assert service.errors == []
        assert PushSubscription.objects.count() == 1  # a failing service: kept


def test_the_back_off_doubles(settings):
    settings.NOTIFICATIONS = {**LOCAL, "BACKOFF_SECONDS": 30.0}
    with push_service(status=500) as service:
        match, users = table()
        subscribe(client_of(users[to_act(match)[0]]), service.subscription())
        relay()
        delivery = Delivery.objects.filter(channel="web_push").first()
        assert delivery is not None and delivery.not_before is not None
        wait = (delivery.not_before - delivery.created_at).total_seconds()
        assert 29 < wait < 40
        relay()  # not due yet
        delivery.refresh_from_db()
        assert len(delivery.attempts) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_deleted(local, status):
    with push_service(status=status) as service:
        match, users = table()
        seat = to_act(match)[0]
        subscribe(client_of(users[seat]), service.subscription())
        relay()
    assert PushSubscription.objects.count() == 0
    records = Delivery.objects.filter(channel="web_push")
    assert records.exists() and {d.status for d in records} == {"failed"}
    assert {len(d.attempts) for d in records} == {1}
    assert all(d.push_id is None for d in records)
    # the next notifications have nowhere to be pushed: no delivery for them
    count = records.count()
    for _ in range(3):
        move(match, users, random.Random(1))
    relay()
    assert Delivery.objects.filter(channel="web_push").count() == count


def test_web_push_can_be_turned_off_per_kind(local):
    with push_service() as service:
        match, users = table()
        seat = to_act(match)[0]
        services.preference_update(
            user=users[seat], channels={"web_push": {"match_started": False}}
        )
        subscribe(client_of(users[seat]), service.subscription())
        relay()
        kinds = {m["notification"]["kind"] for m in service.messages}
        assert kinds == {"your_turn"}


def test_a_message_signed_with_another_key_is_refused_by_the_receiver(local):
    with push_service(server_key="someone-else") as service:
        match, users = table()
        subscribe(client_of(users[to_act(match)[0]]), service.subscription())
        relay()
        assert service.messages == [] and service.errors
