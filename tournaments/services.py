"""Fibber's Dice tournaments (docs/tournaments.md): create, register (late entrants included),
start, rounds, the short format, the final's prize picks and the door-prize raffle.

The rules are pure (``games.engine.fibbers_dice.tournament``); this module stores what they decide.
Every round is an ordinary match made by :func:`games.services.lobby.match_create_seated`
(deadlines, the takeover bot, views, replays, statistics and ratings apply unchanged). When a
round's match ends, this app hears it (``games.signals.match_ended``, :mod:`tournaments.apps`)
and queues :func:`tournament_round_ended` on commit (``tournaments.tasks.round_ended``).

Locks: a tournament's row is always locked before any of its matches' rows (registration of a
late entrant locks the tournament, then the running match), and nothing holding a match row waits
for a tournament row (the finisher only queues work), so the two never deadlock.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engine.core import IllegalAction
from games.engine.fibbers_dice import tournament as rules
from games.engine.fibbers_dice.rules import (
    MAX_POINTS,
    MIN_POINTS,
    TOURNAMENT_ROUND,
    TOURNAMENT_ROUND_MAX,
    TOURNAMENT_SINGLE,
)
from games.engine.replay import JOIN_ACTION
from games.models import Match, Seat
from games.services.common import bump, engine_state, locked, rules_for
from games.services.eventlog import append_events
from games.services.lobby import match_create_seated
from games.services.step import after_change
from games.timecontrol import seconds_per_decision
from kernel.errors import AppError, Conflict, Forbidden, InvalidOptions, NotFound

from . import signals
from .access import may_see, tournament_pk
from .models import Entry, Round, Tournament

log = logging.getLogger(__name__)
GAME = "fibbers_dice"
#: The most players a tournament registers: a tournament round seats at most 64 (D).
MAX_ENTRIES = TOURNAMENT_ROUND_MAX
MAX_DOOR_PRIZES = 64


def _locked(tournament_id: uuid.UUID | str) -> Tournament:
    tournament = (
        Tournament.objects.select_for_update().filter(pk=tournament_pk(tournament_id)).first()
    )
    if tournament is None:
        raise NotFound("No such tournament.")
    return tournament


def _host_only(tournament: Tournament, user: User, what: str) -> None:
    if tournament.host_id != user.pk:
        if not may_see(tournament, user):
            raise NotFound("No such tournament.")
        raise Forbidden(f"Only the host can {what}.")


def _touch(tournament: Tournament) -> None:
    tournament.version += 1


@transaction.atomic
def tournament_create(
    *,
    user: User,
    name: str,
    visibility: str = Match.Visibility.PUBLIC,
    starts_at: datetime | None = None,
    time_control: str = Match.TimeControl.LIVE,
    decision_seconds: int | None = None,
    points: int | None = None,
    format: str = rules.STANDARD,
    auto_advance: bool = False,
    door_prizes: int = 0,
) -> Tournament:
    """A new tournament, registration open. Its raffle commitment is public from now on."""
    if time_control == Match.TimeControl.SOLO:
        raise InvalidOptions(
            "A tournament is played live or async, not solo.", field="time_control"
        )
    try:
        lowest = settings.FIBSERVER["LIVE_MIN_SECONDS"] if time_control == "live" else None
        seconds_per_decision(time_control, decision_seconds, lowest)
    except ValueError as error:
        raise InvalidOptions(str(error), field="decision_seconds") from None
    if points is not None and not MIN_POINTS <= points <= MAX_POINTS:
        raise InvalidOptions(f"points must be {MIN_POINTS} to {MAX_POINTS}.", field="points")
    if format not in rules.FORMATS:
        raise InvalidOptions(f"format must be one of {', '.join(rules.FORMATS)}.", field="format")
    seed, commitment = rules.raffle_seed()
    return Tournament.objects.create(
        name=name,
        host=user,
        visibility=visibility,
        starts_at=starts_at,
        time_control=time_control,
        decision_seconds=decision_seconds,
        points=points,
        format=format,
        auto_advance=auto_advance,
        door_prizes=door_prizes,
        raffle_seed=seed,
        raffle_commitment=commitment,
    )


def _current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


@transaction.atomic
def tournament_register(*, tournament_id: uuid.UUID | str, user: User) -> Entry:
    """Register ``user``. Before the start: an entry. A single-round tournament that is running:
    the player joins its match as a late entrant (the engine's ``add_seat``) until the first
    starter's second turn comes (D) or the table has 10; a multi-round tournament: until the final
    starts, for the qualifying rounds still to come."""
    tournament = _locked(tournament_id)
    if tournament.entries.filter(user=user).exists():
        raise Conflict("You are already registered for this tournament.")
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("Registration is closed: the tournament has finished.")
    if tournament.entries.count() >= MAX_ENTRIES:
        raise Conflict(f"Registration is closed: the tournament has {MAX_ENTRIES} players.")
    late = tournament.status == Tournament.Status.RUNNING
    if late and tournament.single_round:
        rnd = _current_round(tournament)
        assert rnd is not None and rnd.match_id is not None
        _join_running_match(rnd, user)
    elif late and tournament.rounds.filter(final=True).exists():
        raise Conflict("Registration closed when the final started.")
    entry = Entry.objects.create(tournament=tournament, user=user, late=late)
    if not late:
        signals.tournament_entered.send(tournament, [user.pk], timezone.now())
    _touch(tournament)
    tournament.save(update_fields=["version"])
    return entry


def _join_running_match(rnd: Round, user: User) -> None:
    """A late entrant takes the next seat of the running single-round match: one engine step
    (``add_seat``) that bumps the match's version and appends ``seat_joined`` to its log."""
    assert rnd.match_id is not None
    match = locked(rnd.match_id)
    if match.status != Match.Status.ACTIVE:
        raise Conflict("Registration is closed: the tournament's match has ended.")
    rules_of = rules_for(match)
    state = engine_state(match, rules_of)
    try:
        step = rules_of.add_seat(state)
    except IllegalAction as error:
        raise Conflict(f"Registration is closed: {error.reason}") from None
    position = state.seats
    Seat.objects.create(match=match, position=position, user=user)
    match.seat_count = step.state.seats
    if match.takeover_stats is not None:
        match.takeover_stats = [*match.takeover_stats, {}]
    bump(match)
    match.state = rules_of.to_json(step.state)
    append_events(match, step, actor=position, action=dict(JOIN_ACTION), by_bot=False)
    after_change(match, step.state, rules_of)
    match.save()
    rnd.players = [*rnd.players, user.pk]
    rnd.save(update_fields=["players"])


@transaction.atomic
def tournament_unregister(*, tournament_id: uuid.UUID | str, user: User) -> None:
    """Withdraw before the tournament starts (afterwards an entrant's seats are played by the
    takeover bot when they do not act)."""
    tournament = _locked(tournament_id)
    entry = tournament.entries.filter(user=user).first()
    if entry is None:
        if not may_see(tournament, user):
            raise NotFound("No such tournament.")
        raise Conflict("You are not registered for this tournament.")
    if tournament.status != Tournament.Status.OPEN:
        raise Conflict("You can only unregister before the tournament starts.")
    entry.delete()
    _touch(tournament)
    tournament.save(update_fields=["version"])


@transaction.atomic
def tournament_start(*, tournament_id: uuid.UUID | str, user: User) -> Tournament:
    """The host starts the tournament: one round for 7 or fewer, else round 1 of several."""
    tournament = _locked(tournament_id)
    _host_only(tournament, user, "start the tournament")
    if tournament.status != Tournament.Status.OPEN:
        raise Conflict("The tournament has already started.")
    _begin(tournament)
    return tournament


def _begin(tournament: Tournament) -> None:
    """Start the locked, open ``tournament``: one round for 7 or fewer, else round 1 of several."""
    entrants = list(tournament.entries.order_by("id").values_list("user_id", flat=True))
    if len(entrants) < 2:
        raise Conflict("A tournament needs at least 2 registered players to start.")
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.single_round = rules.is_single_round(len(entrants))
    if tournament.single_round:
        points = rules.single_round_points(len(entrants), tournament.points)
        _play(
            tournament, 1, entrants, {"points": points, "tournament": TOURNAMENT_SINGLE}, final=True
        )
    else:
        _advance(tournament)
    _touch(tournament)
    tournament.save()


def _play(
    tournament: Tournament, number: int, players: list[int], options: dict[str, Any], final: bool
) -> Round:
    users = {u.pk: u for u in User.objects.filter(pk__in=players)}
    match = match_create_seated(
        host=tournament.host,
        game=GAME,
        users=[users[p] for p in players],
        options=options,
        visibility=tournament.visibility,
        time_control=tournament.time_control,
        decision_seconds=tournament.decision_seconds,
    )
    return Round.objects.create(
        tournament=tournament, number=number, final=final, match=match, players=list(players)
    )


def _pure_rounds(tournament: Tournament) -> list[rules.Round]:
    return [
        rules.Round(
            r.number,
            tuple(r.players),
            None if r.placements is None else {int(k): v for k, v in r.placements.items()},
            tuple(r.qualified),
            r.skipped,
        )
        for r in tournament.rounds.order_by("number")
    ]


def _advance(tournament: Tournament) -> None:
    """Start the next round of a multi-round tournament (skipping rounds with fewer than 2
    eligible), or finish the tournament after the final. The caller holds the tournament's lock."""
    entrants = list(tournament.entries.order_by("id").values_list("user_id", flat=True))
    while True:
        step = rules.next_round(tournament.format, entrants, _pure_rounds(tournament))
        if step.kind == "wait":
            raise Conflict(f"Round {step.number} is still being played.")
        if step.kind == "done":
            _finish(tournament)
            return
        final = step.final
        if step.kind == "skip" or (final and len(step.players) < 2):
            # D: fewer than 2 eligible: skipped, the eligible one (if any) qualifies; a final
            # of one (only after skips) is that player's first pick.
            Round.objects.create(
                tournament=tournament,
                number=step.number,
                final=final,
                skipped=True,
                players=list(step.players),
                placements={str(p): 1 for p in step.players} if final else None,
                qualified=[] if final else list(step.players),
            )
            continue
        options = {"points": rules.round_points(tournament.points), "tournament": TOURNAMENT_ROUND}
        _play(tournament, step.number, list(step.players), options, final)
        return


@transaction.atomic
def tournament_next_round(*, tournament_id: uuid.UUID | str, user: User) -> Tournament:
    """The host starts the next round once the last one has ended."""
    tournament = _locked(tournament_id)
    _host_only(tournament, user, "start a round")
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(f"The tournament is {tournament.status}: no round can start.")
    if tournament.single_round:
        raise Conflict("A single-round tournament has only its one round.")
    current = _current_round(tournament)
    if current is not None and current.match_id is not None and not current.over:
        _record_round(tournament, current)  # in case the end-of-round work has not run yet
    _advance(tournament)
    _touch(tournament)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_switch_short(*, tournament_id: uuid.UUID | str, user: User) -> Tournament:
    """The host switches to the short format ("in case time runs out") before round 3."""
    tournament = _locked(tournament_id)
    _host_only(tournament, user, "change the format")
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("The tournament has finished.")
    if tournament.single_round:
        raise Conflict("A single-round tournament has no qualifying rounds to shorten.")
    reason = rules.may_switch_to_short(tournament.format, tournament.rounds.count())
    if reason:
        raise Conflict(reason)
    tournament.format = rules.SHORT
    _touch(tournament)
    tournament.save()
    return tournament


def _record_round(tournament: Tournament, rnd: Round) -> bool:
    """Store a round's result from its match, once; ``False`` while the match is running."""
    if rnd.over or rnd.match_id is None:
        return False
    match = Match.objects.get(pk=rnd.match_id)
    if match.status == Match.Status.ABORTED:
        rnd.placements, rnd.qualified = {}, []  # aborted by staff: nobody qualifies from it
    elif match.status == Match.Status.FINISHED and match.placements is not None:
        by_seat = dict(Seat.objects.filter(match=match).values_list("position", "user_id"))
        places = {by_seat[seat]: place for seat, place in enumerate(match.placements)}
        rnd.placements = {str(user): place for user, place in places.items()}
        if not rnd.final:
            rnd.qualified = rules.round_qualifiers(tournament.format, rnd.number, places)
    else:
        return False
    rnd.save(update_fields=["placements", "qualified"])
    return True


@transaction.atomic
def tournament_round_ended(*, match_id: uuid.UUID | str) -> bool:
    """The end-of-round work (queued by the finisher): the round's result, the next round if
    the host chose automatic advance, the prizes after the last round. Idempotent."""
    rnd = Round.objects.filter(match_id=match_id).only("tournament_id").first()
    if rnd is None:
        return False
    tournament = _locked(rnd.tournament_id)
    rnd = Round.objects.get(pk=rnd.pk)
    if not _record_round(tournament, rnd):
        return False
    if tournament.single_round or rnd.final:
        _finish(tournament)
    elif tournament.auto_advance:
        try:
            with transaction.atomic():  # the round's result stays recorded whatever happens
                _advance(tournament)
        except AppError as error:
            log.warning(
                "tournament %s: the next round did not start: %s", tournament.pk, error.message
            )
    _touch(tournament)
    tournament.save()
    return True


def _finish(tournament: Tournament) -> None:
    """Prize picks from the final's places, then the door-prize draw among every entrant."""
    final = tournament.rounds.filter(final=True).first()
    places = {int(k): v for k, v in ((final and final.placements) or {}).items()}
    tournament.prize_picks = rules.prize_picks(places)
    entrants = sorted(tournament.entries.values_list("user_id", flat=True))
    tournament.raffle_entrants = entrants
    tournament.raffle_winners = rules.raffle(
        tournament.raffle_seed, entrants, tournament.door_prizes
    )
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
