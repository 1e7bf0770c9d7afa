"""A player leaves for good (their account is being deleted: :mod:`accounts.deletion`): every
seat and tournament entry of theirs is settled so that the other players' matches go on.

- a lobby seat is freed, as if they had left (:func:`.lobby.match_leave`);
- in an active match the seat stays theirs (the tombstone, shown as "Deleted player xxxx") and
  is marked away for good: the takeover bot (``TAKEOVER_BOT_LEVEL``) takes every decision for
  it, as for any away seat (``by_bot`` in the log, its statistics kept apart), until the match
  ends; if the seat must act now, the bot is asked at once;
- a finished or aborted match is not touched (the other players' records);
- an open tournament's entry is withdrawn; a started one keeps it (its rounds are played as
  above).
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.db import transaction

from accounts.models import User

from ..models import Match, Seat
from . import schedule
from .common import bump, locked, seats_of
from .lobby import match_leave


@transaction.atomic
def player_depart(*, user: User) -> dict[str, int]:
    """Settle every seat of ``user``; returns how many were handled (``freed``,
    ``taken_over``). Idempotent. (Tournament entries are the tournaments' departure.)"""
    done = {"freed": 0, "taken_over": 0}
    match_ids = (
        Seat.objects.filter(user=user)
        .filter(match__status__in=[Match.Status.LOBBY, Match.Status.ACTIVE])
        .order_by("match_id")  # locks taken in one order
        .values_list("match_id", flat=True)
        .distinct()
    )
    for match_id in list(match_ids):
        match = locked(match_id)  # the status may have changed since the list was read
        if match.status == Match.Status.LOBBY:
            match_leave(match_id=match.pk, user=user)
            done["freed"] += 1
        elif match.status == Match.Status.ACTIVE and _hand_to_bot(match, user):
            done["taken_over"] += 1
    return done


def _hand_to_bot(match: Match, user: User) -> bool:
    """Mark the user's seats of the (locked) active ``match`` away for good and wake the bot
    if one of them must act."""
    seats = [s for s in seats_of(match) if s.user_id == user.pk]
    if not seats:
        return False
    for seat in seats:
        seat.away = True
        seat.timeouts = max(seat.timeouts, settings.FIBSERVER["AWAY_AFTER_TIMEOUTS"])
        seat.vacation_until = None  # a vacation would hold the bot back
        seat.save(update_fields=["away", "timeouts", "vacation_until"])
    # A new version: a move of theirs read before this commits finds its write refused and
    # is judged again from a fresh read, which sees the account gone.
    bump(match)
    match.save(update_fields=["version", "updated_at"])
    # The others' views changed (the seat now shows away, under the tombstone's label): their
    # followers are woken at the new version, as after any change of the match.
    transaction.on_commit(partial(_publish, match.pk, match.version))
    if any(s.must_act for s in seats):
        transaction.on_commit(partial(schedule.bots, match.pk, match.version))
    return True


def _publish(match_id: object, version: int) -> None:
    from kernel.wake import publish

    publish(match_id, version)
