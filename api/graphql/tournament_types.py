"""Fibber's Dice tournaments in GraphQL (docs/tournaments.md): types over the readers' dicts, inputs
checked by the one declaration both faces use (:mod:`api.play.tournaments`), the same
services."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry

from api.play.fields import validate
from api.play.tournaments import TournamentCreateIn
from tournaments import reads as sel

from .types import PlayerRef, TimeControl, Visibility, _value


@strawberry.enum(description="Where a tournament stands.")
class TournamentStatus(Enum):
    OPEN = _value("open")
    RUNNING = _value("running")
    FINISHED = _value("finished")


@strawberry.enum(description="`standard`: 4 qualifying rounds and a final; `short`: 3.")
class TournamentFormat(Enum):
    STANDARD = _value("standard")
    SHORT = _value("short")


@strawberry.type(description="A player's place in a round.")
class RoundPlacement:
    player: int
    place: int


@strawberry.type(description="A round: an ordinary match (none when skipped).")
class TournamentRound:
    number: int
    final: bool
    status: str = strawberry.field(description="`running`, `over` or `skipped`.")
    match: strawberry.ID | None
    players: list[int]
    placements: list[RoundPlacement] | None
    qualified: list[int]

    @classmethod
    def of(cls, d: dict[str, Any]) -> TournamentRound:
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
class TournamentStanding:
    player: PlayerRef
    late: bool
    qualified_in_round: int | None
    final_place: int | None


@strawberry.type(description="The door-prize draw (REST `GET /api/tournaments/{id}/raffle/`).")
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


@strawberry.type(
    name="Tournament",
    description="A tournament: settings, standings, rounds and prizes (REST's detail).",
)
class TournamentType:
    id: strawberry.ID
    name: str
    game: str
    host: PlayerRef
    status: TournamentStatus
    visibility: Visibility
    starts_at: datetime | None
    format: TournamentFormat
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
    standings: list[TournamentStanding] | None
    rounds: list[TournamentRound] | None
    prize_picks: list[int] | None
    raffle: Raffle | None

    @classmethod
    def of(cls, d: dict[str, Any], summary: bool = False) -> TournamentType:
        def when(value: str | None) -> datetime | None:
            return None if value is None else datetime.fromisoformat(value)

        base: dict[str, Any] = {
            "id": d["id"],
            "name": d["name"],
            "game": d["game"],
            "host": PlayerRef(**d["host"]),
            "status": TournamentStatus(d["status"]),
            "visibility": Visibility(d["visibility"]),
            "starts_at": when(d["starts_at"]),
            "format": TournamentFormat(d["format"]),
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
                TournamentStanding(
                    player=PlayerRef(**s["player"]),
                    late=s["late"],
                    qualified_in_round=s["qualified_in_round"],
                    final_place=s["final_place"],
                )
                for s in d["standings"]
            ],
            rounds=[TournamentRound.of(r) for r in d["rounds"]],
            prize_picks=d["prize_picks"],
            raffle=Raffle.of(d["raffle"]),
        )


@strawberry.type(description="Your match in the tournament now, or why there is none.")
class TournamentMyMatch:
    registered: bool
    round: int | None
    match: strawberry.ID | None
    seat: int | None
    reason: str


@strawberry.input(description="A new tournament (REST `POST /api/tournaments/`).")
class CreateTournamentInput:
    name: str
    visibility: Visibility | None = None
    starts_at: datetime | None = None
    time_control: TimeControl | None = None
    decision_seconds: int | None = None
    points: int | None = None
    format: TournamentFormat | None = None
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
        return validate(TournamentCreateIn, {k: v for k, v in data.items() if v is not None})


def detail(tournament_id: Any, user: Any) -> TournamentType:
    tournament = sel.read_tournament(tournament_id, user=user)
    return TournamentType.of(sel.render_tournament(tournament, user))


def listed(status: TournamentStatus | None, first: int) -> list[TournamentType]:
    qs = sel.listed_tournaments(status=status.value if status else None)[:first]
    return [TournamentType.of(sel.render_tournament_summary(e), summary=True) for e in qs]


def my_match(tournament_id: Any, user: Any) -> TournamentMyMatch:
    return TournamentMyMatch(
        **sel.read_my_match(sel.read_tournament(tournament_id, user=user), user)
    )
