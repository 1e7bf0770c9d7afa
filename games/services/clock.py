"""Bots and the clock: a bot seat's turn, a decision taken by a bot for a seat whose deadline
passed (the takeover), and the sweep that catches whatever a lost timer or a crashed worker
left behind. The database clock is the only clock."""

from __future__ import annotations

import random
import secrets
import time
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Now

from kernel.ops import metrics

from .. import signals
from ..engine.bots import bot_levels, make_bot
from ..engine.core import Rules
from ..models import Match, Seat
from . import schedule
from .common import MatchId, db_now, engine_state, locked, match_pk, rules_for, seats_of
from .step import commit_step
from .vacation import on_vacation


def take_over(
    match: Match,
    rules: Rules[Any],
    state: Any,
    seat: Seat,
    *,
    seats: list[Seat],
    deadline: datetime | None,
) -> Any:
    """A bot takes one decision for ``seat`` from that seat's view, and the step is stored.
    ``seats`` are the match's seats in position order, ``seat`` among them. Returns the new
    engine state."""
    level = seat.bot_level or settings.FIBSERVER["TAKEOVER_BOT_LEVEL"]
    if level not in bot_levels(match.game):
        level = "random"
    bot = make_bot(match.game, level, random.Random(secrets.randbits(64)))
    started = time.perf_counter()
    action = bot.choose(rules.view(state, seat.position))
    metrics.bot_decided(match.game, level, time.perf_counter() - started)
    if not seat.is_bot:
        reason = "deadline" if deadline is not None else "away"
        transaction.on_commit(partial(metrics.taken_over, match.game, reason))
    step = rules.apply(state, seat.position, action)
    commit_step(
        match,
        rules,
        step,
        actor=seat.position,
        action=action,
        by_bot=not seat.is_bot,
        before=state,
        seats=seats,
        deadline=deadline,
    )
    signals.decision_taken_by_bot.send(match, seat)
    return step.state


@transaction.atomic
def bot_act(*, match_id: MatchId, expected_version: int) -> bool:
    """One decision for a bot seat, or for a human seat marked away.

    Carries the version it was scheduled for: a stale call does nothing. Returns whether an
    action was applied."""
    match = locked(match_id)
    if match.status != Match.Status.ACTIVE or match.version != expected_version:
        return False
    rules = rules_for(match)
    state = engine_state(match, rules)
    seats = seats_of(match)
    for position in rules.to_act(state):
        seat = seats[position]
        if seat.is_bot or (seat.away and not on_vacation(seat, db_now())):
            take_over(match, rules, state, seat, seats=seats, deadline=None)
            return True
    return False


def deadline_expire(
    *, match_id: MatchId, expected_version: int | None = None, skip_locked: bool = False
) -> int:
    """Every overdue decision of a match is taken by a bot for its seat (one decision each).

    ``expected_version`` is the version the timer was set for (a stale timer takes nothing; it
    sends the match's next timer if none is armed, :func:`_rearm`);
    the sweep passes none and ``skip_locked`` so that it never waits behind a player's move.
    After ``AWAY_AFTER_TIMEOUTS`` consecutive time-outs a seat is marked away and the bot keeps
    playing for it until the player acts again. Returns the decisions taken."""
    with transaction.atomic():
        query = Match.objects.select_for_update(skip_locked=skip_locked)
        match = query.filter(pk=match_pk(match_id)).first()
        if match is None or match.status != Match.Status.ACTIVE:
            return 0
        if expected_version is not None and match.version != expected_version:
            _rearm(match)
            return 0
        now = db_now()
        rules = rules_for(match)
        state = engine_state(match, rules)
        taken = 0
        seats = seats_of(match)  # kept current by each step's deadline update
        for _ in range(match.seat_count * 2):
            overdue = [
                (deadline, p, seats[p])
                for p in rules.to_act(state)
                if (deadline := seats[p].deadline) is not None
                and deadline <= now
                and not on_vacation(seats[p], now)
            ]
            if not overdue or match.status != Match.Status.ACTIVE:
                break
            seat = min(overdue, key=lambda o: (o[0], o[1]))[2]
            seat.timeouts += 1
            seat.away = seat.timeouts >= settings.FIBSERVER["AWAY_AFTER_TIMEOUTS"]
            seat.save(update_fields=["timeouts", "away"])
            late = (now - seat.deadline).total_seconds() if seat.deadline else 0.0
            state = take_over(match, rules, state, seat, seats=seats, deadline=seat.deadline)
            source = "sweep" if expected_version is None else "timer"
            transaction.on_commit(partial(metrics.deadline_fired, match.game, source, late))
            taken += 1
        return taken


def _rearm(match: Match) -> None:
    """A stale timer takes nothing (the decision it was set for has been taken) but sends the
    match's next timer, for the deadline it finds, unless one is already to fire before it
    (``schedule.timer_needed``): steps send a timer only when none is armed. The caller holds
    the row lock; nothing else changes, not even the version."""
    at = match.deadline
    if at is None or not schedule.timer_needed(at, match.timer_at, db_now()):
        return
    match.timer_at = at
    match.save(update_fields=["timer_at"])
    match_pk, version = match.pk, match.version
    transaction.on_commit(lambda: schedule.deadline(match_pk, version, at))


def deadlines_sweep(*, limit: int = 200) -> int:
    """Catch every overdue deadline (a lost timer, a crashed worker), every bot turn left
    waiting too long and every finished match whose end-of-match work was lost. Returns the
    decisions taken."""
    due = list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=Now())
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )
    taken = sum(deadline_expire(match_id=pk, skip_locked=True) for pk in due)
    stall = timedelta(seconds=settings.FIBSERVER["BOT_STALL_SECONDS"])
    stalled = (
        Seat.objects.filter(must_act=True, match__status=Match.Status.ACTIVE)
        .filter(Q(away=True) | ~Q(bot_level=""))
        .filter(match__updated_at__lte=db_now() - stall)
        .values_list("match_id", "match__version")
        .distinct()[:limit]
    )
    for match_id, version in stalled:
        schedule.bots(match_id, version)
    unrecorded = Match.objects.filter(
        status=Match.Status.FINISHED, results_recorded=False, finished_at__lte=db_now() - stall
    ).values_list("pk", flat=True)[:limit]
    for match_id in unrecorded:
        schedule.results(match_id)
    return taken
