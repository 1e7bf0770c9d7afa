"""GraphQL types over the readers' outputs and the engines' redacted views, never over models.

Each type is built by a ``from_*`` constructor from the very dictionary the REST API renders
(``games.reads``), so both APIs show the same facts. What depends on the game — the engine's
view, an action's parameters, an event's own fields, statistics, the replay record — is a
``JSON`` scalar holding the same value as REST; everything else is typed. Enum values are the
REST strings (``lobby``, ``fabfib``, ``async`` …), so a value reads the same in both APIs.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON

from api.play.accounts import UserOutSerializer


def _when(text: str | None) -> datetime | None:
    """A selector's ISO 8601 timestamp as a ``DateTime`` (serialized back to the same text)."""
    return None if text is None else datetime.fromisoformat(text)


def _value(name: str) -> Any:
    return strawberry.enum_value(name, name=name)


@strawberry.enum(description="The games this server plays.")
class Game(Enum):
    FABFIB = _value("fabfib")
    FIBBER = _value("fibber")
    FIBBERS_DICE = _value("fibbers_dice")
    SKULL = _value("skull")


@strawberry.enum(description="`lobby` → `active` → `finished`, or `aborted`.")
class MatchStatus(Enum):
    LOBBY = _value("lobby")
    ACTIVE = _value("active")
    FINISHED = _value("finished")
    ABORTED = _value("aborted")


@strawberry.enum(
    description="Why a match ended: the game's own reason when it finished (docs/rules.md), "
    "`abandoned` (a lobby left empty) or `aborted_by_staff` when it was aborted; `completed` "
    "for a match that finished before the game's reason was recorded."
)
class EndReason(Enum):
    LAST_ALIVE = _value("last_alive")  # Fab Fib
    SILVER_NOSE = _value("silver_nose")  # Fibber
    MAX_PLAYS = _value("max_plays")
    ROUNDS = _value("rounds")
    LAST_STANDING = _value("last_standing")  # Fibber's Dice, Skull
    TWO_SUCCESSES = _value("two_successes")  # Skull
    LAST_PERSON_STANDING = _value("last_person_standing")
    ABANDONED = _value("abandoned")  # the server
    ABORTED_BY_STAFF = _value("aborted_by_staff")
    COMPLETED = _value("completed")


@strawberry.enum(description="Private matches are found by their players, host and invite code.")
class Visibility(Enum):
    PUBLIC = _value("public")
    PRIVATE = _value("private")


@strawberry.enum(description="`live` and `async` give every decision a deadline; `solo` none.")
class TimeControl(Enum):
    LIVE = _value("live")
    ASYNC = _value("async")
    SOLO = _value("solo")


@strawberry.type(description="An account (the same fields as REST's `GET /api/me/`).")
class User:
    id: int
    username: str
    display_name: str
    is_guest: bool
    date_joined: datetime

    @classmethod
    def of(cls, user: Any) -> User:
        data = UserOutSerializer(user).data  # the one public shape of a user
        return cls(
            id=data["id"],
            username=data["username"],
            display_name=data["display_name"],
            is_guest=data["is_guest"],
            date_joined=datetime.fromisoformat(data["date_joined"]),
        )


@strawberry.type(description="A token (send it as `Authorization: Bearer <token>`) and its user.")
class AuthPayload:
    token: str
    user: User


@strawberry.type(description="Who holds a seat, as everyone may see it.")
class PlayerRef:
    id: int
    name: str


@strawberry.type(description="A position at the table, held by a user, a bot, or nobody yet.")
class Seat:
    position: int
    user: PlayerRef | None
    bot_level: str | None
    must_act: bool
    deadline: datetime | None
    away: bool
    vacation_until: datetime | None = strawberry.field(
        description="Async matches: the seat's player is on vacation (their clock waits) "
        "until then, if it is still to come."
    )
    place: int | None

    @classmethod
    def of(cls, seat: dict[str, Any]) -> Seat:
        user = seat["user"]
        return cls(
            position=seat["position"],
            user=None if user is None else PlayerRef(id=user["id"], name=user["name"]),
            bot_level=seat["bot_level"],
            must_act=seat["must_act"],
            deadline=_when(seat["deadline"]),
            away=seat["away"],
            vacation_until=_when(seat["vacation_until"]),
            place=seat["place"],
        )


@strawberry.type(description="The caller's seats: the one this view is seen through, and all.")
class You:
    seat: int | None
    seats: list[int]


@strawberry.type(
    description="One thing the caller may do now. Post back `{type, <param>: value …}` with a "
    "value chosen from every parameter's domain (`one_of`, `subset_of` with `min`/`max`, or "
    "`range`): any such action is legal."
)
class LegalAction:
    type: str
    label: str
    params: JSON = strawberry.field(
        description="Parameter name → its domain, exactly as in REST's `legal_actions`."
    )

    @classmethod
    def of(cls, entry: dict[str, Any]) -> LegalAction:
        return cls(type=entry["type"], label=entry["label"], params=entry["params"])


@strawberry.type(
    description="One entry of the caller's event feed. Private parts are the caller's seat's "
    "only; a seat that may not see an event's private part still gets its sequence number."
)
class MatchEvent:
    seq: int
    version: int
    type: str
    by_bot: bool = strawberry.field(
        description="A bot took this decision for a human seat (after a deadline, or while the "
        "player is marked away); a bot seat's own decisions are not marked."
    )
    data: JSON = strawberry.field(
        description="The whole event exactly as REST sends it (`seq`, `version`, `type`, the "
        "game's own fields, `private` where the caller may see it, `by_bot` as above)."
    )

    @classmethod
    def of(cls, event: dict[str, Any]) -> MatchEvent:
        return cls(
            seq=event["seq"],
            version=event["version"],
            type=event["type"],
            by_bot=bool(event.get("by_bot")),
            data=JSON(event),
        )


@strawberry.type(
    description="The caller's redacted view of a match (REST `GET /api/matches/{id}/`)."
)
class MatchView:
    id: strawberry.ID
    game: Game
    status: MatchStatus
    version: int
    visibility: Visibility
    options: JSON
    seat_count: int
    time_control: TimeControl
    decision_seconds: int
    rated: bool = strawberry.field(description="Whether the match changes ratings.")
    created_by: int | None
    invite_code: str | None = strawberry.field(description="Shown to the match's players only.")
    seed_commitment: str | None
    seats: list[Seat]
    you: You | None = strawberry.field(description="`null` for a spectator.")
    to_act: list[int]
    deadline: datetime | None
    legal_actions: list[LegalAction]
    view: JSON | None = strawberry.field(
        description="The engine's view for the caller's seat (spectator: `null` seat), exactly "
        "as REST's `view`, without `legal_actions`. `null` before the start."
    )
    placements: list[int] | None
    end_reason: EndReason | None
    last_seq: int
    events: list[MatchEvent] = strawberry.field(description="The most recent events.")

    @strawberry.field(description="The public part of `view` (the same for every seat).")
    def public(self) -> JSON | None:
        return None if not isinstance(self.view, dict) else self.view.get("public")

    @strawberry.field(description="The caller's private part of `view` (`null` for spectators).")
    def private(self) -> JSON | None:
        return None if not isinstance(self.view, dict) else self.view.get("private")

    @classmethod
    def of(cls, body: dict[str, Any]) -> MatchView:
        you = body["you"]
        return cls(
            id=strawberry.ID(body["id"]),
            game=Game(body["game"]),
            status=MatchStatus(body["status"]),
            version=body["version"],
            visibility=Visibility(body["visibility"]),
            options=body["options"],
            seat_count=body["seat_count"],
            time_control=TimeControl(body["time_control"]),
            decision_seconds=body["decision_seconds"],
            rated=body["rated"],
            created_by=body["created_by"],
            invite_code=body["invite_code"],
            seed_commitment=body["seed_commitment"],
            seats=[Seat.of(s) for s in body["seats"]],
            you=None if you is None else You(seat=you["seat"], seats=you["seats"]),
            to_act=body["to_act"],
            deadline=_when(body["deadline"]),
            legal_actions=[LegalAction.of(e) for e in body["legal_actions"]],
            view=body["view"],
            placements=body["placements"],
            end_reason=None if body["end_reason"] is None else EndReason(body["end_reason"]),
            last_seq=body["last_seq"],
            events=[MatchEvent.of(e) for e in body["events"]],
        )


@strawberry.type(description="A lobby or list entry: public facts only.")
class MatchSummary:
    id: strawberry.ID
    game: Game
    status: MatchStatus
    visibility: Visibility
    options: JSON
    seat_count: int
    filled: int
    bots: int
    time_control: TimeControl
    rated: bool = strawberry.field(description="Whether the match changes ratings.")
    created_at: datetime
    version: int
    seats: list[Seat]

    @classmethod
    def of(cls, summary: dict[str, Any], seats: list[dict[str, Any]]) -> MatchSummary:
        return cls(
            id=strawberry.ID(summary["id"]),
            game=Game(summary["game"]),
            status=MatchStatus(summary["status"]),
            visibility=Visibility(summary["visibility"]),
            options=summary["options"],
            seat_count=summary["seat_count"],
            filled=summary["filled"],
            bots=summary["bots"],
            time_control=TimeControl(summary["time_control"]),
            rated=summary["rated"],
            created_at=datetime.fromisoformat(summary["created_at"]),
            version=summary["version"],
            seats=[Seat.of(s) for s in seats],
        )


@strawberry.type
class MatchEdge:
    cursor: str
    node: MatchSummary


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None = strawberry.field(description="Pass as `after` for the next page.")


@strawberry.type(description="A page of matches, newest first.")
class MatchConnection:
    edges: list[MatchEdge]
    page_info: PageInfo


@strawberry.type(description="A seat of the caller that must act (REST `GET /api/me/turns/`).")
class Turn:
    match_id: strawberry.ID
    game: Game
    seat: int
    deadline: datetime | None
    version: int

    @classmethod
    def of(cls, entry: dict[str, Any]) -> Turn:
        return cls(
            match_id=strawberry.ID(entry["match"]),
            game=Game(entry["game"]),
            seat=entry["seat"],
            deadline=_when(entry["deadline"]),
            version=entry["version"],
        )


@strawberry.type(description="The caller's events after a sequence number, read in one snapshot.")
class EventsPage:
    events: list[MatchEvent]
    last_seq: int
    more: bool = strawberry.field(
        description="The page was cut short: ask again after the last event's `seq`."
    )
    version: int
    status: MatchStatus

    @classmethod
    def of(cls, page: dict[str, Any]) -> EventsPage:
        return cls(
            events=[MatchEvent.of(e) for e in page["events"]],
            last_seq=page["last_seq"],
            more=page["more"],
            version=page["version"],
            status=MatchStatus(page["status"]),
        )
