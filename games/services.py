"""The only code that changes a match (STYLE.md habit 3).

Every writer locks the match row, checks what it expects (status, version, seat), applies
through the engine, appends events, bumps the version, sets deadlines and queues follow-up
work on commit. Every way a match ends goes through :func:`match_finish`.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.db.models.functions import Now
from django.utils import timezone

from .engine import registry
from .engine.bots import bot_levels, make_bot
from .engine.core import (
    EngineError,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Step,
    canonical_json,
)
from .engine.core import Event as EngineEvent
from .engine.rng import new_seed, seed_commitment
from .errors import (
    BadRequest,
    Conflict,
    Forbidden,
    IdempotencyKeyReused,
    IllegalActionError,
    Invalid,
    NotFound,
    StaleVersion,
)
from .models import Career, Event, IdempotencyRecord, Match, Seat
from .selectors import match_pk
from .timecontrol import TIME_CONTROLS, seconds_per_decision

MAX_BOT_DECISIONS_INLINE = 100_000


def db_now() -> datetime:
    """The database's clock: every deadline is set and judged by it, whichever server runs."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT clock_timestamp()")
            return cursor.fetchone()[0]
    return timezone.now()


# --- access helpers (fetch with a permission check, and a row lock when writing) --------------


def rules_for(match: Match):
    return registry.get(match.game)


def _locked(match_id: Any) -> Match:
    """The match, its row locked until the transaction ends."""
    match = Match.objects.select_for_update().filter(pk=match_pk(match_id)).first()
    if match is None:
        raise NotFound("No such match.")
    return match


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.select_related("user").order_by("position"))


def _user_seats(seats: Iterable[Seat], user: Any) -> list[Seat]:
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return [s for s in seats if s.user_id == user.pk]


def _require_seat(match: Match, seats: list[Seat], user: Any, message: str) -> list[Seat]:
    """The caller's seats; a private match does not exist for anyone without one."""
    mine = _user_seats(seats, user)
    if not mine:
        if match.visibility == Match.Visibility.PRIVATE:
            raise NotFound("No such match.")
        raise Forbidden(message)
    return mine


def _bump(match: Match) -> None:
    match.version += 1


# --- lobby -------------------------------------------------------------------------------------


@transaction.atomic
def match_create(
    *,
    user: Any,
    game: str,
    seats: int,
    options: dict[str, Any] | None = None,
    visibility: str = Match.Visibility.PUBLIC,
    time_control: str = Match.TimeControl.LIVE,
    decision_seconds: int | None = None,
    bots: list[str] | None = None,
    join: bool = True,
) -> Match:
    """Create a match in the lobby. The creator takes seat 0 unless ``join`` is false (a bot
    exhibition); ``bots`` fills the next seats with bots of those levels. Starts when full."""
    try:
        rules = registry.get(game)
    except EngineError as error:
        raise Invalid(error.reason, field="game") from None
    try:
        normalized = rules.normalize_options(seats, dict(options or {}))
    except InvalidOptions as error:
        raise Invalid(error.reason, field="options") from None
    try:
        lowest = settings.FIBSERVER["LIVE_MIN_SECONDS"] if time_control == "live" else None
        seconds = seconds_per_decision(time_control, decision_seconds, lowest)
    except ValueError as error:
        raise Invalid(str(error), field="time_control") from None
    bots = list(bots or [])
    known = bot_levels(game)
    for level in bots:
        if level not in known:
            raise Invalid(f"Unknown bot level {level!r}; levels: {', '.join(known)}.", field="bots")
    slots = places(seats, normalized)
    humans = 1 if join else 0
    if humans + len(bots) > len(slots):
        raise Invalid(f"{len(bots)} bots and {humans} player(s) do not fit {len(slots)} places.")
    if time_control == Match.TimeControl.SOLO and humans + len(bots) < len(slots):
        raise Invalid("A solo match is one player and bots: fill every other seat with bots.")
    if not join and len(bots) < len(slots):
        raise Invalid("A match the creator does not join must be all bots (an exhibition).")
    match = Match.objects.create(
        game=game,
        options=normalized,
        seat_count=seats,
        visibility=visibility,
        time_control=time_control,
        decision_seconds=seconds,
        created_by=user,
        seed="",
        seed_commitment="",
    )
    occupants: list[dict[str, Any]] = ([{"user": user}] if join else []) + [
        {"bot_level": level} for level in bots
    ]
    holder = {
        position: occupants[index]
        for index, place in enumerate(slots[: len(occupants)])
        for position in place
    }
    Seat.objects.bulk_create(
        [Seat(match=match, position=p, **holder.get(p, {})) for p in range(seats)]
    )
    if len(occupants) == len(slots):
        _start(match)
    match.save()
    return match


@transaction.atomic
def match_join(*, match_id: Any, user: Any, invite_code: str | None = None) -> Match:
    match = _locked(match_id)
    if match.visibility == Match.Visibility.PRIVATE and invite_code != match.invite_code:
        raise NotFound("No such match.")  # private matches are not revealed without the code
    if match.status != Match.Status.LOBBY:
        raise Conflict("This match has already started.", status=match.status)
    seats = _seats(match)
    if _user_seats(seats, user):
        raise Conflict("You already have a seat in this match.")
    free = _free_places(match, seats)
    if not free:
        raise Conflict("This match is full.")
    for seat in free[0]:
        seat.user = user
        seat.save(update_fields=["user"])
    _bump(match)
    if len(free) == 1:
        _start(match)
    match.save()
    return match


def places(seat_count: int, options: dict[str, Any]) -> list[list[int]]:
    """The seat positions one participant takes: one seat, or in Skull's ``two_tribes`` a
    person's two seats on opposite sides of the table (seats i and i + n/2, RULES.md)."""
    if options.get("two_tribes"):
        half = seat_count // 2
        return [[i, i + half] for i in range(half)]
    return [[i] for i in range(seat_count)]


def _free_places(match: Match, seats: list[Seat]) -> list[list[Seat]]:
    by_position = {s.position: s for s in seats}
    groups = [[by_position[p] for p in place] for place in places(match.seat_count, match.options)]
    return [group for group in groups if all(s.is_empty for s in group)]


@transaction.atomic
def match_join_by_code(*, invite_code: str, user: Any) -> Match:
    match = Match.objects.filter(invite_code=invite_code).only("id").first()
    if match is None:
        raise NotFound("No match has this invite code.")
    return match_join(match_id=match.pk, user=user, invite_code=invite_code)


@transaction.atomic
def match_leave(*, match_id: Any, user: Any) -> Match:
    match = _locked(match_id)
    seats = _seats(match)
    mine = _require_seat(match, seats, user, "You have no seat in this match.")
    if match.status != Match.Status.LOBBY:
        raise Conflict("You can only leave before the match starts.", status=match.status)
    for seat in mine:
        seat.user = None
        seat.save(update_fields=["user"])
    _bump(match)
    if not any(s.user_id for s in seats if s not in mine):
        match_finish(match=match, reason="abandoned", aborted=True)
    match.save()
    return match


@transaction.atomic
def match_add_bots(*, match_id: Any, user: Any, level: str, count: int = 1) -> Match:
    match = _locked(match_id)
    seats = _seats(match)
    _require_seat(match, seats, user, "Only a seated player can add bots.")
    if match.status != Match.Status.LOBBY:
        raise Conflict("Bots can only be added before the match starts.", status=match.status)
    if level not in bot_levels(match.game):
        raise Invalid(f"Unknown bot level {level!r}; levels: {', '.join(bot_levels(match.game))}.")
    free = _free_places(match, seats)
    if not 1 <= count <= len(free):
        raise Invalid(f"count must be between 1 and the {len(free)} free place(s).")
    for group in free[:count]:
        for seat in group:
            seat.bot_level = level
            seat.save(update_fields=["bot_level"])
    _bump(match)
    if count == len(free):
        _start(match)
    match.save()
    return match


@transaction.atomic
def match_start(*, match_id: Any, user: Any) -> Match:
    """Start with the seats filled so far (empty seats are removed), if the game allows it."""
    match = _locked(match_id)
    seats = _seats(match)
    _require_seat(match, seats, user, "Only the player who created the match can start it.")
    if match.created_by_id != getattr(user, "pk", None):
        raise Forbidden("Only the player who created the match can start it.")
    if match.status != Match.Status.LOBBY:
        raise Conflict("This match has already started.", status=match.status)
    by_position = {s.position: s for s in seats}
    groups = [[by_position[p] for p in place] for place in places(match.seat_count, match.options)]
    filled = [g for g in groups if not g[0].is_empty]
    count = sum(len(g) for g in filled)
    try:
        rules_for(match).normalize_options(count, dict(match.options))
    except InvalidOptions as error:
        raise Conflict(f"Cannot start with {count} seats: {error.reason}") from None
    # Compact to seats 0..n-1, keeping the order and each participant's places together.
    new_places = places(count, match.options)
    moves = [(seat, new_places[k][j]) for k, g in enumerate(filled) for j, seat in enumerate(g)]
    Seat.objects.filter(match=match, user__isnull=True, bot_level="").delete()
    for seat, position in moves:
        if seat.position != position:
            Seat.objects.filter(pk=seat.pk).update(position=position + 1000)
    for seat, position in moves:
        if seat.position != position:
            Seat.objects.filter(pk=seat.pk).update(position=position)
    match.seat_count = count
    _start(match)
    match.save()
    return match


def _start(match: Match) -> None:
    """Deal: seed the match, build the first engine state, log the set-up events."""
    rules = rules_for(match)
    match.seed = new_seed()
    match.seed_commitment = seed_commitment(match.seed)
    step = rules.new_game(match.seat_count, match.options, match.seed)
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    _bump(match)
    match.state = rules.to_json(step.state)
    _append_events(match, step, actor=None, action=None, by_bot=False)
    _after_change(match, step.state, rules)


# --- actions -----------------------------------------------------------------------------------


def request_hash(match_id: Any, action: Any, expected_version: Any) -> str:
    text = canonical_json({"match": str(match_id), "action": action, "expected": expected_version})
    return hashlib.sha256(text.encode()).hexdigest()


@transaction.atomic
def action_submit(
    *,
    match_id: Any,
    user: Any,
    action: Any,
    expected_version: int | None = None,
    seat: int | None = None,
    idempotency_key: str | None = None,
    render: Any = None,
) -> tuple[int, dict[str, Any]]:
    """Apply a player's action exactly once. Returns ``(status, body)``; ``render(match, seat)``
    builds the body (the caller's new view), which is stored for idempotent retries."""
    match = _locked(match_id)
    digest = request_hash(match_id, action, expected_version) if idempotency_key else ""
    if idempotency_key:
        stored = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
        if stored is not None:
            if stored.request_hash != digest:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was already used with a different request."
                )
            return stored.status_code, orjson.loads(stored.body)
    seats = _seats(match)
    mine = _require_seat(match, seats, user, "You have no seat in this match.")
    if seat is not None:
        mine = [s for s in mine if s.position == seat]
        if not mine:
            raise Forbidden("That seat is not yours.")
    if match.status != Match.Status.ACTIVE:
        raise Conflict(f"The match is {match.status}; no actions are taken.", status=match.status)
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(
            f"The match has moved on: version {match.version}, not {expected_version}.",
            version=match.version,
        )
    rules = rules_for(match)
    state = rules.from_json(match.state)
    to_act = set(rules.to_act(state))
    acting = [s for s in mine if s.position in to_act]
    if not acting:
        raise Forbidden("It is not your turn to act.")
    own = acting[0]
    try:
        step = rules.apply(state, own.position, action)
    except NotYourTurn as error:  # pragma: no cover - to_act was checked above
        raise Forbidden(error.reason) from None
    except IllegalAction as error:
        raise IllegalActionError(error.reason) from None
    if own.away or own.timeouts:
        own.away, own.timeouts = False, 0  # the player is back
        own.save(update_fields=["away", "timeouts"])
    _commit_step(
        match,
        rules,
        step,
        actor=own.position,
        action=action,
        by_bot=False,
        before=state,
        seats=seats,
    )
    status, body = 200, (render(match, own.position) if render else {"version": match.version})
    if idempotency_key:
        try:
            with transaction.atomic():
                IdempotencyRecord.objects.create(
                    user=user,
                    key=idempotency_key,
                    match=match,
                    request_hash=digest,
                    status_code=status,
                    body=orjson.dumps(body).decode(),
                )
        except IntegrityError:
            # The same key was used at the same moment for another match: that one won.
            raise Conflict("This Idempotency-Key is being used by another request.") from None
    return status, body


def _commit_step(
    match: Match,
    rules: Any,
    step: Step,
    *,
    actor: int,
    action: Any,
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
    _bump(match)
    match.state = rules.to_json(step.state)
    _append_events(match, step, actor=actor, action=action, by_bot=by_bot, deadline=deadline)
    _after_change(match, step.state, rules, actor=actor, seats=seats)
    match.save()


def _stat_gain(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    return {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}


def _append_events(
    match: Match,
    step: Step,
    *,
    actor: int | None,
    action: Any,
    by_bot: bool,
    deadline: datetime | None = None,
) -> None:
    """One INSERT for all events of a step; the first row also keeps the action and chance
    (a step the engine reported nothing for still gets one row, so no action is ever lost)."""
    events = step.events or [EngineEvent("action", {"seat": actor})]
    rows = []
    for index, event in enumerate(events):
        data = event.to_json()
        match.last_seq += 1
        first = index == 0
        rows.append(
            Event(
                match=match,
                seq=match.last_seq,
                version=match.version,
                type=data["type"],
                public=data["public"],
                private=data["private"],
                actor=actor,
                action=action if first else None,
                chance=step.chance if first else None,
                by_bot=by_bot,
                deadline=deadline if first else None,
            )
        )
    Event.objects.bulk_create(rows)
    version, match_pk = match.version, match.pk
    transaction.on_commit(lambda: _publish(match_pk, version))


def _publish(match_id: Any, version: int) -> None:
    from .notify import publish

    publish(match_id, version)


def _after_change(
    match: Match,
    state: Any,
    rules: Any,
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
    for seat in seats if seats is not None else _seats(match):
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
        transaction.on_commit(lambda: _queue_bots(match_pk, version))
    if earliest is not None and new_deadline:
        transaction.on_commit(lambda: _queue_deadline(match_pk, version, earliest))


def _queue_deadline(match_id: Any, version: int, deadline: datetime) -> None:
    from .tasks import schedule_deadline

    schedule_deadline(match_id, version, deadline)


def _queue_bots(match_id: Any, version: int) -> None:
    from .tasks import schedule_bots

    schedule_bots(match_id, version)


# --- bots --------------------------------------------------------------------------------------


def _take_over(
    match: Match,
    rules: Any,
    state: Any,
    seat: Seat,
    *,
    seats: list[Seat],
    deadline: datetime | None,
) -> Any:
    """A bot takes one decision for ``seat`` from that seat's view, and the step is stored.
    ``seats`` are the match's seats in position order, ``seat`` among them."""
    pause = settings.FIBSERVER["FAULT_TAKEOVER_PAUSE"]
    if pause and not seat.is_bot:  # fault injection for the worker-crash test only
        _fault_pause(pause)
    level = seat.bot_level or settings.FIBSERVER["TAKEOVER_BOT_LEVEL"]
    if level not in bot_levels(match.game):
        level = "random"
    bot = make_bot(match.game, level, random.Random(secrets.randbits(64)))
    action = bot.choose(rules.view(state, seat.position))
    step = rules.apply(state, seat.position, action)
    _commit_step(
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
    return step.state


def _fault_pause(seconds: float) -> None:
    """Hold the row lock mid-takeover so a test can kill the worker right here."""
    import time
    from pathlib import Path

    marker = settings.FIBSERVER["FAULT_MARKER"]
    if marker:
        Path(marker).write_text("pausing")
    time.sleep(seconds)


@transaction.atomic
def bot_act(*, match_id: Any, expected_version: int) -> bool:
    """One decision for a bot seat, or for a human seat marked away.

    Carries the version it was scheduled for: a stale call does nothing. Returns whether an
    action was applied."""
    match = _locked(match_id)
    if match.status != Match.Status.ACTIVE or match.version != expected_version:
        return False
    rules = rules_for(match)
    state = rules.from_json(match.state)
    seats = _seats(match)
    for position in rules.to_act(state):
        seat = seats[position]
        if seat.is_bot or seat.away:
            _take_over(match, rules, state, seat, seats=seats, deadline=None)
            return True
    return False


def deadline_expire(
    *, match_id: Any, expected_version: int | None = None, skip_locked: bool = False
) -> int:
    """Every overdue decision of a match is taken by a bot for its seat (one decision each).

    ``expected_version`` is the version the timer was set for (a stale timer does nothing);
    the sweep passes none and ``skip_locked`` so that it never waits behind a player's move.
    After ``AWAY_AFTER_TIMEOUTS`` consecutive time-outs a seat is marked away and the bot keeps
    playing for it promptly until the player acts again. Returns the decisions taken."""
    with transaction.atomic():
        query = Match.objects.select_for_update(skip_locked=skip_locked)
        match = query.filter(pk=match_id).first()
        if match is None or match.status != Match.Status.ACTIVE:
            return 0
        if expected_version is not None and match.version != expected_version:
            return 0
        now = db_now()
        rules = rules_for(match)
        state = rules.from_json(match.state)
        taken = 0
        seats = _seats(match)  # kept current by each step's deadline update
        for _ in range(match.seat_count * 2):
            overdue = [
                seats[p]
                for p in rules.to_act(state)
                if seats[p].deadline is not None and seats[p].deadline <= now
            ]
            if not overdue or match.status != Match.Status.ACTIVE:
                break
            seat = min(overdue, key=lambda s: (s.deadline, s.position))
            seat.timeouts += 1
            seat.away = seat.timeouts >= settings.FIBSERVER["AWAY_AFTER_TIMEOUTS"]
            seat.save(update_fields=["timeouts", "away"])
            state = _take_over(match, rules, state, seat, seats=seats, deadline=seat.deadline)
            taken += 1
        return taken


def deadlines_sweep(*, limit: int = 200) -> int:
    """Catch every overdue deadline (a lost timer, a crashed worker) and every bot turn left
    waiting too long. Database time is the clock. Returns the decisions taken."""
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
        _queue_bots(match_id, version)
    unrecorded = Match.objects.filter(
        status=Match.Status.FINISHED, results_recorded=False, finished_at__lte=db_now() - stall
    ).values_list("pk", flat=True)[:limit]
    for match_id in unrecorded:
        _queue_results(match_id)
    return taken


# --- the one finisher --------------------------------------------------------------------------


def match_finish(*, match: Match, reason: str, aborted: bool = False, state: Any = None) -> None:
    """Every end of a match: normal end, abort, forfeit. Records placements and statistics
    and clears deadlines. The caller holds the row lock and saves the match."""
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
        transaction.on_commit(lambda: _queue_results(match_pk))


def _queue_results(match_id: Any) -> None:
    from .tasks import schedule_results

    schedule_results(match_id)


@transaction.atomic
def match_record_results(*, match_id: Any) -> bool:
    """The end-of-match work, exactly once per match: each player's career in the game (their
    best place and their own statistics, summed over their seats). Returns whether it ran."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None or match.status != Match.Status.FINISHED or match.results_recorded:
        return False
    per_user: dict[Any, dict[str, Any]] = {}
    for seat in Seat.objects.filter(match=match, user__isnull=False).order_by("position"):
        entry = per_user.setdefault(seat.user_id, {"place": seat.place, "stats": {}})
        entry["place"] = min(entry["place"], seat.place)
        for key, value in match.stats[seat.position].items():
            entry["stats"][key] = entry["stats"].get(key, 0) + value
    for user_id, entry in per_user.items():
        career, _ = Career.objects.select_for_update().get_or_create(
            user_id=user_id, game=match.game
        )
        career.matches += 1
        career.wins += entry["place"] == 1
        career.place_sum += entry["place"]
        for key, value in entry["stats"].items():
            career.stats[key] = career.stats.get(key, 0) + value
        career.save()
    match.results_recorded = True
    match.save(update_fields=["results_recorded"])
    return True


__all__ = [
    "BadRequest",
    "action_submit",
    "bot_act",
    "deadline_expire",
    "deadlines_sweep",
    "match_add_bots",
    "match_create",
    "match_finish",
    "match_join",
    "match_join_by_code",
    "match_leave",
    "match_record_results",
    "match_start",
]
