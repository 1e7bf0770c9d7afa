"""GraphQL types of what a finished match reveals: its replay, the replay re-run step by step,
and its bluff statistics — each the same dictionary REST renders (``games.reads.replays``)."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from .types import Game, LegalAction, Seat


@strawberry.type(
    description="The complete record of a finished match, hidden information included "
    "(docs/replay.md)."
)
class Replay:
    format: str
    game: Game
    seats: int
    options: JSON
    seed: str
    seed_commitment: str
    record: JSON = strawberry.field(
        description="The whole record exactly as REST's replay (what `manage.py replay` reads)."
    )

    @classmethod
    def of(cls, record: dict[str, Any]) -> Replay:
        return cls(
            format=record["format"],
            game=Game(record["game"]),
            seats=record["seats"],
            options=record["options"],
            seed=record["seed"],
            seed_commitment=record["seed_commitment"],
            record=JSON(record),
        )


@strawberry.type(
    description="A finished match after step `n` of its record, re-run by the engine from the "
    "revealed seed and checked against the record (REST "
    "`GET /api/matches/{id}/replay/steps/{n}/`, docs/replay.md)."
)
class ReplayStep:
    match: strawberry.ID
    game: Game
    n: int = strawberry.field(description="The step shown: 0 is the set-up.")
    last: int = strawberry.field(description="The record's number of steps: `n` runs to it.")
    matched: bool = strawberry.field(
        description="The re-run gave exactly the recorded chance outcomes and events for the "
        "set-up and every step up to `n` (and, at the last step, the recorded result)."
    )
    differences: list[str] = strawberry.field(
        description="How the re-run differed from the record up to `n` (empty when matched)."
    )
    step: JSON = strawberry.field(
        description="Step `n` as REST's `step`: its seat, action and `by_bot` as recorded, the "
        "chance outcomes and events (every private part) of the re-run."
    )
    view: JSON = strawberry.field(
        description="The spectator's engine view after step `n`, exactly as REST's `view`."
    )
    private: JSON = strawberry.field(
        description="Every seat's private view after step `n`, by seat number (REST's `private`)."
    )
    legal_actions: list[list[LegalAction]] = strawberry.field(
        description="Every seat's legal actions after step `n`, by seat number."
    )

    public: JSON = strawberry.field(description="The public part of `view`.")
    to_act: list[int] = strawberry.field(
        description="The seats that had to act after step `n` (`view.to_act`)."
    )

    @classmethod
    def of(cls, body: dict[str, Any]) -> ReplayStep:
        return cls(
            match=strawberry.ID(body["match"]),
            game=Game(body["game"]),
            n=body["n"],
            last=body["last"],
            matched=body["matched"],
            differences=body["differences"],
            step=JSON(body["step"]),
            view=JSON(body["view"]),
            private=JSON(body["private"]),
            public=JSON(body["view"]["public"]),
            to_act=list(body["view"]["to_act"]),
            legal_actions=[[LegalAction.of(e) for e in seat] for seat in body["legal_actions"]],
        )


@strawberry.type(description="A seat's bluff statistics in a finished match.")
class SeatStats:
    seat: Seat
    stats: JSON = strawberry.field(description="The game's statistics of the seat's own decisions.")
    bot_stats: JSON = strawberry.field(
        description="Decisions a bot took for the seat after its deadlines passed, counted apart."
    )


@strawberry.type(description="Bluff statistics, revealed once the match has finished.")
class MatchStats:
    match_id: strawberry.ID
    game: Game
    placements: list[int] | None
    seats: list[SeatStats]

    @classmethod
    def of(cls, body: dict[str, Any]) -> MatchStats:
        return cls(
            match_id=strawberry.ID(body["match"]),
            game=Game(body["game"]),
            placements=body["placements"],
            seats=[
                SeatStats(seat=Seat.of(s), stats=s["stats"], bot_stats=s["bot_stats"])
                for s in body["seats"]
            ],
        )
