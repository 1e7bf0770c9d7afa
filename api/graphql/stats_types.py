"""GraphQL types of ratings, leaderboards and player statistics, built from the very dicts the
REST views render (``games.reads.leaderboards``): the same facts in both APIs. Statistics whose keys
depend on the game are ``JSON`` scalars, as in REST."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from games import boards
from games.reads import leaderboards

from .types import Game, PageInfo, PlayerRef, _value


@strawberry.enum(description="A leaderboard (what each divides in each game: docs/ratings.md).")
class Board(Enum):
    RATING = _value("rating")
    WINS = _value("wins")
    BLUFFER = _value("bluffer")
    DETECTIVE = _value("detective")
    BOLDEST = _value("boldest")


assert [b.value for b in Board] == list(boards.BOARD_IDS), "Board follows games.boards"


def _ref(player: dict[str, Any]) -> PlayerRef:
    return PlayerRef(id=player["id"], name=player["name"])


@strawberry.type(description="A player's place on a board.")
class LeaderboardEntry:
    rank: int = strawberry.field(description="1 = best; unique (ties broken by the board order).")
    player: PlayerRef
    value: float = strawberry.field(description="The player's value on this board.")
    matches: int
    wins: int
    rating: float = strawberry.field(description="The display rating, mu - 3 sigma.")
    rated_matches: int
    provisional: bool
    numerator: int | None = strawberry.field(description="Bluff boards: the statistic divided.")
    denominator: int | None = strawberry.field(description="Bluff boards: what it is divided by.")

    @classmethod
    def of(cls, entry: dict[str, Any]) -> LeaderboardEntry:
        return cls(
            rank=entry["rank"],
            player=_ref(entry["player"]),
            value=entry["value"],
            matches=entry["matches"],
            wins=entry["wins"],
            rating=entry["rating"],
            rated_matches=entry["rated_matches"],
            provisional=entry["provisional"],
            numerator=entry["numerator"],
            denominator=entry["denominator"],
        )


@strawberry.type(description="A page of a leaderboard, best first (REST `GET /api/leaderboards/`).")
class Leaderboard:
    game: Game
    board: Board
    title: str
    description: str
    eligibility: str = strawberry.field(description="Who is on this board.")
    active_days: int | None
    count: int = strawberry.field(description="Players on the board (with the active filter).")
    entries: list[LeaderboardEntry]
    page_info: PageInfo
    me: LeaderboardEntry | None = strawberry.field(
        description="With `aroundMe: true`: the caller's own entry and rank."
    )

    @classmethod
    def of(cls, body: dict[str, Any]) -> Leaderboard:
        following = body["next_offset"]
        return cls(
            game=Game(body["game"]),
            board=Board(body["board"]),
            title=body["title"],
            description=body["description"],
            eligibility=body["eligibility"],
            active_days=body["active_days"],
            count=body["count"],
            entries=[LeaderboardEntry.of(e) for e in body["results"]],
            page_info=PageInfo(
                has_next_page=following is not None,
                end_cursor=None if following is None else offset_cursor(following),
            ),
            me=None if body["me"] is None else LeaderboardEntry.of(body["me"]),
        )


def offset_cursor(offset: int) -> str:
    """An opaque cursor for a board position (the REST API pages by ``offset``)."""
    return f"offset:{offset}"


@strawberry.type(description="A rating: what boards show, and the model's numbers.")
class Rating:
    rating: float = strawberry.field(description="mu - 3 sigma: what boards show (starts at 0).")
    mu: float
    sigma: float
    rated_matches: int
    provisional: bool = strawberry.field(description="Too few rated matches to be on the board.")


@strawberry.type(description="The rating after one rated match.")
class RatingPoint:
    match_id: strawberry.ID
    played_at: datetime
    rating: float
    mu: float
    sigma: float
    place: int


@strawberry.type(description="A player's value on one board.")
class BoardValue:
    board: Board
    value: float | None = strawberry.field(description="Null: not on this board yet.")
    numerator: int | None
    denominator: int | None


@strawberry.type(description="A player's statistics in one game (finished matches only).")
class PlayerGameStats:
    player: PlayerRef
    game: Game
    matches: int
    wins: int
    assisted: int = strawberry.field(description="Matches in which bots took most decisions.")
    assisted_wins: int
    average_place: float | None
    places: JSON = strawberry.field(description='How often each place was taken: {"1": 4}.')
    rating: Rating
    history: list[RatingPoint] = strawberry.field(
        description="The latest rating points, one per rated match, oldest first."
    )
    stats: JSON = strawberry.field(
        description="Bluff statistics of the player's own decisions, summed."
    )
    bot_stats: JSON = strawberry.field(
        description="Statistics of the decisions bots took for the player, summed apart."
    )
    boards: list[BoardValue]
    last_played_at: datetime | None

    @classmethod
    def of(cls, body: dict[str, Any]) -> PlayerGameStats:
        return cls(
            player=_ref(body["player"]),
            game=Game(body["game"]),
            matches=body["matches"],
            wins=body["wins"],
            assisted=body["assisted"],
            assisted_wins=body["assisted_wins"],
            average_place=body["average_place"],
            places=body["places"],
            rating=Rating(**body["rating"]),
            history=[
                RatingPoint(
                    match_id=strawberry.ID(point["match"]),
                    played_at=point["played_at"],
                    rating=point["rating"],
                    mu=point["mu"],
                    sigma=point["sigma"],
                    place=point["place"],
                )
                for point in body["history"]
            ],
            stats=body["stats"],
            bot_stats=body["bot_stats"],
            boards=[
                BoardValue(
                    board=Board(b["board"]),
                    value=b["value"],
                    numerator=b["numerator"],
                    denominator=b["denominator"],
                )
                for b in body["boards"]
            ],
            last_played_at=body["last_played_at"],
        )


@strawberry.type(description="A summary of one game a player has played.")
class PlayerGameSummary:
    game: Game
    matches: int
    wins: int
    rating: float
    rated_matches: int
    provisional: bool
    last_played_at: datetime | None


@strawberry.type(description="A player's public profile (REST `GET /api/players/{id}/`).")
class Player:
    id: int
    name: str
    games: list[PlayerGameSummary]

    @strawberry.field(
        description="The player's statistics in one game (REST `GET /api/players/{id}/stats/`)."
    )
    def stats(self, info: Info, game: Game) -> PlayerGameStats:
        return PlayerGameStats.of(leaderboards.player_stats(self.id, game=game.value))

    @classmethod
    def of(cls, body: dict[str, Any]) -> Player:
        return cls(
            id=body["player"]["id"],
            name=body["player"]["name"],
            games=[
                PlayerGameSummary(
                    game=Game(g["game"]),
                    matches=g["matches"],
                    wins=g["wins"],
                    rating=g["rating"],
                    rated_matches=g["rated_matches"],
                    provisional=g["provisional"],
                    last_played_at=g["last_played_at"],
                )
                for g in body["games"]
            ],
        )
