"""The one finisher: every way a match ends (completed, abandoned, aborted by staff) comes here.

It records placements and the seats' own statistics, clears deadlines and queues the
end-of-match work (``results.match_record_results``) on commit."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from kernel.errors import Conflict

from .. import signals
from ..engine.core import Event as EngineEvent
from ..engine.core import Step
from ..models import Match, Seat
from . import schedule
from .common import MatchId, bump, locked, rules_for
from .eventlog import append_events


def match_finish(
    *,
    match: Match,
    reason: str,
    aborted: bool = False,
    state: Any = None,
    seats: list[Seat] | None = None,
) -> None:
    """End ``match``: normal end, abandon or abort. The caller holds the row lock and saves
    the match. ``state`` is the final engine state of a completed match. ``reason`` is stored
    as the match's end reason: the game's own for a completed match (``Rules.end_reason``:
    ``silver_nose``, ``last_alive`` …, docs/rules.md), ``abandoned`` or ``aborted_by_staff``
    for an aborted one. ``seats``, the caller's seats of the match, get the changes written to
    the database too (no decision pending, no deadline, their place): its answer needs no
    second read of them."""
    match.status = Match.Status.ABORTED if aborted else Match.Status.FINISHED
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.deadline = None
    Seat.objects.filter(match=match).update(must_act=False, deadline=None)
    if state is not None and not aborted:
        rules = rules_for(match)
        match.placements = rules.placements(state)
        takeover = match.takeover_stats or [{} for _ in range(match.seat_count)]
        match.stats = [
            {key: value - takeover[seat].get(key, 0) for key, value in stats.items()}
            for seat, stats in enumerate(rules.stats(state))
        ]
        for position, place in enumerate(match.placements):
            Seat.objects.filter(match=match, position=position).update(place=place)
        match_pk = match.pk
        transaction.on_commit(lambda: schedule.results(match_pk))
    for seat in seats or []:
        seat.must_act, seat.deadline = False, None
        if match.placements is not None and not aborted:
            seat.place = match.placements[seat.position]
    people = Seat.objects.filter(match=match, user__isnull=False, bot_level="")
    signals.match_ended.send(match, list(people.values_list("user_id", "position")))


@transaction.atomic
def match_abort(*, match_id: MatchId, reason: str = "aborted_by_staff") -> Match:
    """End a match that has not ended, without a result (staff, from the admin). Followers
    see an ``aborted`` event; no placements, ratings or careers come of it."""
    match = locked(match_id)
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise Conflict(f"The match has already ended ({match.status}).", status=match.status)
    bump(match)
    append_events(
        match,
        Step(state=None, events=[EngineEvent("aborted", {"reason": reason})], chance=[]),
        actor=None,
        action=None,
        by_bot=False,
    )
    match_finish(match=match, reason=reason, aborted=True)
    match.save()
    return match
