"""Fibber's Dice events (docs/events.md): create, register (late entrants included), start,
rounds, the short format, the final's prize picks and the door-prize raffle.

The rules are pure (``games.engine.fibbers_dice.events``); this module stores what they decide.
Every round is an ordinary match made by :func:`.lobby.match_create_seated` (deadlines, the
takeover bot, views, replays, statistics and ratings apply unchanged). When a round's match
ends, the finisher queues :func:`event_round_ended` on commit (``schedule.event_round``).

Locks: an event's row is always locked before any of its matches' rows (registration of a
late entrant locks the event, then the running match), and nothing holding a match row waits
for an event row (the finisher only queues work), so the two never deadlock.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.db.models.functions import Now
from django.utils import timezone

from accounts.models import User
from fibserver.errors import AppError, Conflict, Forbidden, InvalidOptions, NotFound

from ..engine.core import IllegalAction
from ..engine.fibbers_dice import events as rules
from ..engine.fibbers_dice.rules import (
    EVENT_ROUND,
    EVENT_ROUND_MAX,
    EVENT_SINGLE,
    MAX_POINTS,
    MIN_POINTS,
)
from ..engine.replay import JOIN_ACTION
from ..models import Entry, Match, Round, Seat, Tournament
from ..timecontrol import seconds_per_decision
from .common import Caller, bump, engine_state, locked, rules_for
from .eventlog import append_events
from .lobby import match_create_seated
from .step import after_change

log = logging.getLogger(__name__)
GAME = "fibbers_dice"
#: The most players an event registers: an event round seats at most 64 (D).
MAX_ENTRIES = EVENT_ROUND_MAX
MAX_DOOR_PRIZES = 64


def event_pk(event_id: uuid.UUID | str) -> uuid.UUID:
    try:
        return event_id if isinstance(event_id, uuid.UUID) else uuid.UUID(str(event_id))
    except ValueError:
        raise NotFound("No such event.") from None


def may_see(event: Tournament, user: Caller) -> bool:
    """A public event is seen by everyone; a private one by its host and its entrants."""
    if event.visibility == Match.Visibility.PUBLIC:
        return True
    if user is None or not user.is_authenticated:
        return False
    return event.host_id == user.pk or event.entries.filter(user=user).exists()


def _locked(event_id: uuid.UUID | str) -> Tournament:
    event = Tournament.objects.select_for_update().filter(pk=event_pk(event_id)).first()
    if event is None:
        raise NotFound("No such event.")
    return event


def _host_only(event: Tournament, user: User, what: str) -> None:
    if event.host_id != user.pk:
        if not may_see(event, user):
            raise NotFound("No such event.")
        raise Forbidden(f"Only the host can {what}.")


def _touch(event: Tournament) -> None:
    event.version += 1


@transaction.atomic
def event_create(
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
    """A new event, registration open. Its raffle commitment is public from now on."""
    if time_control == Match.TimeControl.SOLO:
        raise InvalidOptions("An event is played live or async, not solo.", field="time_control")
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


def _current_round(event: Tournament) -> Round | None:
    return event.rounds.order_by("-number").first()


@transaction.atomic
def event_register(*, event_id: uuid.UUID | str, user: User) -> Entry:
    """Register ``user``. Before the start: an entry. A single-round event that is running:
    the player joins its match as a late entrant (the engine's ``add_seat``) until the first
    starter's second turn comes (D) or the table has 10; a multi-round event: until the final
    starts, for the qualifying rounds still to come."""
    event = _locked(event_id)
    if event.entries.filter(user=user).exists():
        raise Conflict("You are already registered for this event.")
    if event.status == Tournament.Status.FINISHED:
        raise Conflict("Registration is closed: the event has finished.")
    if event.entries.count() >= MAX_ENTRIES:
        raise Conflict(f"Registration is closed: the event has {MAX_ENTRIES} players.")
    late = event.status == Tournament.Status.RUNNING
    if late and event.single_round:
        rnd = _current_round(event)
        assert rnd is not None and rnd.match_id is not None
        _join_running_match(rnd, user)
    elif late and event.rounds.filter(final=True).exists():
        raise Conflict("Registration closed when the final started.")
    entry = Entry.objects.create(tournament=event, user=user, late=late)
    _touch(event)
    event.save(update_fields=["version"])
    return entry


def _join_running_match(rnd: Round, user: User) -> None:
    """A late entrant takes the next seat of the running single-round match: one engine step
    (``add_seat``) that bumps the match's version and appends ``seat_joined`` to its log."""
    assert rnd.match_id is not None
    match = locked(rnd.match_id)
    if match.status != Match.Status.ACTIVE:
        raise Conflict("Registration is closed: the event's match has ended.")
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
def event_unregister(*, event_id: uuid.UUID | str, user: User) -> None:
    """Withdraw before the event starts (afterwards an entrant's seats are played by the
    takeover bot when they do not act)."""
    event = _locked(event_id)
    entry = event.entries.filter(user=user).first()
    if entry is None:
        if not may_see(event, user):
            raise NotFound("No such event.")
        raise Conflict("You are not registered for this event.")
    if event.status != Tournament.Status.OPEN:
        raise Conflict("You can only unregister before the event starts.")
    entry.delete()
    _touch(event)
    event.save(update_fields=["version"])


@transaction.atomic
def event_start(*, event_id: uuid.UUID | str, user: User) -> Tournament:
    """The host starts the event: one round for 7 or fewer, else round 1 of several."""
    event = _locked(event_id)
    _host_only(event, user, "start the event")
    if event.status != Tournament.Status.OPEN:
        raise Conflict("The event has already started.")
    _begin(event)
    return event


def events_start_due(*, limit: int = 20) -> int:
    """Start every open event whose announced ``starts_at`` has come, as the host would (the
    sweep calls this every ``SWEEP_SECONDS``). An event with fewer than 2 entrants at its time
    stays open: it starts at the first sweep after a second player registers, or when the host
    starts it. Returns the events started."""
    due = list(
        Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=Now())
        .annotate(entrants=Count("entries"))
        .filter(entrants__gte=2)
        .order_by("starts_at")
        .values_list("pk", flat=True)[:limit]
    )
    started = 0
    for pk in due:
        try:
            with transaction.atomic():
                event = _locked(pk)
                if event.status == Tournament.Status.OPEN:  # the host may have been first
                    _begin(event)
                    started += 1
        except AppError:  # keep the sweep going; the next sweep tries this event again
            log.exception("event %s could not start at its announced time", pk)
    return started


def _begin(event: Tournament) -> None:
    """Start the locked, open ``event``: one round for 7 or fewer, else round 1 of several."""
    entrants = list(event.entries.order_by("id").values_list("user_id", flat=True))
    if len(entrants) < 2:
        raise Conflict("An event needs at least 2 registered players to start.")
    event.status = Tournament.Status.RUNNING
    event.started_at = timezone.now()
    event.single_round = rules.is_single_round(len(entrants))
    if event.single_round:
        points = rules.single_round_points(len(entrants), event.points)
        _play(event, 1, entrants, {"points": points, "event": EVENT_SINGLE}, final=True)
    else:
        _advance(event)
    _touch(event)
    event.save()


def _play(
    event: Tournament, number: int, players: list[int], options: dict[str, Any], final: bool
) -> Round:
    users = {u.pk: u for u in User.objects.filter(pk__in=players)}
    match = match_create_seated(
        host=event.host,
        game=GAME,
        users=[users[p] for p in players],
        options=options,
        visibility=event.visibility,
        time_control=event.time_control,
        decision_seconds=event.decision_seconds,
    )
    return Round.objects.create(
        tournament=event, number=number, final=final, match=match, players=list(players)
    )


def _pure_rounds(event: Tournament) -> list[rules.Round]:
    return [
        rules.Round(
            r.number,
            tuple(r.players),
            None if r.placements is None else {int(k): v for k, v in r.placements.items()},
            tuple(r.qualified),
            r.skipped,
        )
        for r in event.rounds.order_by("number")
    ]


def _advance(event: Tournament) -> None:
    """Start the next round of a multi-round event (skipping rounds with fewer than 2
    eligible), or finish the event after the final. The caller holds the event's lock."""
    entrants = list(event.entries.order_by("id").values_list("user_id", flat=True))
    while True:
        step = rules.next_round(event.format, entrants, _pure_rounds(event))
        if step.kind == "wait":
            raise Conflict(f"Round {step.number} is still being played.")
        if step.kind == "done":
            _finish(event)
            return
        final = step.final
        if step.kind == "skip" or (final and len(step.players) < 2):
            # D: fewer than 2 eligible: skipped, the eligible one (if any) qualifies; a final
            # of one (only after skips) is that player's first pick.
            Round.objects.create(
                tournament=event,
                number=step.number,
                final=final,
                skipped=True,
                players=list(step.players),
                placements={str(p): 1 for p in step.players} if final else None,
                qualified=[] if final else list(step.players),
            )
            continue
        options = {"points": rules.round_points(event.points), "event": EVENT_ROUND}
        _play(event, step.number, list(step.players), options, final)
        return


@transaction.atomic
def event_next_round(*, event_id: uuid.UUID | str, user: User) -> Tournament:
    """The host starts the next round once the last one has ended."""
    event = _locked(event_id)
    _host_only(event, user, "start a round")
    if event.status != Tournament.Status.RUNNING:
        raise Conflict(f"The event is {event.status}: no round can start.")
    if event.single_round:
        raise Conflict("A single-round event has only its one round.")
    current = _current_round(event)
    if current is not None and current.match_id is not None and not current.over:
        _record_round(event, current)  # in case the end-of-round work has not run yet
    _advance(event)
    _touch(event)
    event.save()
    return event


@transaction.atomic
def event_switch_short(*, event_id: uuid.UUID | str, user: User) -> Tournament:
    """The host switches to the short format ("in case time runs out") before round 3."""
    event = _locked(event_id)
    _host_only(event, user, "change the format")
    if event.status == Tournament.Status.FINISHED:
        raise Conflict("The event has finished.")
    if event.single_round:
        raise Conflict("A single-round event has no qualifying rounds to shorten.")
    reason = rules.may_switch_to_short(event.format, event.rounds.count())
    if reason:
        raise Conflict(reason)
    event.format = rules.SHORT
    _touch(event)
    event.save()
    return event


def _record_round(event: Tournament, rnd: Round) -> bool:
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
            rnd.qualified = rules.round_qualifiers(event.format, rnd.number, places)
    else:
        return False
    rnd.save(update_fields=["placements", "qualified"])
    return True


@transaction.atomic
def event_round_ended(*, match_id: uuid.UUID | str) -> bool:
    """The end-of-round work (queued by the finisher): the round's result, the next round if
    the host chose automatic advance, the prizes after the last round. Idempotent."""
    rnd = Round.objects.filter(match_id=match_id).only("tournament_id").first()
    if rnd is None:
        return False
    event = _locked(rnd.tournament_id)
    rnd = Round.objects.get(pk=rnd.pk)
    if not _record_round(event, rnd):
        return False
    if event.single_round or rnd.final:
        _finish(event)
    elif event.auto_advance:
        try:
            with transaction.atomic():  # the round's result stays recorded whatever happens
                _advance(event)
        except AppError as error:
            log.warning("event %s: the next round did not start: %s", event.pk, error.message)
    _touch(event)
    event.save()
    return True


def _finish(event: Tournament) -> None:
    """Prize picks from the final's places, then the door-prize draw among every entrant."""
    final = event.rounds.filter(final=True).first()
    places = {int(k): v for k, v in ((final and final.placements) or {}).items()}
    event.prize_picks = rules.prize_picks(places)
    entrants = sorted(event.entries.values_list("user_id", flat=True))
    event.raffle_entrants = entrants
    event.raffle_winners = rules.raffle(event.raffle_seed, entrants, event.door_prizes)
    event.status = Tournament.Status.FINISHED
    event.finished_at = timezone.now()
