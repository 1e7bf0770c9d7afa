"""The quick-play queue, blocks, follows, challenges and rematches in GraphQL (docs/matchmaking.md):
types over the readers' dicts, inputs checked by the one declaration both faces use
(:mod:`api.play.queue`), the same services as REST."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from api.play.fields import validate
from api.play.queue import BlockIn, ChallengeCreateIn, TicketCreateIn
from kernel.errors import NotFound
from matchmaking import challenges, reads, services

from .args import MatchID
from .context import require_user
from .shapes import strawberry_type
from .types import Game, PlayerRef, _value


@strawberry.enum(description="`waiting`, `matched` (seated at `match`), `cancelled`, `expired`.")
class TicketStatus(Enum):
    WAITING = _value("waiting")
    MATCHED = _value("matched")
    CANCELLED = _value("cancelled")
    EXPIRED = _value("expired")


@strawberry.enum(description="The time control of a queue table.")
class QueueTimeControl(Enum):
    LIVE = _value("live")
    ASYNC = _value("async")


if TYPE_CHECKING:

    class Ticket:
        """A ticket of the quick-play queue (derived below from ``matchmaking.reads.TICKET``)."""

        @classmethod
        def of(cls, d: dict[str, Any]) -> Ticket: ...

else:
    Ticket = strawberry_type(
        reads.TICKET,
        {"Game": Game, "TicketStatus": TicketStatus, "QueueTimeControl": QueueTimeControl},
    )


@strawberry.input(description="Queue for a table (REST `POST /api/queue/`).")
class QueueInput:
    game: Game
    seats_min: int
    seats_max: int | None = None
    time_control: QueueTimeControl | None = None
    rated: bool | None = strawberry.field(
        default=None,
        description="A rated table (null: rated) or an unrated one: seated only with players "
        "who asked for the same.",
    )
    bots_after: int | None = None
    bot_level: str | None = None

    def validated(self) -> dict[str, Any]:
        data = {
            "game": self.game.value,
            "seats_min": self.seats_min,
            "seats_max": self.seats_max,
            "time_control": self.time_control.value if self.time_control else None,
            "rated": self.rated,
            "bots_after": self.bots_after,
            "bot_level": self.bot_level,
        }
        checked = validate(TicketCreateIn, {k: v for k, v in data.items() if v is not None})
        if checked["seats_max"] is None:
            checked["seats_max"] = checked["seats_min"]
        return checked


def my_tickets(info: Info) -> list[Ticket]:
    user = require_user(info)
    return [Ticket.of(reads.render_ticket(t)) for t in reads.my_tickets(user)]


def ticket(info: Info, id: int) -> Ticket | None:
    """One of your tickets (REST ``GET /api/queue/{id}/``): anyone else's is not found."""
    user = require_user(info)
    found = reads.read_ticket(user, id) if id >= 1 else None
    if found is None:
        raise NotFound("No such ticket.")
    return Ticket.of(reads.render_ticket(found))


def blocked_players(info: Info) -> list[int]:
    return reads.blocked_players(require_user(info))


def queue(info: Info, input: QueueInput) -> Ticket:
    user = require_user(info)
    return Ticket.of(reads.render_ticket(services.ticket_create(user=user, **input.validated())))


def cancel_ticket(info: Info, id: int) -> Ticket:
    user = require_user(info)
    if id < 1:
        raise NotFound("No such ticket.")
    return Ticket.of(reads.render_ticket(services.ticket_cancel(user=user, ticket_id=id)))


def block_player(info: Info, player: int) -> list[int]:
    user = require_user(info)
    data = validate(BlockIn, {"player": player})
    services.block_create(user=user, player_id=data["player"])
    return reads.blocked_players(user)


def unblock_player(info: Info, player: int) -> list[int]:
    user = require_user(info)
    if player < 1:
        raise NotFound("You do not block this player.")
    services.block_delete(user=user, player_id=player)
    return reads.blocked_players(user)


@strawberry.enum(
    description="`none` (nobody offered one), `open`, `started`, `declined`, `expired`."
)
class RematchStatus(Enum):
    NONE = _value("none")
    OPEN = _value("open")
    STARTED = _value("started")
    DECLINED = _value("declined")
    EXPIRED = _value("expired")


@strawberry.type(description="The rematch of a finished match (REST `RematchOut`).")
class Rematch:
    status: RematchStatus
    accepted: list[int]
    waiting_for: list[int]
    match: strawberry.ID | None
    declined_by: int | None
    expires_at: str | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> Rematch:
        return cls(**{**d, "status": RematchStatus(d["status"])})


def _rematch_answer(user: Any, match_id: MatchID) -> Rematch:
    offer, humans = challenges.rematch_read(user=user, match_id=match_id)
    return Rematch.of(reads.render_rematch(offer, humans))


def rematch(info: Info, match_id: MatchID) -> Rematch:
    return _rematch_answer(require_user(info), match_id)


def accept_rematch(info: Info, match_id: MatchID) -> Rematch:
    user = require_user(info)
    challenges.rematch_accept(user=user, match_id=match_id)
    return _rematch_answer(user, match_id)


def decline_rematch(info: Info, match_id: MatchID) -> Rematch:
    user = require_user(info)
    challenges.rematch_decline(user=user, match_id=match_id)
    return _rematch_answer(user, match_id)


@strawberry.enum(
    description="`open`, `started` (the private `match` is running), `declined`, `expired`."
)
class ChallengeStatus(Enum):
    OPEN = _value("open")
    STARTED = _value("started")
    DECLINED = _value("declined")
    EXPIRED = _value("expired")


@strawberry.type(description="A challenge you made or received (REST `ChallengeOut`).")
class Challenge:
    id: int
    challenger: int
    players: list[int]
    accepted: list[int]
    game: Game
    options: JSON
    time_control: QueueTimeControl
    decision_seconds: int | None
    bots: list[str]
    rated: bool = strawberry.field(description="Whether the match it starts changes ratings.")
    status: ChallengeStatus
    declined_by: int | None
    match: strawberry.ID | None
    created_at: str
    expires_at: str

    @classmethod
    def of(cls, d: dict[str, Any]) -> Challenge:
        return cls(
            **{
                **d,
                "game": Game(d["game"]),
                "status": ChallengeStatus(d["status"]),
                "time_control": QueueTimeControl(d["time_control"]),
            }
        )


@strawberry.input(description="Challenge players to a match (REST `POST /api/challenges/`).")
class ChallengeInput:
    players: list[int]
    game: Game
    options: JSON | None = None
    time_control: QueueTimeControl | None = None
    decision_seconds: int | None = None
    bots: list[str] | None = None
    rated: bool | None = strawberry.field(
        default=None, description="Whether the match changes ratings (null: rated)."
    )

    def validated(self) -> dict[str, Any]:
        data = {
            "players": self.players,
            "game": self.game.value,
            "options": self.options,
            "time_control": self.time_control.value if self.time_control else None,
            "decision_seconds": self.decision_seconds,
            "bots": self.bots,
            "rated": self.rated,
        }
        return validate(ChallengeCreateIn, {k: v for k, v in data.items() if v is not None})


def _challenge_answer(user: Any, challenge_id: int) -> Challenge:
    found = reads.read_challenge(user, challenge_id)
    if found is None:
        raise NotFound("No such challenge.")
    return Challenge.of(reads.render_challenge(found))


def challenge(info: Info, id: int) -> Challenge | None:
    """A challenge you made or received (REST ``GET /api/challenges/{id}/``): any other is not
    found."""
    user = require_user(info)
    if id < 1:
        raise NotFound("No such challenge.")
    return _challenge_answer(user, id)


def my_challenges(info: Info) -> list[Challenge]:
    user = require_user(info)
    return [Challenge.of(reads.render_challenge(c)) for c in reads.my_challenges(user)]


def challenge_players(info: Info, input: ChallengeInput) -> Challenge:
    user = require_user(info)
    challenge = challenges.challenge_create(user=user, **input.validated())
    return _challenge_answer(user, challenge.pk)


def accept_challenge(info: Info, id: int) -> Challenge:
    user = require_user(info)
    if id < 1:
        raise NotFound("No such challenge.")
    challenges.challenge_accept(user=user, challenge_id=id)
    return _challenge_answer(user, id)


def decline_challenge(info: Info, id: int) -> Challenge:
    user = require_user(info)
    if id < 1:
        raise NotFound("No such challenge.")
    challenges.challenge_decline(user=user, challenge_id=id)
    return _challenge_answer(user, id)


@strawberry.type(description="A player you follow (REST `FollowListOut`).")
class Followed:
    player: PlayerRef
    looking_for: Game | None = strawberry.field(
        description="The game they are queueing for (null: not queueing)."
    )
    matches: list[strawberry.ID] = strawberry.field(
        description="Their open or running public matches (at most 20, newest first)."
    )

    @classmethod
    def of(cls, d: dict[str, Any]) -> Followed:
        looking = d["looking_for"]
        return cls(
            player=PlayerRef(**d["player"]),
            looking_for=Game(looking) if looking else None,
            matches=[strawberry.ID(m) for m in d["matches"]],
        )


def _follows(user: Any) -> list[Followed]:
    return [Followed.of(d) for d in reads.followed_players(user)]


def followed_players(info: Info) -> list[Followed]:
    return _follows(require_user(info))


def follow_player(info: Info, player: int) -> list[Followed]:
    user = require_user(info)
    data = validate(BlockIn, {"player": player})
    services.follow_create(user=user, player_id=data["player"])
    return _follows(user)


def unfollow_player(info: Info, player: int) -> list[Followed]:
    user = require_user(info)
    if player < 1:
        raise NotFound("You do not follow this player.")
    services.follow_delete(user=user, player_id=player)
    return _follows(user)
