"""Leaderboards and player statistics through GraphQL: the same selectors as REST, so the same
facts (compared field by field with REST's JSON), REST's refusals, and a fixed number of
queries however long the board or the history."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.services import guest_create
from games.boards import Thresholds
from games.models import Career, RatingPoint, RecordedMatch
from games.services.tally import set_boards
from tests.services.finished import finished_match

from .helpers import GqlPlayer, post

pytestmark = pytest.mark.django_db

ENTRY = (
    "rank player { id name } value matches wins rating ratedMatches provisional "
    "numerator denominator"
)
BOARD = (
    "query Board($game: Game!, $board: Board!, $first: Int!, $after: String, $me: Boolean!, "
    "$days: Int) { leaderboard(game: $game, board: $board, first: $first, after: $after, "
    f"aroundMe: $me, activeDays: $days) {{ game board title description eligibility activeDays "
    f"count entries {{ {ENTRY} }} pageInfo {{ hasNextPage endCursor }} me {{ {ENTRY} }} }} }}"
)
GAME_STATS = (
    "player { id name } game matches wins assisted assistedWins averagePlace places "
    "rating { rating mu sigma ratedMatches provisional } "
    "history { matchId playedAt rating mu sigma place } stats botStats "
    "boards { board value numerator denominator } lastPlayedAt"
)
PLAYER = (
    "query Player($id: ID!, $game: Game!) { player(id: $id) { id name games { game matches "
    "wins rating ratedMatches provisional lastPlayedAt } stats(game: $game) { "
    + GAME_STATS
    + " } } }"
)
MY_STATS = "query Mine($game: Game) { myStats(game: $game) { " + GAME_STATS + " } }"


def put(user, game: str = "fabfib", **fields) -> Career:
    fields.setdefault("last_played_at", timezone.now())
    career = Career(user=user, game=game, **fields)
    set_boards(career, Thresholds.current())
    career.save()
    return career


def entry_as_rest(entry: dict) -> dict:
    return {
        "rank": entry["rank"],
        "player": entry["player"],
        "value": entry["value"],
        "matches": entry["matches"],
        "wins": entry["wins"],
        "rating": entry["rating"],
        "rated_matches": entry["ratedMatches"],
        "provisional": entry["provisional"],
        "numerator": entry["numerator"],
        "denominator": entry["denominator"],
    }


def stats_as_rest(body: dict) -> dict:
    rating = body["rating"]
    return {
        "player": body["player"],
        "game": body["game"],
        "matches": body["matches"],
        "wins": body["wins"],
        "assisted": body["assisted"],
        "assisted_wins": body["assistedWins"],
        "average_place": body["averagePlace"],
        "places": body["places"],
        "rating": {
            "rating": rating["rating"],
            "mu": rating["mu"],
            "sigma": rating["sigma"],
            "rated_matches": rating["ratedMatches"],
            "provisional": rating["provisional"],
        },
        "history": [
            {
                "match": p["matchId"],
                "played_at": p["playedAt"],
                "rating": p["rating"],
                "mu": p["mu"],
                "sigma": p["sigma"],
                "place": p["place"],
            }
            for p in body["history"]
        ],
        "stats": body["stats"],
        "bot_stats": body["botStats"],
        "boards": body["boards"],
        "last_played_at": body["lastPlayedAt"],
    }


def same_times(value):
    """REST's serializers write UTC as ``Z``, GraphQL's DateTime as ``+00:00``: the same time."""
    if isinstance(value, dict):
        return {k: same_times(v) for k, v in value.items()}
    if isinstance(value, list):
        return [same_times(v) for v in value]
    if isinstance(value, str) and value.endswith("Z") and "T" in value:
        return value[:-1] + "+00:00"
    return value


def rest_json(path: str, token: str | None = None) -> dict:
    client = APIClient()
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.get(path)
    assert response.status_code == 200, response.content
    return same_times(response.json())


def rated_history(user, other, game: str, size: int) -> None:
    for n in range(size):
        match = finished_match(game, [user, other], [1 + n % 2, 2 - n % 2])
        record = RecordedMatch.objects.create(match=match, game=game, rated=True)
        RatingPoint.objects.create(
            user=user,
            game=game,
            match=match,
            record=record,
            mu=25 + n,
            sigma=8,
            rating=1 + n,
            place=1 + n % 2,
            played_at=timezone.now(),
        )
    put(user, game, matches=size, wins=size // 2, rated_matches=size, rating=float(size))


def test_every_leaderboard_page_equals_rest_and_the_cursor_walks_the_whole_board():
    players = [guest_create()[0] for _ in range(23)]
    for user in players:
        put(
            user,
            matches=random.randint(10, 30),
            wins=random.randint(0, 20),
            rated_matches=random.randint(10, 30),
            rating=round(random.uniform(-5, 30), 3),
            stats={"bluffs": random.randint(10, 30), "bluffs_passed": random.randint(0, 10)},
        )
    viewer = GqlPlayer()
    for board in ("rating", "wins", "bluffer"):
        seen, after = [], None
        while True:
            page = viewer.data(
                BOARD, game="fabfib", board=board, first=10, after=after, me=False, days=None
            )["leaderboard"]
            offset = 0 if after is None else int(after.split(":")[1])
            rest = rest_json(f"/api/leaderboards/fabfib/?board={board}&limit=10&offset={offset}")
            assert [entry_as_rest(e) for e in page["entries"]] == rest["results"]
            assert (page["count"], page["title"], page["eligibility"]) == (
                rest["count"],
                rest["title"],
                rest["eligibility"],
            )
            assert page["pageInfo"]["hasNextPage"] == (rest["next"] is not None)
            seen += [e["rank"] for e in page["entries"]]
            if not page["pageInfo"]["hasNextPage"]:
                break
            after = page["pageInfo"]["endCursor"]
        assert seen == list(range(1, rest["count"] + 1))


def test_around_me_is_the_callers_page_and_needs_a_token():
    me = GqlPlayer()
    put(me.user, matches=12, wins=5)
    for _ in range(30):
        put(guest_create()[0], matches=12, wins=random.randint(0, 10))
    page = me.data(BOARD, game="fabfib", board="wins", first=10, after=None, me=True, days=None)
    rest = rest_json("/api/leaderboards/fabfib/?board=wins&limit=10&around=me", me.token)
    assert entry_as_rest(page["leaderboard"]["me"]) == rest["me"]
    assert [entry_as_rest(e) for e in page["leaderboard"]["entries"]] == rest["results"]
    anonymous = GqlPlayer(anonymous=True)
    error = anonymous.error(
        BOARD, game="fabfib", board="wins", first=10, after=None, me=True, days=None
    )
    assert error["extensions"]["code"] == "not_authenticated"


def test_a_players_profile_and_statistics_equal_rest():
    a, b = GqlPlayer(), guest_create()[0]
    rated_history(a.user, b, "fibbers_dice", 5)
    body = GqlPlayer(anonymous=True).data(PLAYER, id=str(a.user.pk), game="fibbers_dice")
    player = body["player"]
    profile = rest_json(f"/api/players/{a.user.pk}/")
    assert {"id": player["id"], "name": player["name"]} == profile["player"]
    assert [
        {
            "game": g["game"],
            "matches": g["matches"],
            "wins": g["wins"],
            "rating": g["rating"],
            "rated_matches": g["ratedMatches"],
            "provisional": g["provisional"],
            "last_played_at": g["lastPlayedAt"],
        }
        for g in player["games"]
    ] == profile["games"]
    rest = rest_json(f"/api/players/{a.user.pk}/stats/?game=fibbers_dice")
    assert stats_as_rest(player["stats"]) == rest
    mine = a.data(MY_STATS, game=None)["myStats"]
    assert [stats_as_rest(g) for g in mine] == rest_json("/api/me/stats/", a.token)["games"]


def test_refusals_carry_rests_codes():
    viewer = GqlPlayer()
    assert viewer.error(PLAYER, id="nobody", game="fabfib")["extensions"]["code"] == "not_found"
    bad_board = viewer.error(
        BOARD, game="skull", board="bluffer", first=10, after=None, me=False, days=None
    )
    assert bad_board["extensions"]["code"] == "not_found" and "bluffer" in bad_board["message"]
    for first, after, days in ((0, None, None), (101, None, None), (10, "x", None), (10, None, 0)):
        error = viewer.error(
            BOARD, game="fabfib", board="wins", first=first, after=after, me=False, days=days
        )
        assert error["extensions"]["code"] == "invalid", (first, after, days)
    assert (
        GqlPlayer(anonymous=True).error(MY_STATS, game=None)["extensions"]["code"]
        == "not_authenticated"
    )


def test_pages_cost_the_same_queries_however_long_the_board_or_the_history(
    django_assert_num_queries,
):
    b = guest_create()[0]
    client = Client()
    for size in (3, 60):
        for user in [guest_create()[0] for _ in range(size)]:
            put(user, matches=10, wins=random.randint(0, 20))
        variables = {"game": "fabfib", "board": "wins", "first": 50, "me": False}
        with django_assert_num_queries(3):  # the count, the page, its players' names
            response = post(client, BOARD, variables)
        assert len(response.json()["data"]["leaderboard"]["entries"]) >= 3
    for size in (2, 40):
        a = guest_create()[0]
        rated_history(a, b, "fibbers_dice", size)
        with django_assert_num_queries(5):  # profile: player, careers; stats: those + points
            response = post(client, PLAYER, {"id": str(a.pk), "game": "fibbers_dice"})
        assert "errors" not in response.json(), response.json()
