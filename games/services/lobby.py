"""Before the first move: create a match, join it (by id or invite code), leave it, fill free
places with bots, start it. Places come from the game (:meth:`Rules.places`): one seat each,
or two for one person in Skull's ``two_tribes``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from kernel.errors import Conflict, Forbidden, InvalidOptions, NotFound

from .. import signals
from ..engine import registry
from ..engine.bots import bot_levels
from ..engine.core import EngineError, Rules
from ..engine.core import InvalidOptions as EngineInvalidOptions
from ..engine.rng import new_seed, seed_commitment
from ..models import Match, Seat
from ..timecontrol import TIME_CONTROLS, seconds_per_decision
from . import vacation
from .common import (
    MatchId,
    bump,
    is_host,
    locked,
    places_of,
    require_seat,
    rules_for,
    seats_of,
    user_seats,
)
from .eventlog import append_events
from .finisher import match_finish
from .step import after_change


def _check_bot_levels(game: str, levels: list[str]) -> None:
    known = bot_levels(game)
    for level in levels:
        if level not in known:
            raise InvalidOptions(
                f"Unknown bot level {level!r}; levels: {', '.join(known)}.", field="bots"
            )


@transaction.atomic
def match_create(
    *,
    user: User,
    game: str,
    seats: int,
    options: dict[str, Any] | None = None,
    visibility: str = Match.Visibility.PUBLIC,
    time_control: str = Match.TimeControl.LIVE,
    decision_seconds: int | None = None,
    bots: list[str] | None = None,
    join: bool = True,
    rated: bool | None = None,
) -> Match:
    """Create a match in the lobby. The creator (the host) takes the first place unless
    ``join`` is false (a bot exhibition); ``bots`` fill the next places. Starts when full.
    ``rated``: whether it changes ratings (``None``: whenever it can, i.e. a place is left for
    another player); asking for a rated match that cannot be is refused."""
    bots = list(bots or [])
    rules, normalized, seconds = _check_set_up(
        game, seats, options, time_control, decision_seconds, bots, join
    )
    match = Match.objects.create(
        game=game,
        options=normalized,
        seat_count=seats,
        visibility=visibility,
        time_control=time_control,
        decision_seconds=seconds,
        rated=_check_rated(rated, len(rules.places(seats, normalized)) - len(bots), join),
        created_by=user,
        seed="",
        seed_commitment="",
    )
    occupants: list[dict[str, Any]] = ([{"user": user}] if join else []) + [
        {"bot_level": level} for level in bots
    ]
    slots = rules.places(seats, normalized)
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


def _check_set_up(
    game: str,
    seats: int,
    options: dict[str, Any] | None,
    time_control: str,
    decision_seconds: int | None,
    bots: list[str],
    join: bool,
) -> tuple[Rules[Any], dict[str, Any], int]:
    """The game's rules, its normalized options and the seconds per decision of a new match,
    or :class:`InvalidOptions` saying what the game does not allow."""
    rules, normalized, seconds = _check_seated(
        game, seats, dict(options or {}), time_control, decision_seconds
    )
    _check_bot_levels(game, bots)
    places, humans = len(rules.places(seats, normalized)), 1 if join else 0
    if humans + len(bots) > places:
        refusal = f"{len(bots)} bots and {humans} player(s) do not fit {places} places."
    elif time_control == Match.TimeControl.SOLO and humans + len(bots) < places:
        refusal = "A solo match is one player and bots: fill every other seat with bots."
    elif not join and len(bots) < places:
        refusal = "A match the creator does not join must be all bots (an exhibition)."
    else:
        return rules, normalized, seconds
    raise InvalidOptions(refusal, field="bots")


def _check_rated(rated: bool | None, human_places: int, join: bool) -> bool:
    """Whether a new lobby match is rated: as asked, by default whenever it can be (the
    creator and at least one more player: not solo, not all bots); ``rated`` true for a table
    that cannot be rated is :class:`InvalidOptions`. (The time controls' check has refused a
    solo match with a place left for a player already.)"""
    possible = join and human_places >= 2
    if rated and not possible:
        raise InvalidOptions(
            "Only a match with places for two or more players can be rated (not solo, not "
            "all bots).",
            field="rated",
        )
    return possible if rated is None else rated


def _free_places(match: Match, seats: list[Seat]) -> list[list[Seat]]:
    return [group for group in places_of(match, seats) if all(s.is_empty for s in group)]


@transaction.atomic
def match_join(*, match_id: MatchId, user: User, invite_code: str | None = None) -> Match:
    """Take the first free place. A private match needs its invite code."""
    match = locked(match_id)
    seats = seats_of(match)
    mine = user_seats(seats, user)
    if (
        match.visibility == Match.Visibility.PRIVATE
        and invite_code != match.invite_code
        and not (mine or is_host(match, user))
    ):
        raise NotFound("No such match.")  # private matches are not revealed without the code
    if match.status != Match.Status.LOBBY:
        raise Conflict("This match has already started.", status=match.status)
    if mine:
        raise Conflict("You already have a seat in this match.")
    free = _free_places(match, seats)
    if not free:
        raise Conflict("This match is full.")
    for seat in free[0]:
        seat.user = user
        seat.save(update_fields=["user"])
    bump(match)
    if len(free) == 1:
        _start(match)
    match.save()
    return match


@transaction.atomic
def match_join_by_code(*, invite_code: str, user: User) -> Match:
    match = Match.objects.filter(invite_code=invite_code).only("id").first()
    if match is None:
        raise NotFound("No match has this invite code.")
    return match_join(match_id=match.pk, user=user, invite_code=invite_code)


@transaction.atomic
def match_leave(*, match_id: MatchId, user: User) -> Match:
    """Give up one's place before the start; a lobby nobody is left in is abandoned."""
    match = locked(match_id)
    seats = seats_of(match)
    mine = require_seat(match, seats, user, "You have no seat in this match.")
    if match.status != Match.Status.LOBBY:
        raise Conflict("You can only leave before the match starts.", status=match.status)
    for seat in mine:
        seat.user = None
        seat.save(update_fields=["user"])
    bump(match)
    if not any(s.user_id for s in seats if s not in mine):
        match_finish(match=match, reason="abandoned", aborted=True)
    match.save()
    return match


def _require_seat_or_host(match: Match, seats: list[Seat], user: User, message: str) -> None:
    if not is_host(match, user):
        require_seat(match, seats, user, message)


@transaction.atomic
def match_add_bots(*, match_id: MatchId, user: User, level: str, count: int = 1) -> Match:
    """Fill ``count`` free places with bots of ``level``; starts the match when it is full."""
    match = locked(match_id)
    seats = seats_of(match)
    _require_seat_or_host(match, seats, user, "Only the host or a seated player can add bots.")
    if match.status != Match.Status.LOBBY:
        raise Conflict("Bots can only be added before the match starts.", status=match.status)
    _check_bot_levels(match.game, [level])
    free = _free_places(match, seats)
    if not 1 <= count <= len(free):
        raise Conflict(f"count must be between 1 and the {len(free)} free place(s).")
    for group in free[:count]:
        for seat in group:
            seat.bot_level = level
            seat.save(update_fields=["bot_level"])
    bump(match)
    if count == len(free):
        _start(match)
    match.save()
    return match


@transaction.atomic
def match_start(*, match_id: MatchId, user: User) -> Match:
    """The host starts with the places filled so far (empty seats are removed), if the game
    allows that many seats."""
    match = locked(match_id)
    seats = seats_of(match)
    if not is_host(match, user):
        require_seat(match, seats, user, "Only the player who created the match can start it.")
        raise Forbidden("Only the player who created the match can start it.")
    if match.status != Match.Status.LOBBY:
        raise Conflict("This match has already started.", status=match.status)
    rules = rules_for(match)
    filled = [g for g in places_of(match, seats) if not g[0].is_empty]
    count = sum(len(g) for g in filled)
    try:
        rules.normalize_options(count, dict(match.options))
    except EngineInvalidOptions as error:
        raise Conflict(f"Cannot start with {count} seats: {error.reason}") from None
    # Compact to seats 0..n-1, keeping the order and each participant's places together.
    new_places = rules.places(count, match.options)
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
    seats = seats_of(match)
    if match.rated and len({s.user_id for s in seats if s.user_id is not None}) < 2:
        match.rated = False  # one player and bots: nothing to rate
    match.seed = new_seed()
    match.seed_commitment = seed_commitment(match.seed)
    step = rules.new_game(match.seat_count, match.options, match.seed)
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    bump(match)
    match.state = rules.to_json(step.state)
    append_events(match, step, actor=None, action=None, by_bot=False)
    vacation.on_start(match, seats)
    signals.match_started.send(match, seats)
    after_change(match, step.state, rules, seats=seats)


def match_create_seated(
    *,
    host: User,
    game: str,
    users: list[User],
    options: dict[str, Any],
    visibility: str,
    time_control: str,
    decision_seconds: int | None,
    bots: list[str] | None = None,
    rated: bool = True,
) -> Match:
    """A match with ``users`` in seats 0..n-1, in that order, then ``bots`` (their levels) in
    the next seats, started at once (a round of an event, docs/tournaments.md; a table of the
    quick-play queue or a challenge, docs/matchmaking.md). The host manages it whether seated
    or not. ``rated`` as asked, false when fewer than two players sit at it. The caller holds
    the transaction."""
    bots = list(bots or [])
    _check_bot_levels(game, bots)
    _rules, normalized, seconds = _check_seated(
        game, len(users) + len(bots), options, time_control, decision_seconds
    )
    match = Match.objects.create(
        game=game,
        options=normalized,
        seat_count=len(users) + len(bots),
        visibility=visibility,
        time_control=time_control,
        decision_seconds=seconds,
        rated=rated,
        created_by=host,
        seed="",
        seed_commitment="",
    )
    # An entrant whose account was deleted meanwhile (a tournament's later round) is played
    # by the takeover bot from the start, as in the matches they were in (services.departure).
    Seat.objects.bulk_create(
        [
            Seat(match=match, position=p, user=user, away=user.deleted_at is not None)
            for p, user in enumerate(users)
        ]
        + [Seat(match=match, position=len(users) + k, bot_level=b) for k, b in enumerate(bots)]
    )
    _start(match)
    match.save()
    return match


def _check_seated(
    game: str,
    seats: int,
    options: dict[str, Any],
    time_control: str,
    decision_seconds: int | None,
) -> tuple[Rules[Any], dict[str, Any], int]:
    """The rules, normalized options and seconds per decision of a table, whoever sits at it."""
    try:
        rules = registry.get(game)
    except EngineError as error:
        raise InvalidOptions(error.reason, field="game") from None
    try:
        normalized = rules.normalize_options(seats, dict(options))
    except EngineInvalidOptions as error:
        raise InvalidOptions(error.reason, field="options") from None
    try:
        lowest = settings.FIBSERVER["LIVE_MIN_SECONDS"] if time_control == "live" else None
        seconds = seconds_per_decision(time_control, decision_seconds, lowest)
    except ValueError as error:
        field = "decision_seconds" if time_control in TIME_CONTROLS else "time_control"
        raise InvalidOptions(str(error), field=field) from None
    return rules, normalized, seconds


def match_create_again(*, source: Match, host: User) -> Match:
    """A new match with ``source``'s options, time control, visibility and ``rated``, every
    seat held by the same player or a bot of the same level (a rematch, docs/matchmaking.md),
    started at once. The caller holds the transaction."""
    seats = seats_of(source)
    match = Match.objects.create(
        game=source.game,
        options=dict(source.options),
        seat_count=source.seat_count,
        visibility=source.visibility,
        time_control=source.time_control,
        decision_seconds=source.decision_seconds,
        rated=source.rated,
        created_by=host,
        seed="",
        seed_commitment="",
    )
    Seat.objects.bulk_create(
        [Seat(match=match, position=s.position, user=s.user, bot_level=s.bot_level) for s in seats]
    )
    _start(match)
    match.save()
    return match


def match_check_set_up(
    *,
    game: str,
    seats: int,
    options: dict[str, Any],
    time_control: str,
    decision_seconds: int | None,
    bots: list[str],
) -> dict[str, Any]:
    """The normalized options of a table to be made later (a challenge, docs/matchmaking.md),
    or :class:`InvalidOptions` saying what the game does not allow."""
    _check_bot_levels(game, bots)
    _rules, normalized, _seconds = _check_seated(
        game, seats, dict(options), time_control, decision_seconds
    )
    return normalized
