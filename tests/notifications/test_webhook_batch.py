"""The relay and the senders in batches: deliveries written set-wise (their ids returned, none
twice), a lost task found again only when it is late, and a batch's outcomes recorded per
delivery."""

from __future__ import annotations

from datetime import timedelta

import orjson
import pytest
from django.utils import timezone

from accounts.services import guest_create
from notifications import channels, deliveries, services
from notifications.models import Delivery, Kind, Notification

from .receivers import http_receiver
from .test_delivery import LOCAL

pytestmark = pytest.mark.django_db


@pytest.fixture
def local_hooks(settings):
    settings.NOTIFICATIONS = dict(LOCAL)
    return settings


def _notes(user, count: int) -> list[Notification]:
    return Notification.objects.bulk_create(
        [
            Notification(user=user, kind=Kind.YOUR_TURN, data={"game": "fibber"}, key=f"t:{n}")
            for n in range(count)
        ]
    )


def test_dispatch_returns_each_new_delivery_once(local_hooks):
    users = [guest_create()[0] for _ in range(3)]
    hooks = {
        u.pk: [services.webhook_create(user=u, url=f"http://h{n}.test/") for n in range(2)]
        for u in users
    }
    for user in users:
        _notes(user, 4)
    handled, ids = deliveries.dispatch(limit=5)
    assert handled == 5 and len(ids) == 10 == len(set(ids))
    handled, more = deliveries.dispatch(limit=100)
    assert handled == 7 and len(more) == 14 and not set(ids) & set(more)
    assert deliveries.dispatch() == (0, [])
    rows = Delivery.objects.filter(pk__in=ids + more)
    assert rows.count() == 24 and {d.status for d in rows} == {"pending"}
    assert {(d.notification.user_id, d.webhook_id) for d in rows} == {
        (u, h.pk) for u, hs in hooks.items() for h in hs
    }
    assert all(d.attempts == [] and d.not_before is None for d in rows)


def test_the_lost_task_catch_up_leaves_fresh_deliveries_alone(local_hooks):
    user = guest_create()[0]
    services.webhook_create(user=user, url="http://h.test/")
    _notes(user, 2)
    _, ids = deliveries.dispatch()
    assert deliveries.pending_deliveries(late=120) == []  # their tasks are on their way
    assert sorted(deliveries.pending_deliveries(late=0)) == sorted(ids)
    Delivery.objects.filter(pk=ids[0]).update(created_at=timezone.now() - timedelta(minutes=3))
    assert deliveries.pending_deliveries(late=120) == [ids[0]]
    Delivery.objects.filter(pk=ids[1]).update(not_before=timezone.now() - timedelta(minutes=3))
    assert sorted(deliveries.pending_deliveries(late=120)) == sorted(ids)


def test_a_batch_records_each_deliverys_own_attempt(local_hooks):
    with http_receiver() as (good, got), http_receiver(status=503) as (bad, _):
        user = guest_create()[0]
        ok_hook = services.webhook_create(user=user, url=good)
        bad_hook = services.webhook_create(user=user, url=bad)
        _notes(user, 3)
        _, ids = deliveries.dispatch()
        again = channels.attempt_many(ids)
        sent = Delivery.objects.filter(webhook=ok_hook)
        failing = Delivery.objects.filter(webhook=bad_hook)
        assert set(again) == {d.pk for d in failing} and len(again) == 3
        assert all(d.status == "sent" and [a["ok"] for a in d.attempts] == [True] for d in sent)
        for d in failing:
            assert d.status == "pending" and len(d.attempts) == 1
            assert d.attempts[0] == {"at": d.attempts[0]["at"], "ok": False, "detail": "HTTP 503"}
        got_ids = sorted(orjson.loads(b)["notification"]["id"] for _, b in got.requests)
        assert got_ids == sorted(d.notification_id for d in sent)
        failing.update(not_before=timezone.now())
        assert channels.attempt_many([d.pk for d in failing]) != {}
        failing = Delivery.objects.filter(webhook=bad_hook)
        assert all(len(d.attempts) == 2 for d in failing)  # appended, not replaced
        sent = Delivery.objects.filter(webhook=ok_hook)
        assert all(len(d.attempts) == 1 for d in sent)  # not tried again
