"""The one commit step shared by a player's move, a bot's turn and a takeover: store the new
state, version and events, set deadlines and must-act markers, queue what comes next, and end
the match through the finisher when the engine says it is over."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from kernel.ops import metrics

from .. import signals
from ..engine.core import Action, Rules, Step
from ..models import Match, Seat
from ..timecontrol import TIME_CONTROLS
from . import schedule
from .common import bump, clock_of, seats_of
from .eventlog import append_events
from .finisher import match_finish
from .sink import ORM, Sink


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
    seat_changes: dict[int, set[str]] | None = None,
    sink: Sink = ORM,
) -> None:
    """Store one applied step: version, state, events, deadlines; the finisher if it ended.

    Statistics are attributed to whoever decided: from a decision a bot took for a human
    (``by_bot``) until that player's next own decision, what the seat's statistics gain (the
    decision itself and what follows from it, such as a bluff being called) goes to
    ``takeover_stats``, so the player's own statistics hold only the player's decisions.

    ``seat_changes`` (position -> field names) are the caller's own changes to ``seats``, not
    yet saved: they are written with this step's seat bookkeeping, in one statement. The match
    row is written with only the columns a step changes (all of them when it ends).

    ``sink`` receives the writes and the work queued on commit: the ORM (the default: each
    write at once, inside the caller's transaction) or a :class:`.sink.Batch` that writes the
    whole step in one statement (the optimistic move, :mod:`.optimistic`)."""
    changes: dict[int, set[str]] = {p: set(f) for p, f in (seat_changes or {}).items()}
    acting = seats[actor]
    by = "takeover" if by_bot else "bot" if acting.is_bot else "player"
    sink.on_commit(partial(metrics.move_applied, match.game, by))  # counted once it is stored
    if acting.last_by_bot != by_bot and not acting.is_bot:
        acting.last_by_bot = by_bot
        changes.setdefault(actor, set()).add("last_by_bot")
    fields = ["state", "version", "last_seq", "deadline", "updated_at"]
    bot_decided = [s.position for s in seats if s.last_by_bot and not s.is_bot]
    if bot_decided:
        old, new = rules.stats(before), rules.stats(step.state)
        takeover = match.takeover_stats or [{} for _ in range(match.seat_count)]
        for position in bot_decided:
            for key, value in _stat_gain(old[position], new[position]).items():
                takeover[position][key] = takeover[position].get(key, 0) + value
        match.takeover_stats = takeover
        fields.append("takeover_stats")
    bump(match)
    match.state = rules.to_json(step.state)
    append_events(
        match, step, actor=actor, action=action, by_bot=by_bot, deadline=deadline, sink=sink
    )
    status = match.status
    armed = match.timer_at
    after_change(
        match, step.state, rules, actor=actor, seats=seats, seat_changes=changes, sink=sink
    )
    if match.status != status:
        sink.match(match, None)  # the finisher changed more: write the whole row
    else:
        sink.match(match, [*fields, "timer_at"] if match.timer_at != armed else fields)


def _stat_gain(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    return {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}


def after_change(
    match: Match,
    state: Any,
    rules: Rules[Any],
    actor: int | None = None,
    seats: list[Seat] | None = None,
    seat_changes: dict[int, set[str]] | None = None,
    sink: Sink = ORM,
) -> None:
    """Deadlines and must-act markers after every change; the finisher when it is over.

    A seat that still has the same decision pending keeps its deadline; a seat that just acted
    and must act again has a new decision, with a new deadline. The seats' changes (and
    ``seat_changes``, the caller's own) are written in one statement; the database clock is
    the one read with the row lock when the caller asked for it (``locked(clock=True)``)."""
    changes = seat_changes if seat_changes is not None else {}
    if rules.is_over(state):
        sink.finishing()
        seats = seats if seats is not None else seats_of(match)
        ORM.seats(seats, changes)  # the finisher writes through the ORM too
        match_finish(match=match, reason=rules.end_reason(state), state=state, seats=seats)
        return
    to_act = set(rules.to_act(state))
    control = TIME_CONTROLS[match.time_control]
    now: datetime | None = None
    earliest: datetime | None = None
    needs_bot = False
    all_seats = seats if seats is not None else seats_of(match)
    before = {s.position for s in all_seats if s.must_act}  # decisions pending before
    for seat in all_seats:
        must = seat.position in to_act
        deadline = None
        resting = False  # the player on vacation (async seats only): no bot plays for them
        if seat.vacation_until is not None:
            now = now or clock_of(match)
            resting = seat.vacation_until > now
        if must and (seat.is_bot or (seat.away and not resting)):
            needs_bot = True
        elif must and control.humans_have_deadlines:
            pending = seat.must_act and seat.deadline is not None and seat.position != actor
            if pending:
                deadline = seat.deadline
            else:
                now = now or clock_of(match)
                # on vacation (async seats only): the full time from the vacation's end
                start = max(now, seat.vacation_until) if seat.vacation_until else now
                deadline = start + timedelta(seconds=match.decision_seconds)
        if deadline and (earliest is None or deadline < earliest):
            earliest = deadline
        if seat.must_act != must or seat.deadline != deadline:
            seat.must_act, seat.deadline = must, deadline
            changes.setdefault(seat.position, set()).update(("must_act", "deadline"))
    sink.seats(all_seats, changes)
    signals.step_committed.send(match, all_seats, before, actor, sink)
    new_deadline = earliest != match.deadline
    match.deadline = earliest
    match_pk, version = match.pk, match.version
    if needs_bot:
        sink.on_commit(lambda: schedule.bots(match_pk, version))
    if (
        earliest is not None
        and new_deadline
        and schedule.timer_needed(earliest, match.timer_at, now or clock_of(match))
    ):
        match.timer_at = earliest
        sink.on_commit(lambda: schedule.deadline(match_pk, version, earliest))
