"""Read paths for ratings, leaderboards and player statistics: plain dicts, for REST and GraphQL.

Everything here reads the careers the end-of-match work maintains (``Career``, ``RatingPoint``),
never the matches, so a statistic of an unfinished match cannot show, and every page costs a
fixed number of queries whatever the size of the history:

- a leaderboard page: the count, the page over the board's own index and its players' names
  (two more with ``around=me``: the caller's row and the count of those ahead of it);
- a player's statistics: the player, their careers, their latest rating points (one query for
  every game, ranked per game in the database).

Each reader runs in one snapshot (``games.reads.store.snapshot``), so a page never mixes two
moments.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import F, Prefetch, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from accounts.models import User
from kernel.errors import Invalid, NotFound

from .. import boards
from ..engine import registry
from ..models import Career, RatingPoint
from .store import snapshot

#: Each board's order, best first: its value, then a tie-break, then the older account. The
#: board indexes (``Career.Meta.indexes``) are in exactly these orders.
BOARD_ORDER: dict[str, tuple[str, ...]] = {
    "rating": ("-board_rating", "-rated_matches", "user_id"),
    "wins": ("-board_wins", "matches", "user_id"),
    "bluffer": ("-board_bluffer", "-matches", "user_id"),
    "detective": ("-board_detective", "-matches", "user_id"),
    "boldest": ("-board_boldest", "-matches", "user_id"),
}
#: Rating points a player's statistics carry per game (the latest ones).
HISTORY_POINTS = 100
PAGE_DEFAULT, PAGE_MAX = 50, 100


def check_game(game: str) -> None:
    if game not in registry.game_ids():
        raise NotFound(f"No such game {game!r}; the games are {', '.join(registry.game_ids())}.")


def check_board(game: str, board: str) -> None:
    """A known game and one of its boards: 400 for a board that does not exist at all, 404 for
    one this game does not have."""
    check_game(game)
    if board not in boards.BOARDS:
        raise Invalid(
            f"Unknown board {board!r}; the boards are {', '.join(boards.BOARD_IDS)}.",
            field="board",
        )
    offered = boards.boards_of(game)
    if board not in offered:
        name = registry.get(game).name
        raise NotFound(
            f"{name} has no {board!r} board: its statistics cannot express "
            f"{boards.BOARDS[board].description!r}. Its boards: {', '.join(offered)}."
        )


def _ahead(board: str, career: Career) -> Q:
    """Careers ranked before ``career`` on ``board`` (the board order, spelled out)."""
    condition = Q()
    equal = Q()
    for term in BOARD_ORDER[board]:
        name = term.lstrip("-")
        value = getattr(career, name)
        beats = Q(**{f"{name}__gt" if term.startswith("-") else f"{name}__lt": value})
        condition |= equal & beats
        equal &= Q(**{name: value})
    first = BOARD_ORDER[board][0].lstrip("-")
    # The first term again as a range, so the database starts the index scan there.
    return Q(**{f"{first}__gte": getattr(career, first)}) & condition


def leaderboard(
    *,
    game: str,
    board: str,
    limit: int = PAGE_DEFAULT,
    offset: int = 0,
    around: int | None = None,
    active_days: int | None = None,
) -> dict[str, Any]:
    """One page of a board, best first. ``around``: the page centred on that player, a user
    id (not on the board: not found). ``active_days``: only players whose latest match ended
    within that many days. Ranks follow the board order (ties as :data:`BOARD_ORDER` says)."""
    check_board(game, board)
    thresholds = boards.Thresholds.current()
    on_board = Career.objects.filter(game=game, **{f"board_{board}__isnull": False})
    if active_days is not None:
        on_board = on_board.filter(last_played_at__gte=timezone.now() - timedelta(days=active_days))
    me = None
    with snapshot():
        if around is not None:
            mine = on_board.filter(user_id=around).select_related("user").first()
            if mine is None:
                raise NotFound(
                    "You are not on this board yet"
                    + (f" (or not active within {active_days} days)" if active_days else "")
                    + f": {_who_is_on(board, thresholds)}."
                )
            rank = on_board.filter(_ahead(board, mine)).count() + 1
            me = _entry(mine, board, rank, thresholds)
            offset = max(0, rank - 1 - limit // 2)
        count = on_board.count()
        page = list(_with_user(on_board).order_by(*BOARD_ORDER[board])[offset : offset + limit])
    info = boards.BOARDS[board]
    return {
        "game": game,
        "board": board,
        "title": info.title,
        "description": info.description,
        "eligibility": _who_is_on(board, thresholds),
        "active_days": active_days,
        "count": count,
        "offset": offset,
        "limit": limit,
        "next_offset": offset + limit if offset + limit < count else None,
        "previous_offset": max(0, offset - limit) if offset > 0 else None,
        "results": [
            _entry(career, board, offset + n + 1, thresholds) for n, career in enumerate(page)
        ],
        "me": me,
    }


def _who_is_on(board: str, thresholds: boards.Thresholds) -> str:
    if board == "rating":
        return f"players with at least {thresholds.provisional} rated matches"
    if board == "wins":
        return f"players with at least {thresholds.min_matches} matches"
    return (
        f"players with at least {thresholds.min_matches} matches and "
        f"{thresholds.min_attempts} attempts (the denominator)"
    )


def _with_user(careers: QuerySet[Career]) -> QuerySet[Career]:
    """The careers with their players' names, fetched in a second query for the page's rows
    only: joined, a deep page would look up the player of every row it skips."""
    return careers.prefetch_related(Prefetch("user", queryset=User.objects.only(*_USER)))


_USER = ("id", "username", "display_name")


def _player(user: User) -> dict[str, Any]:
    return {"id": user.pk, "name": user.public_name}


def _entry(career: Career, board: str, rank: int, thresholds: boards.Thresholds) -> dict[str, Any]:
    value = getattr(career, f"board_{board}")
    parts = boards.ratio_parts(career.game, board, career.stats)
    return {
        "rank": rank,
        "player": _player(career.user),
        "value": int(value) if board == "wins" else value,
        "matches": career.matches,
        "wins": career.wins,
        "rating": career.rating,
        "rated_matches": career.rated_matches,
        "provisional": career.rated_matches < thresholds.provisional,
        "numerator": parts[0] if parts else None,
        "denominator": parts[1] if parts else None,
    }


def _player_get(player_id: Any) -> User:
    """A player by id; anything that is not one is simply not found."""
    text = str(player_id)
    user = None
    if text.isascii() and text.isdigit() and len(text) < 19:
        user = User.objects.filter(pk=int(text), is_active=True).only(*_USER).first()
    if user is None:
        raise NotFound("No such player.")
    return user


def player_profile(player_id: Any) -> dict[str, Any]:
    """A player's public profile: their name and a summary of every game they have played."""
    thresholds = boards.Thresholds.current()
    with snapshot():
        user = _player_get(player_id)
        careers = list(Career.objects.filter(user=user).order_by("game"))
    return {
        "player": _player(user),
        "games": [
            {
                "game": c.game,
                "matches": c.matches,
                "wins": c.wins,
                "rating": c.rating,
                "rated_matches": c.rated_matches,
                "provisional": c.rated_matches < thresholds.provisional,
                "last_played_at": c.last_played_at,
            }
            for c in careers
        ],
    }


def player_stats(player_id: Any, *, game: str) -> dict[str, Any]:
    """A player's statistics in one game (zeros if they have not played it)."""
    check_game(game)
    with snapshot():
        user = _player_get(player_id)
        return _stats(user, [game])[0]


def my_stats(user: User, *, game: str | None = None) -> dict[str, Any]:
    """The caller's statistics in every game they have played (or in ``game``)."""
    if game is not None:
        check_game(game)
    with snapshot():
        return {"player": _player(user), "games": _stats(user, [game] if game else None)}


def _stats(user: User, games: list[str] | None) -> list[dict[str, Any]]:
    careers = Career.objects.filter(user=user)
    points = RatingPoint.objects.filter(user=user)
    if games is not None:
        careers, points = careers.filter(game__in=games), points.filter(game__in=games)
    found = {c.game: c for c in careers}
    if games is not None:
        for game in games:  # a game not played yet: all zeros
            found.setdefault(game, Career(user=user, game=game))
    latest = (
        points.annotate(
            n=Window(RowNumber(), partition_by=[F("game")], order_by=F("record_id").desc())
        )
        .filter(n__lte=HISTORY_POINTS)
        .order_by("game", "record_id")
        .values("game", "match_id", "played_at", "rating", "mu", "sigma", "place")
    )
    history: dict[str, list[dict[str, Any]]] = {}
    for point in latest:
        game = point.pop("game")
        history.setdefault(game, []).append({"match": str(point.pop("match_id")), **point})
    thresholds = boards.Thresholds.current()
    return [
        _career_stats(user, found[game], history.get(game, []), thresholds)
        for game in sorted(found)
    ]


def _career_stats(
    user: User, career: Career, history: list[dict[str, Any]], thresholds: boards.Thresholds
) -> dict[str, Any]:
    game = career.game
    board_values = []
    for board in boards.boards_of(game):
        parts = boards.ratio_parts(game, board, career.stats)
        value = getattr(career, f"board_{board}")
        board_values.append(
            {
                "board": board,
                "value": int(value) if board == "wins" and value is not None else value,
                "numerator": parts[0] if parts else None,
                "denominator": parts[1] if parts else None,
            }
        )
    return {
        "player": _player(user),
        "game": game,
        "matches": career.matches,
        "wins": career.wins,
        "assisted": career.assisted,
        "assisted_wins": career.assisted_wins,
        "average_place": career.place_sum / career.matches if career.matches else None,
        "places": {k: career.places[k] for k in sorted(career.places, key=int)},
        "rating": {
            "rating": career.rating,
            "mu": career.mu,
            "sigma": career.sigma,
            "rated_matches": career.rated_matches,
            "provisional": career.rated_matches < thresholds.provisional,
        },
        "history": history,
        "stats": career.stats,
        "bot_stats": career.bot_stats,
        "boards": board_values,
        "last_played_at": career.last_played_at,
    }
