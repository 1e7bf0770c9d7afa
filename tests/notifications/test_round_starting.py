"""``round_starting``: a tournament's entrants are told shortly before its announced start.
The notice is written when they register (due ``ROUND_NOTICE_SECONDS`` before ``starts_at``),
stays out of the inbox until the reminder sweep fires it, and is dropped if the player
withdrew, the tournament started already or its start is no longer the one announced."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import guest_create
from notifications import reads, services
from notifications.models import Kind, Notification
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _announced(hours: float = 2.0) -> Tournament:
    host = guest_create()[0]
    return tournaments.tournament_create(
        user=host, name="Friday dice", starts_at=timezone.now() + timedelta(hours=hours)
    )


def _notice(user) -> Notification:
    return Notification.objects.get(user=user, kind=Kind.ROUND_STARTING)


def _unread(user) -> int:
    return reads.unread_count(user=user)


def _inbox(user) -> list[dict]:
    return reads.render(list(reads.inbox(user=user)))


def _make_due(user) -> None:
    Notification.objects.filter(user=user, kind=Kind.ROUND_STARTING).update(
        due_at=timezone.now() - timedelta(seconds=1)
    )


def test_registering_writes_a_notice_due_before_the_start_that_fires_into_the_inbox(settings):
    settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "ROUND_NOTICE_SECONDS": 900}
    tournament = _announced()
    player = guest_create()[0]
    tournaments.tournament_register(tournament_id=tournament.pk, user=player)
    notice = _notice(player)
    assert notice.due_at == tournament.starts_at - timedelta(seconds=900)
    assert _unread(player) == 0  # not before it is due
    assert services.reminders_fire() == 0
    _make_due(player)
    assert services.reminders_fire() == 1
    assert _unread(player) == 1
    (item,) = _inbox(player)
    assert item["kind"] == "round_starting"
    assert item["tournament"] == str(tournament.pk)
    assert item["starts_at"] == tournament.starts_at.isoformat()
    assert item["game"] == tournament.game
    assert services.reminders_fire() == 0  # once


def test_a_start_closer_than_the_notice_is_told_at_the_next_sweep():
    tournament = _announced(hours=0.05)  # three minutes from now, inside the ten-minute notice
    player = guest_create()[0]
    tournaments.tournament_register(tournament_id=tournament.pk, user=player)
    assert _notice(player).due_at <= timezone.now()
    assert services.reminders_fire() == 1
    assert _unread(player) == 1


def test_no_notice_without_an_announced_start():
    host = guest_create()[0]
    tournament = tournaments.tournament_create(user=host, name="Whenever")
    player = guest_create()[0]
    tournaments.tournament_register(tournament_id=tournament.pk, user=player)
    assert not Notification.objects.filter(kind=Kind.ROUND_STARTING).exists()


def test_a_player_who_withdrew_is_not_told():
    tournament = _announced()
    stays, leaves = guest_create()[0], guest_create()[0]
    for player in (stays, leaves):
        tournaments.tournament_register(tournament_id=tournament.pk, user=player)
    tournaments.tournament_unregister(tournament_id=tournament.pk, user=leaves)
    _make_due(stays)
    _make_due(leaves)
    assert services.reminders_fire() == 2  # both handled: one fired, one deleted
    assert _unread(stays) == 1
    assert not Notification.objects.filter(user=leaves).exists()


def test_registering_again_after_withdrawing_tells_the_player_once():
    tournament = _announced()
    player = guest_create()[0]
    tournaments.tournament_register(tournament_id=tournament.pk, user=player)
    tournaments.tournament_unregister(tournament_id=tournament.pk, user=player)
    tournaments.tournament_register(tournament_id=tournament.pk, user=player)
    _make_due(player)
    services.reminders_fire()
    assert _unread(player) == 1


def test_a_tournament_that_started_already_or_moved_its_start_drops_the_notice():
    started, moved = _announced(), _announced()
    players = [guest_create()[0] for _ in range(3)]
    for player in players:
        tournaments.tournament_register(tournament_id=started.pk, user=player)
    tournaments.tournament_register(tournament_id=moved.pk, user=players[0])
    tournaments.tournament_start(tournament_id=started.pk, user=started.host)
    Tournament.objects.filter(pk=moved.pk).update(starts_at=moved.starts_at + timedelta(hours=1))
    for player in players:
        _make_due(player)
    services.reminders_fire()
    assert not Notification.objects.filter(kind=Kind.ROUND_STARTING).exists()
