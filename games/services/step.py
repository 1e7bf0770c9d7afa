"""The one commit step shared by a player's move, a bot's turn and a takeover: store the new
state, version and events, set deadlines and must-act markers, queue what comes next, and end
the match through the finisher when the engine says it is over."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from ..engine.core import Action, Rules, Step
from ..models import Match, Seat
from ..timecontrol import TIME_CONTROLS
from . import schedule
from .common import bump, db_now, seats_of
from .eventlog import append_events
from .finisher import match_finish


def commit_step(
    match: Match,
    rules: Rules[Any],
    step: Step,
    *,
    actor: int,
    action: Action,
    by_bot: bool,
    before: Any,
    seats: list[Seat],
    deadline: datetime | None = None,
) -> None:
    """Store one applied step: version, state, events, deadlines; the finisher if it ended.

    Statistics are attributed to whoever decided: from a decision a bot took for a human
    (``by_bot``) until that player's next own decision, what the seat's statistics gain (the
    decision itself and what follows from it, such as a bluff being called) goes to
    ``takeover_stats``, so the player's own statistics hold only the player's decisions."""
    acting = seats[actor]
    if acting.last_by_bot != by_bot and not acting.is_bot:
        acting.last_by_bot = by_bot
        acting.save(update_fields=["last_by_bot"])
    bot_decided = [s.position for s in seats if s.last_by_bot and not s.is_bot]
    if bot_decided:
        old, new = rules.stats(before), rules.stats(step.state)
        takeover = match.takeover_stats or [{} for _ in range(match.seat_count)]
        for position in bot_decided:
            for key, value in _stat_gain(old[position], new[position]).items():
                takeover[position][key] = takeover[position].get(key, 0) + value
        match.takeover_stats = takeover
    bump(match)
    match.state = rules.to_json(step.state)
    append_events(match, step, actor=actor, action=action, by_bot=by_bot, deadline=deadline)
    after_change(match, step.state, rules, actor=actor, seats=seats)
    match.save()


def _stat_gain(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    return {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}


def after_change(
    match: Match,
    state: Any,
    rules: Rules[Any],
    actor: int | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Deadlines and must-act markers after every change; the finisher when it is over.

    A seat that still has the same decision pending keeps its deadline; a seat that just acted
    and must act again has a new decision, with a new deadline."""
    if rules.is_over(state):
        match_finish(match=match, reason="completed", state=state)
        return
    to_act = set(rules.to_act(state))
    control = TIME_CONTROLS[match.time_control]
    now: datetime | None = None
    earliest: datetime | None = None
    needs_bot = False
    for seat in seats if seats is not None else seats_of(match):
        must = seat.position in to_act
        deadline = None
        if must and (seat.is_bot or seat.away):
            needs_bot = True
        elif must and control.humans_have_deadlines:
            pending = seat.must_act and seat.deadline is not None and seat.position != actor
            if pending:
                deadline = seat.deadline
            else:
                now = now or db_now()
                deadline = now + timedelta(seconds=match.decision_seconds)
        if deadline and (earliest is None or deadline < earliest):
            earliest = deadline
        if seat.must_act != must or seat.deadline != deadline:
            seat.must_act, seat.deadline = must, deadline
            seat.save(update_fields=["must_act", "deadline"])
    new_deadline = earliest != match.deadline
    match.deadline = earliest
    match_pk, version = match.pk, match.version
    if needs_bot:
        transaction.on_commit(lambda: schedule.bots(match_pk, version))
    if earliest is not None and new_deadline:
        transaction.on_commit(lambda: schedule.deadline(match_pk, version, earliest))
