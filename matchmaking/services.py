"""The only writers of the queue: queue, cancel, the matcher's pass, blocks and follows
(challenges and rematch offers: :mod:`.challenges`).

A pass (:func:`queue_match`, run by Celery beat or the embedded runner every
``QUEUE_SECONDS``) locks the waiting tickets it sees (``SKIP LOCKED``: a ticket being cancelled
is left to the next pass), asks the pure matcher (:mod:`.matcher`) for tables, and makes each an
ordinary started match through the lobby service (deadlines, bots, ratings as any match), in
the same transaction that marks its tickets matched: a ticket is seated once or not at all.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone

from accounts.models import User
from games.engine import registry
from games.engine.bots import bot_levels
from games.engine.core import EngineError
from games.engine.core import InvalidOptions as EngineInvalidOptions
from games.models import Career, Match, Seat
from games.rating import START
from games.services.lobby import match_create_seated
from kernel.errors import Conflict, Forbidden, InvalidOptions, NotFound

from . import matcher, signals
from .models import Block, Challenge, Follow, Rematch, Ticket

log = logging.getLogger(__name__)

#: The time controls a queue table may have (``solo`` is one player and bots: no queue needed).
TIME_CONTROLS = (Match.TimeControl.LIVE, Match.TimeControl.ASYNC)
#: A ticket still waiting after this long expires.
TICKET_SECONDS = {"live": 15 * 60, "async": 24 * 3600}
#: The longest a player may ask to wait before bots fill the table.
BOTS_AFTER_MAX = 600
#: The largest id an account can have (a 64-bit signed integer on every database): a larger
#: id names no player (404), and is never handed to a query (SQLite cannot bind it).
PLAYER_ID_MAX = 2**63 - 1


def _check_ticket(
    game: str, seats_min: int, seats_max: int, time_control: str, bot_level: str
) -> None:
    try:
        rules = registry.get(game)
    except EngineError as error:
        raise InvalidOptions(error.reason, field="game") from None
    if seats_min > seats_max:
        raise InvalidOptions("seats_min is more than seats_max.", field="seats_min")
    for seats in range(seats_min, seats_max + 1):
        try:
            rules.normalize_options(seats, {})
        except EngineInvalidOptions as error:
            raise InvalidOptions(f"{seats} seats: {error.reason}", field="seats_max") from None
    if time_control not in TIME_CONTROLS:
        raise InvalidOptions("The queue's time controls are live and async.", field="time_control")
    if bot_level and bot_level not in bot_levels(game):
        raise InvalidOptions(
            f"Unknown bot level {bot_level!r}; levels: {', '.join(bot_levels(game))}.",
            field="bot_level",
        )


@transaction.atomic
def ticket_create(
    *,
    user: User,
    game: str,
    seats_min: int,
    seats_max: int,
    time_control: str = Match.TimeControl.LIVE,
    bots_after: int | None = None,
    bot_level: str = "",
    rated: bool = True,
) -> Ticket:
    """Queue ``user`` for a table of ``game`` (``rated`` or not: seated only with tickets that
    agree). One waiting ticket per player (409)."""
    _check_ticket(game, seats_min, seats_max, time_control, bot_level)
    if bots_after is not None and not bot_level:
        bot_level = "basic"
    if Ticket.objects.filter(user=user, status=Ticket.Status.WAITING).exists():
        raise Conflict("You are already waiting in the queue; cancel that ticket first.")
    career = Career.objects.filter(user=user, game=game).only("rating").first()
    now = timezone.now()
    try:
        with transaction.atomic():
            ticket = Ticket.objects.create(
                user=user,
                game=game,
                time_control=time_control,
                seats_min=seats_min,
                seats_max=seats_max,
                rated=rated,
                bots_after=bots_after,
                bot_level=bot_level if bots_after is not None else "",
                rating=career.rating if career else START,
                created_at=now,
                expires_at=now + timedelta(seconds=TICKET_SECONDS[time_control]),
            )
    except IntegrityError:  # a concurrent request of the same player queued first
        raise Conflict("You are already waiting in the queue; cancel that ticket first.") from None
    _tell_followers(ticket, now)
    return ticket


def _tell_followers(ticket: Ticket, now: datetime) -> None:
    """The player's followers learn that they are looking for a game (``followed_looking``,
    in this transaction; the outbox holds it back a few seconds and throttles it). Nobody
    blocked either way is told: a block ends a follow, and is checked here again."""
    player = ticket.user_id
    followers = (
        Follow.objects.filter(followed_id=player)
        .exclude(follower_id__in=Block.objects.filter(blocked_id=player).values("blocker_id"))
        .exclude(follower_id__in=Block.objects.filter(blocker_id=player).values("blocked_id"))
        .values_list("follower_id", flat=True)
    )
    signals.looking.send(ticket, list(followers), now)


@transaction.atomic
def ticket_cancel(*, user: User, ticket_id: int) -> Ticket:
    """Leave the queue at once. A ticket already matched (or over) cannot be cancelled: 409."""
    ticket = Ticket.objects.select_for_update().filter(pk=ticket_id, user=user).first()
    if ticket is None:
        raise NotFound("No such ticket.")
    if ticket.status != Ticket.Status.WAITING:
        raise Conflict(f"This ticket is {ticket.status}.", status=ticket.status)
    ticket.status = Ticket.Status.CANCELLED
    ticket.ended_at = timezone.now()
    ticket.save(update_fields=["status", "ended_at"])
    return ticket


@transaction.atomic
def block_create(*, user: User, player_id: int) -> Block:
    """``user`` blocks ``player_id``: never seated together, never challenged by them."""
    if player_id == user.pk:
        raise InvalidOptions("You cannot block yourself.", field="player")
    if not _players().filter(pk=player_id).exists():
        raise NotFound("No such player.")
    block, _ = Block.objects.get_or_create(blocker=user, blocked_id=player_id)
    Follow.objects.filter(
        models.Q(follower=user, followed_id=player_id)
        | models.Q(follower_id=player_id, followed=user)
    ).delete()
    return block


@transaction.atomic
def follow_create(*, user: User, player_id: int) -> Follow:
    """``user`` follows ``player_id`` (not a player who blocks them, or whom they block)."""
    if player_id == user.pk:
        raise InvalidOptions("You cannot follow yourself.", field="player")
    if not _players().filter(pk=player_id).exists():
        raise NotFound("No such player.")
    if _blocked_either_way(user.pk, player_id):
        raise Forbidden("You cannot follow this player.")
    follow, _ = Follow.objects.get_or_create(follower=user, followed_id=player_id)
    return follow


@transaction.atomic
def follow_delete(*, user: User, player_id: int) -> None:
    if not Follow.objects.filter(follower=user, followed_id=player_id).delete()[0]:
        raise NotFound("You do not follow this player.")


@transaction.atomic
def block_delete(*, user: User, player_id: int) -> None:
    if not Block.objects.filter(blocker=user, blocked_id=player_id).delete()[0]:
        raise NotFound("You do not block this player.")


def _as_ticket(t: Ticket, now: datetime) -> matcher.Ticket:
    return matcher.Ticket(
        id=t.pk,
        player=t.user_id,
        game=t.game,
        time_control=t.time_control,
        seats_min=t.seats_min,
        seats_max=t.seats_max,
        rating=t.rating,
        waited=(now - t.created_at).total_seconds(),
        bots_after=None if t.bots_after is None else float(t.bots_after),
        bot_level=t.bot_level,
        rated=t.rated,
    )


def _seat(table: matcher.Table, rows: dict[int, Ticket], now: datetime) -> Match | None:
    members = [rows[i] for i in table.tickets]
    try:
        with transaction.atomic():
            match = match_create_seated(
                host=members[0].user,
                game=table.game,
                users=[m.user for m in members],
                options={},
                visibility=Match.Visibility.PUBLIC,
                time_control=table.time_control,
                decision_seconds=None,
                bots=list(table.bots),
                rated=table.rated,
            )
            Ticket.objects.filter(pk__in=table.tickets).update(
                status=Ticket.Status.MATCHED, match=match, ended_at=now
            )
            return match
    except Exception:  # one table that cannot start leaves its tickets waiting, not the pass
        log.exception("queue: table %r could not start", table)
        return None


@transaction.atomic
def queue_match(*, now: datetime | None = None) -> list[Any]:
    """One pass of the matcher: expire old tickets, form every table it can. Returns the ids of
    the matches started."""
    now = now or timezone.now()
    Ticket.objects.filter(status=Ticket.Status.WAITING, expires_at__lte=now).update(
        status=Ticket.Status.EXPIRED, ended_at=now
    )
    rows = {
        t.pk: t
        for t in Ticket.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("user")
        .filter(status=Ticket.Status.WAITING)
    }
    if not rows:
        return []
    players = {t.user_id for t in rows.values()}
    blocks = Block.objects.filter(blocker_id__in=players, blocked_id__in=players).values_list(
        "blocker_id", "blocked_id"
    )
    tables, complete = matcher.match_pass([_as_ticket(t, now) for t in rows.values()], blocks)
    if not complete:
        log.info("queue: a search hit its budget; the next pass looks again")
    started = []
    for table in tables:
        match = _seat(table, rows, now)
        if match is not None:
            started.append(match.pk)
    return started


def _players() -> models.QuerySet[User]:
    """The accounts one can block, follow or challenge: not a deleted one."""
    return User.objects.filter(deleted_at__isnull=True)


def _blocked_either_way(a: int, b: int) -> bool:
    return Block.objects.filter(
        models.Q(blocker_id=a, blocked_id=b) | models.Q(blocker_id=b, blocked_id=a)
    ).exists()


def player_depart(*, user: User) -> None:
    """An account is being deleted (inside its transaction): its tickets leave the queue
    (waiting on a matcher pass that holds one, so a table that pass forms is seated before the
    account's seats are settled), and every open challenge or rematch offer it is part of is
    declined, since it could never start without them."""
    Ticket.objects.filter(user=user).delete()
    mine = models.Q(challenger=user) | models.Q(invited__user=user)
    Challenge.objects.filter(mine, status=Challenge.Status.OPEN).update(
        status=Challenge.Status.DECLINED
    )
    played = Seat.objects.filter(user=user).values("match_id")
    Rematch.objects.filter(source_id__in=played, status=Rematch.Status.OPEN).update(
        status=Rematch.Status.DECLINED
    )
