"""The events API (docs/tournaments.md): every operation, its answers fitting the OpenAPI schema,
the host-only checks and a clear 4xx for every misuse; 50 parallel registrations at the close
on PostgreSQL."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from games.engine import registry
from games.engine.bots import random_action
from games.engine.fibbers_dice import tournament as pure
from games.engine.replay import verify
from games.models import Event, Match, Seat
from games.reads.replays import read_replay
from tournaments.models import Entry

from .helpers import Player
from .openapi_validation import assert_fits

pytestmark = pytest.mark.django_db(transaction=True)
RULES = registry.get("fibbers_dice")


def code(response):
    return response.json()["error"]["code"]


def play_out(match_id, players, rng):
    """Every seat plays random legal actions through the API until the match ends."""
    by_user = {p.user.pk: p for p in players}
    while True:
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.ACTIVE:
            return
        state = RULES.from_json(match.state)
        seat = RULES.to_act(state)[0]
        player = by_user[Seat.objects.get(match=match, position=seat).user_id]
        view = player.view(match_id)
        action = random_action(view["legal_actions"], rng)
        response = player.post(f"/api/matches/{match_id}/actions/", action)
        assert response.status_code == 200, response.json()


@pytest.fixture
def event():
    host = Player("Host")
    created = host.post("/api/tournaments/", {"name": "Dice night", "door_prizes": 2})
    assert created.status_code == 201, created.json()
    assert_fits("TournamentDetailOut", created.json())
    return host, created.json()


def test_create_list_detail_and_the_commitment_is_published_at_once(event):
    _host, body = event
    assert body["status"] == "open" and body["registration_open"]
    assert body["raffle"]["seed"] is None and len(body["raffle"]["commitment"]) == 64
    listed = Player().get("/api/tournaments/").json()
    assert_fits("TournamentSummaryPageOut", listed)
    assert body["id"] in [e["id"] for e in listed["results"]]
    assert Player().get("/api/tournaments/?status=finished").json()["count"] == 0
    assert Player().get("/api/tournaments/?status=nope").status_code == 400
    detail = Player().get(f"/api/tournaments/{body['id']}/")
    assert detail.status_code == 200
    assert_fits("TournamentDetailOut", detail.json())


def test_create_refuses_what_the_schema_refuses_and_what_the_rules_refuse():
    me = Player()
    for bad in (
        {},
        {"name": ""},
        {"name": "x", "points": 0},
        {"name": "x", "points": "3"},
        {"name": "x", "format": "long"},
        {"name": "x", "time_control": "solo"},
        {"name": "x", "colour": "red"},
        {"name": "x", "starts_at": 12},
        {"name": "x", "door_prizes": -1},
    ):
        response = me.post("/api/tournaments/", bad)
        assert response.status_code == 400 and code(response) == "invalid", bad
    response = me.post("/api/tournaments/", {"name": "x", "decision_seconds": 5})
    assert response.status_code == 422
    assert APIClient().post("/api/tournaments/", {"name": "x"}, format="json").status_code == 401


def test_a_whole_single_round_event_through_the_api_with_a_late_entrant(event):
    host, body = event
    url = f"/api/tournaments/{body['id']}/"
    players = [Player(f"P{i}") for i in range(3)]
    for p in players:
        answer = p.post(url + "register/")
        assert answer.status_code == 200 and answer.json()["registered"]
    assert code(players[0].post(url + "register/")) == "conflict"
    assert players[0].post(url + "start/").status_code == 403
    started = host.post(url + "start/")
    assert started.status_code == 200
    assert_fits("TournamentDetailOut", started.json())
    assert started.json()["single_round"] is True
    assert host.post(url + "start/").status_code == 409
    assert host.post(url + "next-round/").status_code == 409
    assert host.post(url + "short-format/").status_code == 409
    assert players[0].post(url + "unregister/").status_code == 409
    mine = players[1].get(url + "my-match/").json()
    assert_fits("TournamentMyMatchOut", mine)
    assert mine["reason"] == "playing" and mine["seat"] == 1
    late = Player("Late")
    joined = late.post(url + "register/")
    assert joined.status_code == 200
    assert late.get(url + "my-match/").json()["seat"] == 3
    match_id = mine["match"]
    late_view = late.view(match_id)
    assert late_view["seat_count"] == 4 and late_view["you"]["seats"] == [3]
    play_out(match_id, [*players, late], random.Random(3))
    final = Player().get(url).json()
    assert_fits("TournamentDetailOut", final)
    assert final["status"] == "finished" and len(final["prize_picks"]) == 4
    raffle = Player().get(url + "raffle/").json()
    assert_fits("RaffleOut", raffle)
    assert raffle["winners"] == pure.raffle(raffle["seed"], raffle["entrants"], 2)
    assert pure.seed_commitment(raffle["seed"]) == body["raffle"]["commitment"]
    assert code(Player().post(url + "register/")) == "conflict"
    replay = Player().get(f"/api/matches/{match_id}/replay/").json()
    assert_fits("ReplayOut", replay)


def test_a_multi_round_event_host_controls_and_short_format(event):
    host, body = event
    url = f"/api/tournaments/{body['id']}/"
    players = [Player(f"M{i}") for i in range(8)]
    for p in players:
        p.post(url + "register/")
    assert host.post(url + "start/").json()["single_round"] is False
    assert host.post(url + "next-round/").status_code == 409  # round 1 is being played
    assert players[0].post(url + "short-format/").status_code == 403
    assert host.post(url + "short-format/").json()["format"] == "short"
    rng = random.Random(1)
    for _ in (1, 2, 3):
        detail = host.get(url).json()
        play_out(detail["rounds"][-1]["match"], players, rng)
        advanced = host.post(url + "next-round/")
        assert advanced.status_code == 200, advanced.json()
        assert_fits("TournamentDetailOut", advanced.json())
    detail = host.get(url).json()
    assert detail["rounds"][-1]["final"] and len(detail["rounds"][-1]["players"]) == 4
    assert not detail["registration_open"]
    play_out(detail["rounds"][-1]["match"], players, rng)
    done = host.get(url).json()
    assert done["status"] == "finished"
    picks = done["prize_picks"]
    finals = {row["player"]["id"]: row["final_place"] for row in done["standings"]}
    assert [finals[p] for p in picks] == [1, 2, 3, 4]


def test_a_private_event_is_a_404_to_others_and_a_missing_one_too():
    host = Player()
    body = host.post("/api/tournaments/", {"name": "Secret", "visibility": "private"}).json()
    url = f"/api/tournaments/{body['id']}/"
    assert Player().get(url).status_code == 404
    assert body["id"] not in [e["id"] for e in Player().get("/api/tournaments/").json()["results"]]
    assert Player().get("/api/tournaments/00000000-0000-0000-0000-000000000000/").status_code == 404
    assert Player().post("/api/tournaments/nope/start/").status_code == 404
    stranger = Player()
    assert stranger.post(url + "register/").status_code == 200  # the id is the invitation
    assert stranger.get(url).status_code == 200


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_fifty_parallel_registrations_at_the_close_lose_or_double_none():
    """A single-round event of 7 has 3 places left at the table: 50 players register at once,
    twice each. Exactly 3 join the match (seats 7, 8, 9), the others get 409, nobody twice."""
    host = Player()
    body = host.post("/api/tournaments/", {"name": "Rush"}).json()
    url = f"/api/tournaments/{body['id']}/"
    for i in range(7):
        Player(f"S{i}").post(url + "register/")
    host.post(url + "start/")
    racers = [Player(f"R{i}") for i in range(50)]
    barrier = threading.Barrier(50)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def race(index: int) -> None:
        try:
            me = racers[index]
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {me.token}")
            barrier.wait()
            for _ in range(2):
                response = client.post(url + "register/", {}, format="json")
                with lock:
                    statuses[response.status_code] += 1
        finally:
            connections.close_all()

    with ThreadPoolExecutor(50) as pool:
        list(pool.map(race, range(50)))
    assert statuses[200] == 3 and statuses[409] == 97 and sum(statuses.values()) == 100
    entries = list(Entry.objects.filter(tournament_id=body["id"]).values_list("user_id", flat=True))
    assert len(entries) == len(set(entries)) == 10
    match = Match.objects.get(pk=host.get(url).json()["rounds"][0]["match"])
    seats = list(Seat.objects.filter(match=match).values_list("user_id", flat=True))
    assert match.seat_count == 10 and sorted(seats) == sorted(entries)
    state = RULES.from_json(match.state)
    assert state.seats == 10 and RULES.invariants(state) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_fifty_parallel_registrations_racing_the_second_turn_lose_or_double_none():
    """A single-round event of 3 whose next move brings the first starter's second turn (D:
    registration closes as it comes): the starter opens with a false Max, loses a point and
    starts again. 50 players register at once, twice each, while that move is made through
    the API (the optimistic move path). Every 200 is a seat taken before the move, every other
    answer a 409, nobody twice, and the match replays with its joins."""
    rng = random.Random(7)
    host = Player()
    for _ in range(20):  # a first roll that is not Max (17 in 18), so that "max" is a fib
        body = host.post("/api/tournaments/", {"name": "Close", "decision_seconds": 600}).json()
        url = f"/api/tournaments/{body['id']}/"
        starters = [Player(f"S{i}") for i in range(3)]
        for p in starters:
            p.post(url + "register/")
        match_id = host.post(url + "start/").json()["rounds"][0]["match"]
        state = RULES.from_json(Match.objects.get(pk=match_id).state)
        seat = RULES.to_act(state)[0]
        if state.rolls[seat] != [2, 1]:
            break
    by_user = {p.user.pk: p for p in starters}
    mover = by_user[Seat.objects.get(match_id=match_id, position=seat).user_id]
    closing = {"type": "announce", "score": "max"}
    racers = [Player(f"R{i}") for i in range(50)]
    barrier = threading.Barrier(51)
    answers: dict[int, list[tuple[int, str]]] = {}
    moved: list[int] = []

    def race(index: int) -> None:
        try:
            client = APIClient()
            if index == 50:
                client.credentials(HTTP_AUTHORIZATION=f"Bearer {mover.token}")
                barrier.wait()
                time.sleep(0.05)  # a few registrations get in first, the others meet the move
                answer = client.post(f"/api/matches/{match_id}/actions/", closing, format="json")
                moved.append(answer.status_code)
                return
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {racers[index].token}")
            barrier.wait()
            for _ in range(2):
                response = client.post(url + "register/", {}, format="json")
                message = response.json().get("error", {}).get("message", "")
                answers.setdefault(index, []).append((response.status_code, message))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(51) as pool:
        list(pool.map(race, range(51)))
    assert moved == [200]
    statuses = Counter(status for got in answers.values() for status, _ in got)
    assert statuses[200] + statuses[409] == 100 and statuses[200] <= 7
    won = {racers[i].user.pk for i, got in answers.items() if (200, "") in got}
    assert len(won) == statuses[200]  # nobody registered twice
    for got in answers.values():
        refusals = [message for status, message in got if status == 409]
        assert all(
            "second turn" in m or "full" in m or "already registered" in m for m in refusals
        ), refusals
    entries = set(Entry.objects.filter(tournament_id=body["id"]).values_list("user_id", flat=True))
    assert entries == {p.user.pk for p in starters} | won
    match = Match.objects.get(pk=match_id)
    seats = list(
        Seat.objects.filter(match=match).order_by("position").values_list("user_id", flat=True)
    )
    assert len(seats) == len(set(seats)) and set(seats) == entries
    assert seats[:3] == [p.user.pk for p in starters]
    state = RULES.from_json(match.state)
    assert state.seats == match.seat_count == len(seats) and RULES.invariants(state) == []
    assert state.turns[seat] == 1 and RULES.to_act(state) == [seat]  # the starter's again
    assert "first starter's second turn" in RULES.late_entry_closed(state)
    joins = list(
        Event.objects.filter(match=match, type="seat_joined").values_list("version", flat=True)
    )
    assert len(joins) == len(won)
    closing = Event.objects.filter(match=match, actor=seat).order_by("-seq").first()
    assert closing is not None and closing.version == match.version  # the last step is the move
    assert all(v < closing.version for v in joins)  # every join came before the closing move
    late = Player("After")
    refused = late.post(url + "register/")
    assert refused.status_code == 409 and "second turn" in refused.json()["error"]["message"]
    play_out(match_id, [*starters, *(r for r in racers if r.user.pk in won)], rng)
    assert verify(read_replay(Match.objects.get(pk=match_id))) == []
    print(f"racing the second turn: {statuses[200]} joined, {statuses[409]} refused")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_fifty_parallel_registrations_before_the_start_are_all_kept_once():
    host = Player()
    body = host.post("/api/tournaments/", {"name": "Crowd"}).json()
    url = f"/api/tournaments/{body['id']}/"
    racers = [Player(f"C{i}") for i in range(50)]
    barrier = threading.Barrier(50)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def race(index: int) -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {racers[index].token}")
            barrier.wait()
            for _ in range(2):
                response = client.post(url + "register/", {}, format="json")
                with lock:
                    statuses[response.status_code] += 1
        finally:
            connections.close_all()

    with ThreadPoolExecutor(50) as pool:
        list(pool.map(race, range(50)))
    assert statuses == Counter({200: 50, 409: 50})
    assert Entry.objects.filter(tournament_id=body["id"]).count() == 50


def test_the_tournaments_earlier_paths_answer_as_the_documented_ones():
    """``/api/events/…`` was the tournaments' path before they were called tournaments: the same
    views answer there (undocumented), for clients written then."""
    host = Player("Old host")
    created = host.post("/api/events/", {"name": "Old path"})
    assert created.status_code == 201
    tournament_id = created.json()["id"]
    assert Player().get(f"/api/events/{tournament_id}/").json() == (
        Player().get(f"/api/tournaments/{tournament_id}/").json()
    )
    assert Player("Entrant").post(f"/api/events/{tournament_id}/register/").status_code == 200
    assert Player().get(f"/api/events/{tournament_id}/raffle/").status_code == 200
    from tests.api.openapi_validation import document

    assert not [p for p in document()["paths"] if p.startswith("/api/events/")]
