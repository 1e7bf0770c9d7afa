"""Challenges and rematch offers: the only writers of both. A challenge names players (none
blocked either way) and starts an ordinary match when all have accepted; a rematch offer of a
finished match starts its copy when every human of the table has accepted. Either ends when one
player declines, or when it expires.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Match
from games.services.common import locked, require_seat, seats_of
from games.services.lobby import match_check_set_up, match_create_again, match_create_seated
from kernel.errors import Conflict, Forbidden, InvalidOptions, NotFound

from . import signals
from .models import Challenge, Challenged, Rematch
from .services import PLAYER_ID_MAX, TIME_CONTROLS, _blocked_either_way, _players

#: A rematch offer nobody answered expires after this long.
REMATCH_SECONDS = {"live": 10 * 60, "async": 7 * 24 * 3600, "solo": 10 * 60}
#: A challenge nobody answered expires after this long.
CHALLENGE_SECONDS = {"live": 15 * 60, "async": 7 * 24 * 3600}
#: The most players one challenge names.
CHALLENGE_PLAYERS_MAX = 9


def _rematch_table(user: User, match_id: Any) -> tuple[Match, list[int]]:
    """The finished match (its row locked) and the ids of its human players, for a player of
    it."""
    match = locked(match_id)
    seats = seats_of(match)
    require_seat(match, seats, user, "Only a player of the match can ask for a rematch.")
    if match.status != Match.Status.FINISHED:
        raise Conflict("A rematch is offered once the match has finished.", status=match.status)
    return match, sorted({s.user_id for s in seats if s.user_id is not None})


def _current(match: Match, now: datetime) -> Rematch | None:
    offer = Rematch.objects.filter(source=match).first()
    if offer is not None and offer.status == Rematch.Status.OPEN and offer.expires_at <= now:
        offer.status = Rematch.Status.EXPIRED
        offer.save(update_fields=["status"])
    return offer


@transaction.atomic
def rematch_accept(*, user: User, match_id: Any) -> Rematch:
    """Offer a rematch of a finished match, or accept the offer; the new match starts when
    every human of the table has accepted. An offer declined or expired is over (409)."""
    match, humans = _rematch_table(user, match_id)
    now = timezone.now()
    offer = _current(match, now)
    if offer is None:
        offer = Rematch.objects.create(
            source=match,
            accepted=[],
            created_at=now,
            expires_at=now + timedelta(seconds=REMATCH_SECONDS[match.time_control]),
        )
        signals.rematch_offered.send(match, offer.pk, [h for h in humans if h != user.pk])
    if offer.status != Rematch.Status.OPEN:
        raise Conflict(f"This rematch offer is {offer.status}.", status=offer.status)
    if user.pk in offer.accepted:
        raise Conflict("You have accepted this rematch already.")
    offer.accepted = [*offer.accepted, user.pk]
    if set(offer.accepted) >= set(humans):
        host = User.objects.get(pk=offer.accepted[0])
        offer.match = match_create_again(source=match, host=host)
        offer.status = Rematch.Status.STARTED
    offer.save()
    return offer


@transaction.atomic
def rematch_decline(*, user: User, match_id: Any) -> Rematch:
    """Decline (or withdraw) a rematch: the offer is over for everyone."""
    match, _humans = _rematch_table(user, match_id)
    offer = _current(match, timezone.now())
    if offer is None:
        raise NotFound("Nobody has offered a rematch of this match.")
    if offer.status != Rematch.Status.OPEN:
        raise Conflict(f"This rematch offer is {offer.status}.", status=offer.status)
    offer.status = Rematch.Status.DECLINED
    offer.declined_by = user
    offer.save(update_fields=["status", "declined_by"])
    return offer


@transaction.atomic
def rematch_read(*, user: User, match_id: Any) -> tuple[Rematch | None, list[int]]:
    """The offer (none yet: None) and the table's human players, for a player of the match."""
    match, humans = _rematch_table(user, match_id)
    return _current(match, timezone.now()), humans


@transaction.atomic
def challenge_create(
    *,
    user: User,
    players: list[int],
    game: str,
    options: dict[str, Any] | None = None,
    time_control: str = Match.TimeControl.LIVE,
    decision_seconds: int | None = None,
    bots: list[str] | None = None,
    rated: bool = True,
) -> Challenge:
    """Challenge ``players`` (ids, in seat order after the challenger) to a match of ``game``
    (``rated`` or not); it starts when every one of them has accepted. A player who blocks the
    challenger (or whom the challenger blocks) cannot be challenged (403)."""
    bots = list(bots or [])
    if user.pk in players:
        raise InvalidOptions("You cannot challenge yourself.", field="players")
    if len(set(players)) != len(players):
        raise InvalidOptions("A player is named twice.", field="players")
    if time_control not in TIME_CONTROLS:
        raise InvalidOptions("A challenge is live or async.", field="time_control")
    possible = [p for p in players if 0 < p <= PLAYER_ID_MAX]
    found = set(_players().filter(pk__in=possible).values_list("pk", flat=True))
    if missing := [p for p in players if p not in found]:
        raise NotFound(f"No such player: {missing[0]}.")
    for player in players:
        if _blocked_either_way(user.pk, player):
            raise Forbidden(f"Player {player} cannot be challenged by you.")
    normalized = match_check_set_up(
        game=game,
        seats=1 + len(players) + len(bots),
        options=dict(options or {}),
        time_control=time_control,
        decision_seconds=decision_seconds,
        bots=bots,
    )
    now = timezone.now()
    challenge = Challenge.objects.create(
        challenger=user,
        game=game,
        options=normalized,
        time_control=time_control,
        decision_seconds=decision_seconds,
        bots=bots,
        rated=rated,
        created_at=now,
        expires_at=now + timedelta(seconds=CHALLENGE_SECONDS[time_control]),
    )
    Challenged.objects.bulk_create(
        [Challenged(challenge=challenge, user_id=p, position=i + 1) for i, p in enumerate(players)]
    )
    signals.challenged.send(challenge, list(players))
    return challenge


def _locked_challenge(user: User, challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None or not (
        challenge.challenger_id == user.pk
        or Challenged.objects.filter(challenge=challenge, user=user).exists()
    ):
        raise NotFound("No such challenge.")
    if challenge.status == Challenge.Status.OPEN and challenge.expires_at <= timezone.now():
        challenge.status = Challenge.Status.EXPIRED
        challenge.save(update_fields=["status"])
    return challenge


def _require_open(challenge: Challenge) -> None:
    if challenge.status != Challenge.Status.OPEN:
        raise Conflict(f"This challenge is {challenge.status}.", status=challenge.status)


@transaction.atomic
def challenge_accept(*, user: User, challenge_id: int) -> Challenge:
    """A challenged player accepts; the match starts when every one of them has."""
    challenge = _locked_challenge(user, challenge_id)
    _require_open(challenge)
    invited = list(Challenged.objects.filter(challenge=challenge).order_by("position"))
    mine = next((c for c in invited if c.user_id == user.pk), None)
    if mine is None:
        raise Conflict("You made this challenge: the players you challenged accept it.")
    if mine.accepted:
        raise Conflict("You have accepted this challenge already.")
    mine.accepted = True
    mine.save(update_fields=["accepted"])
    if all(c.accepted for c in invited):
        users = {u.pk: u for u in User.objects.filter(pk__in=[c.user_id for c in invited])}
        challenge.match = match_create_seated(
            host=challenge.challenger,
            game=challenge.game,
            users=[challenge.challenger, *(users[c.user_id] for c in invited)],
            options=challenge.options,
            visibility=Match.Visibility.PRIVATE,
            time_control=challenge.time_control,
            decision_seconds=challenge.decision_seconds,
            bots=list(challenge.bots),
            rated=challenge.rated,
        )
        challenge.status = Challenge.Status.STARTED
        challenge.save(update_fields=["match", "status"])
    return challenge


@transaction.atomic
def challenge_decline(*, user: User, challenge_id: int) -> Challenge:
    """A challenged player declines, or the challenger withdraws: over for everyone."""
    challenge = _locked_challenge(user, challenge_id)
    _require_open(challenge)
    challenge.status = Challenge.Status.DECLINED
    challenge.declined_by = user
    challenge.save(update_fields=["status", "declined_by"])
    return challenge
