"""The end-of-match work, applied exactly once per finished match: careers, ratings, rating
history and leaderboard values (the rules are in :mod:`.tally`). Queued by the finisher;
re-queued by the sweep if it was lost.

Exactly once: the match row is locked and ``results_recorded`` checked, everything is written in
that one transaction, and a :class:`RecordedMatch` row (unique per match) is inserted with it.
A duplicated task finds the flag set and does nothing; two at once queue on the row lock; a
crash before the commit leaves nothing behind, and the sweep queues the work again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from .. import boards
from ..models import Career, Event, Match, RatingPoint, RecordedMatch, Seat
from .common import MatchId, match_pk
from .tally import TALLIED_FIELDS, MatchFacts, match_facts, tally_match


@transaction.atomic
def match_record_results(*, match_id: MatchId) -> bool:
    """Add a finished match to its players' careers and ratings. Returns whether it ran; a
    second call for the same match does nothing."""
    match = Match.objects.select_for_update().filter(pk=match_pk(match_id)).first()
    if match is None or match.status != Match.Status.FINISHED or match.results_recorded:
        return False
    if match.placements is None or match.finished_at is None:  # no result: nothing to count
        match.results_recorded = True  # (and nothing for the sweep to queue again)
        match.save(update_fields=["results_recorded"])
        return False
    seats = Seat.objects.filter(match=match).order_by("position")
    rows = seats.values_list("user_id", "user__deleted_at")
    # A deleted player's seat counts as a bot's: no career, no rating for the tombstone.
    users = [None if deleted is not None else user_id for user_id, deleted in rows]
    facts = facts_of(match, users, decision_counts([match.pk]))
    user_ids = [p.user_id for p in facts.participants]  # sorted: locks taken in one order
    Career.objects.bulk_create(
        [Career(user_id=u, game=match.game) for u in user_ids], ignore_conflicts=True
    )
    careers = {
        c.user_id: c
        for c in Career.objects.select_for_update()
        .filter(game=match.game, user_id__in=user_ids)
        .order_by("user_id")
    }
    # Inserted once the careers are locked: its id is the order ratings were applied in.
    record = RecordedMatch.objects.create(match=match, game=match.game, rated=facts.rated)
    points = tally_match(facts, careers, record, boards.Thresholds.current())
    now = timezone.now()
    for career in careers.values():
        career.updated_at = now
    _write_careers(list(careers.values()))
    RatingPoint.objects.bulk_create(points)
    match.results_recorded = True
    match.save(update_fields=["results_recorded"])
    return True


def _write_careers(careers: list[Career]) -> None:
    """The tallied columns of the match's careers (a handful of rows), one ``UPDATE`` each:
    Django's ``bulk_update`` builds a ``CASE`` per column and row, which for these ~20
    columns cost more CPU than the whole rest of the end-of-match work."""
    wanted = set(TALLIED_FIELDS)
    columns = [f.attname for f in Career._meta.concrete_fields if f.name in wanted]
    for career in careers:
        Career.objects.filter(pk=career.pk).update(**{c: getattr(career, c) for c in columns})


def facts_of(
    match: Match, seat_users: list[int | None], decisions: dict[Any, dict[tuple[int, bool], int]]
) -> MatchFacts:
    assert match.placements is not None and match.finished_at is not None
    return match_facts(
        match_id=match.pk,
        game=match.game,
        seat_count=match.seat_count,
        options=match.options,
        placements=match.placements,
        stats=match.stats,
        takeover_stats=match.takeover_stats,
        finished_at=match.finished_at,
        seat_users=seat_users,
        decisions=decisions.get(match.pk, {}),
        rated=match.rated,
    )


def decision_counts(match_ids: Iterable[Any] | None) -> dict[Any, dict[tuple[int, bool], int]]:
    """Decisions taken per match, seat and ``by_bot`` (a bot deciding for a human seat), from
    the event log: the events of one decision share its version. ``None``: every match."""
    rows = Event.objects.filter(actor__isnull=False)
    if match_ids is not None:
        rows = rows.filter(match_id__in=list(match_ids))
    out: dict[Any, dict[tuple[int, bool], int]] = {}
    counted = rows.values("match_id", "actor", "by_bot").annotate(n=Count("version", distinct=True))
    for row in counted.order_by():
        out.setdefault(row["match_id"], {})[(row["actor"], row["by_bot"])] = row["n"]
    return out
