"""What a player sees of their tickets: status, place in the line, waiting time, an estimate."""

from __future__ import annotations

from datetime import datetime, timedelta
from statistics import median
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat
from kernel.shapes import Field, Shape

from .models import Block, Challenge, Challenged, Follow, Rematch, Ticket

#: Tickets ended this recently are still listed (so a client sees its table).
RECENT = timedelta(minutes=10)
#: The estimate is the median wait of the tables formed in the pool this recently.
ESTIMATE_WINDOW = timedelta(hours=1)


def my_tickets(user: User, now: datetime | None = None) -> QuerySet[Ticket]:
    now = now or timezone.now()
    return Ticket.objects.filter(
        Q(created_at__gte=now - RECENT) | Q(status=Ticket.Status.WAITING), user=user
    ).order_by("-created_at", "-id")


def read_ticket(user: User, ticket_id: int) -> Ticket | None:
    return Ticket.objects.filter(pk=ticket_id, user=user).first()


def _estimate(ticket: Ticket, now: datetime) -> float | None:
    waits = [
        (ended - created).total_seconds()
        for created, ended in Ticket.objects.filter(
            game=ticket.game,
            time_control=ticket.time_control,
            rated=ticket.rated,
            status=Ticket.Status.MATCHED,
            ended_at__gte=now - ESTIMATE_WINDOW,
        )
        .order_by("-ended_at")
        .values_list("created_at", "ended_at")[:50]
        if ended is not None
    ]
    return round(median(waits), 1) if waits else None


#: A ticket as the server answers it (``render_ticket``); the OpenAPI component ``TicketOut``
#: and the GraphQL type ``Ticket`` are derived from this declaration.
TICKET = Shape(
    "TicketOut",
    "Ticket",
    "A ticket of the quick-play queue.",
    (
        Field("id", "int", "The ticket id.", lo=1, graphql_about=""),
        Field("game", "Game"),
        Field("status", "TicketStatus"),
        Field("seats_min", "int", lo=2),
        Field("seats_max", "int", lo=2),
        Field("time_control", "QueueTimeControl"),
        Field("rated", "bool", "A rated table (seated only with rated tickets) or an unrated one."),
        Field("bots_after", "int", nullable=True, lo=0),
        Field("bot_level", "str", "The bots' level.", nullable=True, graphql_about=""),
        Field(
            "position",
            "int",
            "While waiting: 1 + the tickets of the pool queued earlier.",
            nullable=True,
            lo=1,
        ),
        Field(
            "waited",
            "float",
            "Seconds waited (until matched, cancelled or expired).",
            lo=0,
            graphql_about="Seconds waited.",
        ),
        Field(
            "estimate",
            "float",
            "While waiting: the median wait of the pool's last tables (seconds).",
            nullable=True,
            lo=0,
        ),
        Field("match", "uuid", nullable=True),
        Field("created_at", "datetime"),
        Field("expires_at", "datetime"),
    ),
    graphql_about="A ticket of the quick-play queue (REST `TicketOut`).",
)


def render_ticket(ticket: Ticket, now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    waiting = ticket.status == Ticket.Status.WAITING
    end = now if waiting else (ticket.ended_at or now)
    position = None
    if waiting:
        position = (
            Ticket.objects.filter(
                game=ticket.game,
                time_control=ticket.time_control,
                rated=ticket.rated,
                status=Ticket.Status.WAITING,
                created_at__lt=ticket.created_at,
            ).count()
            + 1
        )
    return {
        "id": ticket.pk,
        "game": ticket.game,
        "status": ticket.status,
        "seats_min": ticket.seats_min,
        "seats_max": ticket.seats_max,
        "time_control": ticket.time_control,
        "rated": ticket.rated,
        "bots_after": ticket.bots_after,
        "bot_level": ticket.bot_level or None,
        "position": position,
        "waited": round(max(0.0, (end - ticket.created_at).total_seconds()), 1),
        "estimate": _estimate(ticket, now) if waiting else None,
        "match": str(ticket.match_id) if ticket.match_id else None,
        "created_at": ticket.created_at.isoformat(),
        "expires_at": ticket.expires_at.isoformat(),
    }


def blocked_players(user: User) -> list[int]:
    return list(
        Block.objects.filter(blocker=user)
        .order_by("blocked_id")
        .values_list("blocked_id", flat=True)
    )


def render_rematch(offer: Rematch | None, humans: list[int]) -> dict[str, Any]:
    """An offer as its players see it: who accepted, whom it waits for, the new match."""
    if offer is None:
        return {
            "status": "none",
            "accepted": [],
            "waiting_for": humans,
            "match": None,
            "declined_by": None,
            "expires_at": None,
        }
    return {
        "status": offer.status,
        "accepted": list(offer.accepted),
        "waiting_for": []
        if offer.status != Rematch.Status.OPEN
        else [h for h in humans if h not in offer.accepted],
        "match": str(offer.match_id) if offer.match_id else None,
        "declined_by": offer.declined_by_id,
        "expires_at": offer.expires_at.isoformat(),
    }


def my_challenges(user: User, now: datetime | None = None) -> list[Challenge]:
    """Challenges you made or received: the open ones and those of the last day, newest first."""
    now = now or timezone.now()
    received = Challenged.objects.filter(user=user).values("challenge_id")
    return list(
        Challenge.objects.filter(Q(challenger=user) | Q(pk__in=received))
        .filter(Q(status=Challenge.Status.OPEN) | Q(created_at__gte=now - timedelta(days=1)))
        .select_related("challenger")
        .prefetch_related("invited")
        .order_by("-created_at", "-id")[:100]
    )


def read_challenge(user: User, challenge_id: int) -> Challenge | None:
    challenge = Challenge.objects.filter(pk=challenge_id).prefetch_related("invited").first()
    if challenge is None:
        return None
    if challenge.challenger_id != user.pk and not any(
        c.user_id == user.pk for c in challenge.invited.all()
    ):
        return None
    return challenge


def render_challenge(challenge: Challenge, now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    status = challenge.status
    if status == Challenge.Status.OPEN and challenge.expires_at <= now:
        status = Challenge.Status.EXPIRED
    invited = sorted(challenge.invited.all(), key=lambda c: c.position)
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger_id,
        "players": [c.user_id for c in invited],
        "accepted": [c.user_id for c in invited if c.accepted],
        "game": challenge.game,
        "options": challenge.options,
        "time_control": challenge.time_control,
        "decision_seconds": challenge.decision_seconds,
        "bots": list(challenge.bots),
        "rated": challenge.rated,
        "status": status,
        "declined_by": challenge.declined_by_id,
        "match": str(challenge.match_id) if challenge.match_id else None,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
    }


def followed_players(user: User) -> list[dict[str, Any]]:
    """The players ``user`` follows: their open or running public matches, and the game they
    are queueing for (null when not in the queue)."""
    follows = list(
        Follow.objects.filter(follower=user).select_related("followed").order_by("followed_id")
    )
    ids = [f.followed_id for f in follows]
    looking = dict(
        Ticket.objects.filter(user_id__in=ids, status=Ticket.Status.WAITING).values_list(
            "user_id", "game"
        )
    )
    matches: dict[int, list[str]] = {i: [] for i in ids}
    for user_id, match_id in (
        Seat.objects.filter(
            user_id__in=ids,
            match__visibility=Match.Visibility.PUBLIC,
            match__status__in=[Match.Status.LOBBY, Match.Status.ACTIVE],
        )
        .order_by("-match__created_at")
        .values_list("user_id", "match_id")
        .distinct()
    ):
        if str(match_id) not in matches[user_id] and len(matches[user_id]) < 20:
            matches[user_id].append(str(match_id))
    return [
        {
            "player": {"id": f.followed_id, "name": f.followed.public_name},
            "looking_for": looking.get(f.followed_id),
            "matches": matches[f.followed_id],
        }
        for f in follows
    ]
