"""Delivery: the outbox relay hands notifications to the channels, each attempt is recorded,
failures are tried again with an exponential back-off, a webhook that keeps failing is
disabled (and its owner told), quiet hours hold deliveries back, reminders fire once per
decision. Webhooks are tested against a local receiver; email through Django's email backend."""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta

import orjson
import pytest
from django.core import mail
from django.utils import timezone

from accounts.services import guest_create
from games import services as game_services
from games.models import Match, Seat
from notifications import channels, services
from notifications.channels.webhook import HEADER, sign, verify
from notifications.models import Delivery, Kind, Notification, Preference, Webhook
from notifications.prefs import quiet_until
from notifications.tasks import relay

from .helpers import LOCAL as CHANNELS_HERE
from .helpers import move, table, to_act
from .receivers import http_receiver

pytestmark = pytest.mark.django_db

LOCAL = {**CHANNELS_HERE, "WEBHOOK_MAX_FAILURES": 2}


@pytest.fixture
def local_hooks(settings):
    settings.NOTIFICATIONS = dict(LOCAL)
    return settings


def test_a_signed_webhook_delivery_reaches_the_receiver_once(local_hooks):
    with http_receiver() as (url, received):
        match, users = table()
        seat = to_act(match)[0]
        hook = services.webhook_create(user=users[seat], url=url)
        relay()
        relay()  # nothing twice
        bodies = [orjson.loads(body) for _, body in received.requests]
        kinds = sorted(b["notification"]["kind"] for b in bodies)
        assert kinds == ["match_started", "your_turn"]
        for headers, body in received.requests:
            assert verify(hook.secret, headers[HEADER], body)
            assert not verify("another secret", headers[HEADER], body)
            assert headers["Content-Type"] == "application/json"
        turn = next(b["notification"] for b in bodies if b["notification"]["kind"] == "your_turn")
        assert turn["match"] == str(match.pk) and turn["version"] == match.version
    sent = Delivery.objects.filter(webhook=hook)
    assert {d.status for d in sent} == {"sent"} and all(len(d.attempts) == 1 for d in sent)
    assert Notification.objects.filter(dispatched=False, due_at__isnull=True).count() == 0


def test_a_signature_is_refused_outside_the_replay_window():
    body = b'{"x":1}'
    old = sign("s", body, at=1_000_000)
    assert verify("s", old, body, now=1_000_000 + 299)
    assert not verify("s", old, body, now=1_000_000 + 301)
    assert not verify("s", old, body + b" ", now=1_000_000)
    assert not verify("s", "garbage", body)


def test_a_failing_endpoint_is_tried_again_with_back_off_then_disabled_and_its_owner_told(
    local_hooks,
):
    local_hooks.NOTIFICATIONS = {**LOCAL, "BACKOFF_SECONDS": 30.0}
    with http_receiver(status=503) as (url, received):
        match, users = table()
        owner = users[to_act(match)[0]]  # two notifications: match started, your turn
        hook = services.webhook_create(user=owner, url=url)
        relay()
        started = Delivery.objects.get(webhook=hook, notification__kind=Kind.MATCH_STARTED)
        assert started.status == "pending" and len(started.attempts) == 1
        assert not started.attempts[0]["ok"] and started.attempts[0]["detail"] == "HTTP 503"
        wait = (started.not_before - timezone.now()).total_seconds()
        assert 25 < wait <= 30  # the first back-off
        assert channels.attempt(started.pk) is None  # not due yet: nothing sent
        assert len(started.attempts) == 1
        for expected_wait in (60.0, None):  # 30 · 2, then the last attempt
            Delivery.objects.filter(pk=started.pk).update(not_before=timezone.now())
            assert channels.attempt(started.pk) == expected_wait
        started.refresh_from_db()
        assert started.status == "failed" and len(started.attempts) == 3
        hook.refresh_from_db()
        assert hook.active and hook.failures == 1
    # a second delivery failing for good disables the hook (WEBHOOK_MAX_FAILURES = 2)
    with http_receiver(status=404) as (url, received):  # a 4xx is final at once
        Webhook.objects.filter(pk=hook.pk).update(url=url)
        other = Delivery.objects.filter(webhook=hook).exclude(pk=started.pk).first()
        Delivery.objects.filter(pk=other.pk).update(not_before=timezone.now())
        assert channels.attempt(other.pk) is None
        assert len(received.requests) == 1
    hook.refresh_from_db()
    assert not hook.active and hook.failures == 2
    told = Notification.objects.get(user=owner, kind=Kind.WEBHOOK_DISABLED)
    assert told.data["url"] == hook.url


def test_a_failing_channel_never_blocks_a_move(local_hooks):
    with http_receiver(status=500) as (url, _received):
        match, users = table()
        for user in users:
            services.webhook_create(user=user, url=url)
        rng = random.Random(4)
        for _ in range(4):
            match.refresh_from_db()
            if match.status != Match.Status.ACTIVE:
                break
            move(match, users, rng)
            relay()
    assert Match.objects.get(pk=match.pk).version > 2


def test_muted_kinds_are_not_delivered_but_stay_in_the_inbox(local_hooks):
    with http_receiver() as (url, received):
        user = guest_create()[0]
        services.webhook_create(user=user, url=url)
        services.preference_update(user=user, channels={"webhook": {"match_started": False}})
        other = guest_create()[0]
        match = game_services.match_create(user=user, game="fibber", seats=2)
        game_services.match_join(match_id=match.pk, user=other)
        relay()
        kinds = [orjson.loads(b)["notification"]["kind"] for _, b in received.requests]
        assert "match_started" not in kinds
    assert Notification.objects.filter(user=user, kind=Kind.MATCH_STARTED).exists()


def test_quiet_hours_hold_deliveries_until_they_end_in_the_players_time_zone():
    pref = Preference(time_zone="America/New_York", quiet_start=time(22), quiet_end=time(7))
    # 03:00 UTC on 1 July is 23:00 in New York (EDT): quiet until 07:00 EDT = 11:00 UTC
    assert quiet_until(pref, datetime(2026, 7, 1, 3, tzinfo=UTC)) == datetime(
        2026, 7, 1, 11, tzinfo=UTC
    )
    # 12:00 EDT: not quiet
    assert quiet_until(pref, datetime(2026, 7, 1, 16, tzinfo=UTC)) is None
    # after midnight, before the end: the same day's end
    assert quiet_until(pref, datetime(2026, 7, 1, 8, tzinfo=UTC)) == datetime(
        2026, 7, 1, 11, tzinfo=UTC
    )
    day = Preference(time_zone="UTC", quiet_start=time(9), quiet_end=time(17))
    assert quiet_until(day, datetime(2026, 1, 5, 12, tzinfo=UTC)) == datetime(
        2026, 1, 5, 17, tzinfo=UTC
    )
    assert quiet_until(day, datetime(2026, 1, 5, 17, tzinfo=UTC)) is None
    assert quiet_until(Preference(), datetime(2026, 1, 5, 12, tzinfo=UTC)) is None


def test_a_delivery_in_quiet_hours_waits_for_their_end(local_hooks):
    with http_receiver() as (url, received):
        user = guest_create()[0]
        services.webhook_create(user=user, url=url)
        now = timezone.now().astimezone(UTC)
        start = (now - timedelta(hours=1)).time().replace(second=0, microsecond=0)
        end = (now + timedelta(hours=1)).time().replace(second=0, microsecond=0)
        services.preference_update(user=user, quiet=(start, end))
        other = guest_create()[0]
        match = game_services.match_create(user=user, game="fibber", seats=2)
        game_services.match_join(match_id=match.pk, user=other)
        relay()
        assert received.requests == []
        held = Delivery.objects.filter(webhook__user=user)
        assert held and all(d.not_before and d.not_before > timezone.now() for d in held)
        held.update(not_before=timezone.now())  # the quiet hours are over
        relay()
        assert len(received.requests) == held.count()


def test_email_goes_through_the_django_backend(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = guest_create()[0]
    user.email = "player@example.org"
    user.save(update_fields=["email"])
    other = guest_create()[0]
    match = game_services.match_create(user=user, game="fibber", seats=2)
    game_services.match_join(match_id=match.pk, user=other)
    relay()
    subjects = sorted(m.subject for m in mail.outbox)
    assert "fibserver: Your match has started" in subjects
    assert all(m.to == ["player@example.org"] for m in mail.outbox)
    assert str(match.pk) in mail.outbox[0].body


def _async_table() -> tuple[Match, list]:
    return table(time_control="async")


def test_a_reminder_fires_once_when_a_fifth_of_the_time_is_left():
    match, users = _async_table()
    seat = to_act(match)[0]
    reminder = Notification.objects.get(user=users[seat], kind=Kind.DEADLINE_REMINDER)
    deadline = Seat.objects.get(match=match, position=seat).deadline
    assert reminder.due_at == deadline - timedelta(seconds=match.decision_seconds * 0.2)
    assert Kind.DEADLINE_REMINDER not in [
        n.kind for n in Notification.objects.filter(user=users[seat], due_at__isnull=True)
    ]
    assert services.reminders_fire() == 0  # not due yet
    Notification.objects.filter(pk=reminder.pk).update(due_at=timezone.now())
    assert services.reminders_fire() == 1
    assert services.reminders_fire() == 0  # at most one per decision
    reminder.refresh_from_db()
    assert reminder.due_at is None


def test_a_reminder_whose_decision_was_taken_is_dropped():
    match, users = _async_table()
    seat = to_act(match)[0]
    reminder = Notification.objects.get(user=users[seat], kind=Kind.DEADLINE_REMINDER)
    move(match, users, random.Random(1), seat)
    Notification.objects.filter(pk=reminder.pk).update(due_at=timezone.now())
    services.reminders_fire()
    assert not Notification.objects.filter(pk=reminder.pk).exists()


def test_a_player_who_turned_reminders_off_gets_none():
    match, users = _async_table()
    seat = to_act(match)[0]
    services.preference_update(user=users[seat], reminders=False)
    Notification.objects.filter(kind=Kind.DEADLINE_REMINDER).update(due_at=timezone.now())
    assert services.reminders_fire() == 1  # handled: deleted
    assert not Notification.objects.filter(kind=Kind.DEADLINE_REMINDER).exists()


def test_live_matches_have_no_reminders():
    table()
    assert not Notification.objects.filter(kind=Kind.DEADLINE_REMINDER).exists()


def test_the_purge_deletes_old_notifications_and_keeps_recent_ones_and_pending_reminders():
    from notifications.tasks import purge

    _match, users = _async_table()
    old = Notification.objects.filter(kind=Kind.MATCH_STARTED, user=users[0])
    old.update(created_at=timezone.now() - timedelta(days=91))
    reminders = Notification.objects.filter(kind=Kind.DEADLINE_REMINDER).count()
    purge()
    assert not Notification.objects.filter(kind=Kind.MATCH_STARTED, user=users[0]).exists()
    assert Notification.objects.filter(kind=Kind.MATCH_STARTED, user=users[1]).exists()
    assert Notification.objects.filter(kind=Kind.DEADLINE_REMINDER).count() == reminders


def test_a_disabled_webhooks_failures_stop_counting_and_nothing_more_is_sent_to_it(local_hooks):
    local_hooks.NOTIFICATIONS = {**LOCAL, "WEBHOOK_MAX_FAILURES": 1}
    with http_receiver(status=404) as (url, received):  # every send fails for good
        match, users = table()
        owner = users[to_act(match)[0]]  # two notifications: match started, your turn
        hook = services.webhook_create(user=owner, url=url)
        relay()  # both fail in one batch: the first disables the hook, the second counts not
        assert len(received.requests) == 2
        hook.refresh_from_db()
        assert not hook.active and hook.failures == 1
        # a delivery still pending for the hook when it was disabled is not sent, not counted
        late = Delivery.objects.create(
            notification=Notification.objects.get(user=owner, kind=Kind.WEBHOOK_DISABLED),
            channel="webhook",
            webhook=hook,
        )
        assert channels.attempt(late.pk) is None
        relay()
        assert len(received.requests) == 2
    hook.refresh_from_db()
    late.refresh_from_db()
    assert not hook.active and hook.failures == 1
    assert late.status == "failed"
    assert Notification.objects.filter(user=owner, kind=Kind.WEBHOOK_DISABLED).count() == 1
