"""Leaderboards and player statistics through the REST API: order and tie-breaks, pages, the
thresholds, ?around=me, errors, and a fixed number of queries whatever the size."""

from __future__ import annotations

import random
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from accounts.services import guest_create
from games import services
from games.boards import Thresholds
from games.models import Career, RatingPoint, RecordedMatch
from games.services.tally import set_boards
from tests.services.finished import finished_match

from .helpers import Player, play_to_the_end

pytestmark = pytest.mark.django_db


def put(user, game: str = "fabfib", **fields) -> Career:
    """A career with the given totals, its board values computed as the services do."""
    fields.setdefault("last_played_at", timezone.now())
    career = Career(user=user, game=game, **fields)
    set_boards(career, Thresholds.current())
    career.save()
    return career


def board(client, game: str = "fabfib", **params):
    return client.get(f"/api/leaderboards/{game}/", params)


def ids(body) -> list[int]:
    return [entry["player"]["id"] for entry in body["results"]]


def users(n: int):
    return [guest_create()[0] for _ in range(n)]


def test_the_rating_board_orders_by_rating_then_rated_matches_then_the_older_account(
    api_client,
):
    u = users(6)
    put(u[0], rated_matches=10, matches=10, rating=5.0)
    put(u[1], rated_matches=12, matches=12, rating=7.0)
    put(u[2], rated_matches=12, matches=12, rating=7.0)
    put(u[3], rated_matches=20, matches=20, rating=7.0)
    put(u[4], rated_matches=10, matches=10, rating=3.0)
    put(u[5], rated_matches=9, matches=30, rating=50.0)  # provisional: not on the board
    body = board(api_client, board="rating").json()
    assert ids(body) == [u[3].pk, u[1].pk, u[2].pk, u[0].pk, u[4].pk]
    assert [e["rank"] for e in body["results"]] == [1, 2, 3, 4, 5]
    assert body["results"][0]["value"] == 7.0 and body["count"] == 5
    assert all(e["provisional"] is False for e in body["results"])
    assert "10 rated matches" in body["eligibility"]


def test_the_wins_board_leaves_out_wins_the_bots_took_and_prefers_fewer_matches(api_client):
    u = users(3)
    put(u[0], matches=20, wins=8)
    put(u[1], matches=12, wins=8)
    put(u[2], matches=12, wins=10, assisted=5, assisted_wins=4)  # 6 wins of its own
    body = board(api_client, board="wins").json()
    assert ids(body) == [u[1].pk, u[0].pk, u[2].pk]
    assert [e["value"] for e in body["results"]] == [8, 8, 6]


def test_bluff_boards_divide_each_games_own_statistics(api_client):
    u = users(3)
    put(u[0], matches=10, stats={"bluffs": 20, "bluffs_passed": 15, "claims": 40})
    put(u[1], matches=10, stats={"bluffs": 10, "bluffs_passed": 9, "claims": 10})
    put(u[2], matches=10, stats={"bluffs": 9, "bluffs_passed": 9, "claims": 30})  # 9 < 10 bluffs
    bluffer = board(api_client, board="bluffer").json()
    assert ids(bluffer) == [u[1].pk, u[0].pk]
    first = bluffer["results"][0]
    assert (first["value"], first["numerator"], first["denominator"]) == (0.9, 9, 10)
    assert bluffer["description"] == "bluffs that stood ÷ bluffs"
    boldest = board(api_client, board="boldest").json()
    assert ids(boldest) == [u[1].pk, u[0].pk, u[2].pk]  # 1.0, 0.5, 0.3
    put(users(1)[0], "fibber", matches=10, stats={"fibs": 10, "fibs_stood": 4, "plays": 20})
    fibber = board(api_client, "fibber", board="bluffer").json()["results"]
    assert (fibber[0]["numerator"], fibber[0]["denominator"]) == (4, 10)
    put(u[0], "skull", matches=10, stats={"challenges_won": 3, "challenges_lost": 7})
    skull = board(api_client, "skull", board="detective").json()["results"]
    assert (skull[0]["value"], skull[0]["denominator"]) == (0.3, 10)


def test_the_minimum_number_of_matches_keeps_newcomers_off_the_boards(api_client):
    newcomer, regular = users(2)
    put(newcomer, matches=9, wins=9, stats={"calls": 50, "calls_right": 50})
    put(regular, matches=10, wins=1, stats={"calls": 10, "calls_right": 1})
    assert ids(board(api_client, board="wins").json()) == [regular.pk]
    assert ids(board(api_client, board="detective").json()) == [regular.pk]


def test_pages_cover_the_board_once_in_order_with_next_and_previous_links(api_client):
    u = users(7)
    for n, user in enumerate(u):
        put(user, matches=10, wins=n)
    first = board(api_client, board="wins", limit=3).json()
    assert first["previous"] is None and first["count"] == 7
    seen, page, pages = [], first, 0
    while True:
        pages += 1
        seen += [(e["rank"], e["player"]["id"]) for e in page["results"]]
        if page["next"] is None:
            break
        parts = urlsplit(page["next"])
        page = api_client.get(f"{parts.path}?{parts.query}").json()
    assert pages == 3
    assert seen == [(rank, u[6 - rank + 1].pk) for rank in range(1, 8)]
    parts = urlsplit(page["previous"])
    back = api_client.get(f"{parts.path}?{parts.query}").json()
    assert [e["rank"] for e in back["results"]] == [4, 5, 6]


def test_around_me_answers_the_page_centred_on_my_rank(api_client, auth_client):
    u = users(9)
    for n, user in enumerate(u):
        put(user, matches=10, wins=20 - n)  # u[n] is ranked n + 1
    me, token = u[5], None
    from accounts.services import token_issue

    token = token_issue(user=me)
    body = board(auth_client(token), board="wins", limit=4, around="me").json()
    assert body["me"]["rank"] == 6 and body["me"]["player"]["id"] == me.pk
    assert [e["rank"] for e in body["results"]] == [4, 5, 6, 7]
    assert "around" not in (body["next"] or "") and "offset=7" in body["next"]
    assert board(api_client, around="me").status_code == 401
    outsider = guest_create()[1]
    missing = board(auth_client(outsider), board="wins", around="me")
    assert (
        missing.status_code == 404 and "at least 10 matches" in missing.json()["error"]["message"]
    )
    assert board(auth_client(token), around="you").status_code == 400


def test_active_days_leaves_out_players_who_have_not_played_lately(api_client):
    recent, idle = users(2)
    put(recent, matches=10, wins=1)
    put(idle, matches=10, wins=5, last_played_at=timezone.now() - timedelta(days=40))
    assert ids(board(api_client, board="wins").json()) == [idle.pk, recent.pk]
    active = board(api_client, board="wins", active_days=30).json()
    assert ids(active) == [recent.pk] and active["count"] == 1 and active["active_days"] == 30


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/api/leaderboards/skull/?board=bluffer", 404, "Skull has no 'bluffer' board"),
        ("/api/leaderboards/fabfib/?board=nope", 400, "'board'"),
        ("/api/leaderboards/chess/", 404, "No such game"),
        ("/api/leaderboards/fabfib/?limit=0", 400, "'limit'"),
        ("/api/leaderboards/fabfib/?limit=101", 400, "'limit'"),
        ("/api/leaderboards/fabfib/?offset=-1", 400, "'offset'"),
        ("/api/leaderboards/fabfib/?active_days=a", 400, "'active_days'"),
        ("/api/players/nobody/", 404, "No such player"),
        ("/api/players/999999/stats/?game=fabfib", 404, "No such player"),
        ("/api/players/1/stats/", 400, "'game': This field is required"),
        ("/api/players/1/stats/?game=chess", 400, "'game'"),
        ("/api/me/stats/", 401, ""),
    ],
)
def test_bad_requests_get_a_clear_error_in_the_one_shape(api_client, path, status, words):
    guest_create()
    response = api_client.get(path)
    assert response.status_code == status, response.content
    assert words in response.json()["error"]["message"]


def test_a_leaderboard_page_costs_the_same_queries_however_long_the_board(
    api_client, auth_client, django_assert_num_queries
):
    from accounts.services import token_issue

    me = users(1)[0]
    put(me, matches=10, wins=3)
    token = token_issue(user=me)
    client = auth_client(token)
    assert client.get("/api/me/").status_code == 200  # the token's lookup is cached from here
    for size in (3, 60):
        for user in users(size):
            put(user, matches=10, wins=random.randint(0, 20))
        with django_assert_num_queries(3):  # the count, the page, its players' names
            assert len(board(api_client, board="wins", limit=50).json()["results"]) >= 3
        with django_assert_num_queries(5):  # + my row, those ahead of me
            assert board(client, board="wins", around="me").json()["me"]["rank"] >= 1


def test_a_players_statistics_cost_the_same_queries_however_long_the_history(
    api_client, auth_client, django_assert_num_queries
):
    from accounts.services import token_issue

    a, b = users(2)
    token = token_issue(user=a)
    assert auth_client(token).get("/api/me/").status_code == 200  # the token's lookup is cached
    for size in (2, 120):
        for _ in range(size):
            match = finished_match("fibbers_dice", [a, b], [1, 2])
            record = RecordedMatch.objects.create(match=match, game="fibbers_dice", rated=True)
            RatingPoint.objects.create(
                user=a,
                game="fibbers_dice",
                match=match,
                record=record,
                mu=25,
                sigma=8,
                rating=1,
                place=1,
                played_at=timezone.now(),
            )
        put(a, "fibbers_dice", matches=size, rated_matches=size)
        with django_assert_num_queries(3):  # the player, the careers, the latest points
            body = api_client.get(f"/api/players/{a.pk}/stats/?game=fibbers_dice").json()
        assert len(body["history"]) == min(size, 100)
        with django_assert_num_queries(2):  # the careers, the latest points
            assert auth_client(token).get("/api/me/stats/").status_code == 200
        with django_assert_num_queries(2):
            assert api_client.get(f"/api/players/{a.pk}/").status_code == 200
        Career.objects.filter(user=a).delete()


@pytest.mark.django_db(transaction=True)
def test_statistics_stay_hidden_until_the_match_ends_then_count_once():
    """Two humans and a bot play Fab Fib through the API; the end-of-match work runs after the
    last commit, as in production."""
    ada, bob = Player("Ada"), Player("Bob")
    match = ada.create(game="fabfib", seats=3, bots=["random"], options={"life": 3})
    bob.post(f"/api/matches/{match['id']}/join/")
    ada_stats = f"/api/players/{ada.user.pk}/stats/?game=fabfib"
    before = ada.get(ada_stats).json()
    assert (before["matches"], before["stats"], before["history"]) == (0, {}, [])
    assert ada.get("/api/me/stats/").json()["games"] == []
    end = play_to_the_end(match["id"], [ada, bob], random.Random(4))
    assert end["status"] == "finished"
    after = ada.get(ada_stats).json()
    seats = ada.get(f"/api/matches/{match['id']}/stats/").json()["seats"]
    mine = next(s for s in seats if s["user"] and s["user"]["id"] == ada.user.pk)
    assert after["matches"] == 1 and after["stats"] == mine["stats"]
    assert after["bot_stats"] == mine["bot_stats"]
    assert after["places"] == {str(mine["place"]): 1}
    assert len(after["history"]) == 1 and after["history"][0]["match"] == match["id"]
    assert after["rating"]["provisional"] is True
    assert {b["board"] for b in after["boards"]} == {
        "rating",
        "wins",
        "bluffer",
        "detective",
        "boldest",
    }
    profile = bob.get(f"/api/players/{ada.user.pk}/").json()
    assert profile["player"] == {"id": ada.user.pk, "name": "Ada"}
    assert [g["game"] for g in profile["games"]] == ["fabfib"]
    assert [g["game"] for g in ada.get("/api/me/stats/").json()["games"]] == ["fabfib"]
    assert RecordedMatch.objects.filter(match_id=match["id"]).count() == 1


@pytest.mark.parametrize("name", ["rating", "wins", "detective"])
def test_my_rank_is_my_place_in_the_full_listing_ties_included(auth_client, api_client, name):
    from accounts.services import token_issue

    rng = random.Random(name)
    everyone = users(12)
    for user in everyone:  # few distinct values: many ties at every level of the order
        put(
            user,
            matches=rng.choice([10, 11]),
            rated_matches=rng.choice([10, 11]),
            wins=rng.choice([3, 4]),
            rating=rng.choice([1.5, 2.5]),
            stats={"calls": rng.choice([10, 20]), "calls_right": 5},
        )
    listing = ids(board(api_client, board=name, limit=100).json())
    assert len(listing) == 12
    for user in everyone:
        token = token_issue(user=user)
        me = board(auth_client(token), board=name, around="me", limit=5).json()["me"]
        assert me["rank"] == listing.index(user.pk) + 1


def test_decisions_bots_took_for_a_player_are_summed_apart_and_stay_off_the_bluff_boards(
    api_client, settings
):
    """Two finished matches in which deadlines passed: what the bots did for Ada (the match's
    ``takeover_stats``) is her career's ``bot_stats``, never her ``stats`` or her boards."""
    settings.FIBSERVER = {**settings.FIBSERVER, "BOARD_MIN_MATCHES": 1, "BOARD_MIN_ATTEMPTS": 1}
    ada, bob = users(2)
    zero = {"claims": 0, "bluffs": 0, "bluffs_passed": 0, "calls": 0, "calls_right": 0}
    for _ in range(2):
        own = {**zero, "claims": 4, "bluffs": 2, "bluffs_passed": 1, "calls": 2, "calls_right": 0}
        by_bot = {**zero, "claims": 6, "bluffs": 1, "calls": 3, "calls_right": 3}
        match = finished_match(
            "fabfib",
            [ada, bob, "basic"],
            [2, 1, 3],
            stats=[own, {**zero, "claims": 1}, {**zero, "claims": 1}],
            takeover=[by_bot, zero, zero],
            decisions={0: (6, 3), 1: (6, 0)},
        )
        assert services.match_record_results(match_id=match.pk)
    body = api_client.get(f"/api/players/{ada.pk}/stats/?game=fabfib").json()
    assert body["stats"] == {
        "claims": 8,
        "bluffs": 4,
        "bluffs_passed": 2,
        "calls": 4,
        "calls_right": 0,
    }
    assert body["bot_stats"] == {
        "claims": 12,
        "bluffs": 2,
        "bluffs_passed": 0,
        "calls": 6,
        "calls_right": 6,
    }
    on = {b["board"]: (b["value"], b["numerator"], b["denominator"]) for b in body["boards"]}
    assert on["detective"] == (0.0, 0, 4), "the bots' six right calls are not hers"
    assert on["bluffer"] == (0.5, 2, 4) and on["boldest"] == (0.5, 4, 8)
    detective = board(api_client, board="detective").json()["results"]
    assert [(e["player"]["id"], e["value"]) for e in detective if e["player"]["id"] == ada.pk] == [
        (ada.pk, 0.0)
    ]
