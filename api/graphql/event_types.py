"""Fibber's Dice events in GraphQL (docs/events.md): types over the readers' dicts, inputs
checked by the one declaration both faces use (:mod:`api.play.tournaments`), the same
services."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry

from api.play.fields import validate
from api.play.tournaments import EventCreateIn
from games import event_selectors as sel

from .types import PlayerRef, TimeControl, Visibility, _value


@strawberry.enum(description="Where an event stands.")
class EventStatus(Enum):
    OPEN = _value("open")
    RUNNING = _value("running")
    FINISHED = _value("finished")


@strawberry.enum(description="`standard`: 4 qualifying rounds and a final; `short`: 3.")
class EventFormat(Enum):
    STANDARD = _value("standard")
    SHORT = _value("short")


@strawberry.type(description="A player's place in a round.")
class RoundPlacement:
    player: int
    place: int


@strawberry.type(description="A round: an ordinary match (none when skipped).")
class EventRound:
    number: int
    final: bool
    status: str = strawberry.field(description="`running`, `over` or `skipped`.")
    match: strawberry.ID | None
    players: list[int]
    placements: list[RoundPlacement] | None
    qualified: list[int]

    @classmethod
    def of(cls, d: dict[str, Any]) -> EventRound:
        places = d["placements"]
        return cls(
            number=d["number"],
            final=d["final"],
            status=d["status"],
            match=d["match"],
            players=d["players"],
            placements=None if places is None else [RoundPlacement(**p) for p in places],
            qualified=d["qualified"],
        )


@strawberry.type(description="An entrant and their standing.")
class EventStanding:
    player: PlayerRef
    late: bool
    qualified_in_round: int | None
    final_place: int | None


@strawberry.type(description="The door-prize draw (REST `GET /api/events/{id}/raffle/`).")
class Raffle:
    door_prizes: int
    commitment: str
    drawn: bool
    seed: str | None
    entrants: list[int] | None
    winners: list[int] | None
    algorithm: str

    @classmethod
    def of(cls, d: dict[str, Any]) -> Raffle:
        return cls(**d)


@strawberry.type(description="An event: settings, standings, rounds and prizes (REST's detail).")
class DiceEvent:
    id: strawberry.ID
    name: str
    game: str
    host: PlayerRef
    status: EventStatus
    visibility: Visibility
    starts_at: datetime | None
    format: EventFormat
    single_round: bool | None
    entrants: int
    created_at: datetime
    time_control: TimeControl | None
    decision_seconds: int | None
    points: int | None
    auto_advance: bool | None
    started_at: datetime | None
    finished_at: datetime | None
    version: int | None
    registration_open: bool | None
    registered: bool | None
    standings: list[EventStanding] | None
    rounds: list[EventRound] | None
    prize_picks: list[int] | None
    raffle: Raffle | None

    @classmethod
    def of(cls, d: dict[str, Any], summary: bool = False) -> DiceEvent:
        def when(value: str | None) -> datetime | None:
            return None if value is None else datetime.fromisoformat(value)

        base: dict[str, Any] = {
            "id": d["id"],
            "name": d["name"],
            "game": d["game"],
            "host": PlayerRef(**d["host"]),
            "status": EventStatus(d["status"]),
            "visibility": Visibility(d["visibility"]),
            "starts_at": when(d["starts_at"]),
            "format": EventFormat(d["format"]),
            "single_round": d["single_round"],
            "entrants": d["entrants"],
            "created_at": when(d["created_at"]),
        }
        if summary:
            empty: dict[str, Any] = dict.fromkeys(
                [
                    "time_control",
                    "decision_seconds",
                    "points",
                    "auto_advance",
                    "started_at",
                    "finished_at",
                    "version",
                    "registration_open",
                    "registered",
                    "standings",
                    "rounds",
                    "prize_picks",
                    "raffle",
                ]
            )
            return cls(**base, **empty)
        return cls(
            **base,
            time_control=TimeControl(d["time_control"]),
            decision_seconds=d["decision_seconds"],
            points=d["points"],
            auto_advance=d["auto_advance"],
            started_at=when(d["started_at"]),
            finished_at=when(d["finished_at"]),
            version=d["version"],
            registration_open=d["registration_open"],
            registered=d["registered"],
            standings=[
                EventStanding(
                    player=PlayerRef(**s["player"]),
                    late=s["late"],
                    qualified_in_round=s["qualified_in_round"],
                    final_place=s["final_place"],
                )
                for s in d["standings"]
            ],
            rounds=[EventRound.of(r) for r in d["rounds"]],
            prize_picks=d["prize_picks"],
            raffle=Raffle.of(d["raffle"]),
        )


@strawberry.type(description="Your match in the event now, or why there is none.")
class EventMyMatch:
    registered: bool
    round: int | None
    match: strawberry.ID | None
    seat: int | None
    reason: str


@strawberry.input(description="A new event (REST `POST /api/events/`).")
class CreateEventInput:
    name: str
    visibility: Visibility | None = None
    starts_at: datetime | None = None
    time_control: TimeControl | None = None
    decision_seconds: int | None = None
    points: int | None = None
    format: EventFormat | None = None
    auto_advance: bool | None = None
    door_prizes: int | None = None

    def validated(self) -> dict[str, Any]:
        data = {
            "name": self.name,
            "visibility": self.visibility.value if self.visibility else None,
            "starts_at": self.starts_at.isoformat() if self.starts_at else None,
            "time_control": self.time_control.value if self.time_control else None,
            "decision_seconds": self.decision_seconds,
            "points": self.points,
            "format": self.format.value if self.format else None,
            "auto_advance": self.auto_advance,
            "door_prizes": self.door_prizes,
        }
        return validate(EventCreateIn, {k: v for k, v in data.items() if v is not None})


def detail(event_id: Any, user: Any) -> DiceEvent:
    event = sel.event_get(event_id, user=user)
    return DiceEvent.of(sel.event_detail(event, user))


def listed(status: EventStatus | None, first: int) -> list[DiceEvent]:
    qs = sel.events_listed(status=status.value if status else None)[:first]
    return [DiceEvent.of(sel.event_summary(e), summary=True) for e in qs]


def my_match(event_id: Any, user: Any) -> EventMyMatch:
    return EventMyMatch(**sel.my_next_match(sel.event_get(event_id, user=user), user))
