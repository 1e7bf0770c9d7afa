"""The step-by-step replay (``GET /api/matches/{id}/replay/steps/{n}/``, docs/replay.md): a
finished match re-run by the engine from its revealed seed, step by step.

- for every game, the state after each step equals what the players saw live at that version
  (their private view and legal actions, the public view), and the last step equals the
  views at the end;
- a Fibber's Dice late entrant's join is a step that adds a seat;
- a decision a bot took after a deadline is labelled ``by_bot``;
- a record changed behind the server's back shows ``matched: false`` from that step on;
- every bad request is a 4xx JSON error: a bad ``n``, past the last step, a match not finished,
  unknown or hidden;
- the re-runs are kept per process (an LRU): a second request reads the match row only.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.services import guest_create
from games import services
from games.engine import registry
from games.engine.bots import random_action
from games.models import Event, Match, Seat
from games.reads import replays
from tests.tournaments.test_tournaments import current, event_with, play_out
from tournaments import services as tournament_services

from .helpers import Player, assert_error

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = registry.all_rules()


@pytest.fixture(autouse=True)
def _fresh_reruns() -> None:
    replays._reruns.clear()


def step_url(match_id: Any, n: Any) -> str:
    return f"/api/matches/{match_id}/replay/steps/{n}/"


def get_step(client: Any, match_id: Any, n: Any) -> dict[str, Any]:
    response = client.get(step_url(match_id, n))
    assert response.status_code == 200, response.content[:300]
    return response.json()


def setup_version(match_id: Any) -> int:
    """The version of the set-up's events: step n is the n-th version after it."""
    rows = Event.objects.filter(match_id=match_id).values_list("version", flat=True)
    versions = sorted(set(rows))
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    return versions[0]


def play_solo_watching(game: str, seats: int, rng: random.Random) -> tuple[Player, str, list]:
    """A solo match against random bots; the human's view before each of their decisions."""
    human = Player("Human")
    places = len(registry.get(game).places(seats, {}))
    match = human.create(
        game=game, seats=seats, bots=["random"] * (places - 1), time_control="solo"
    )
    seen = []
    for _ in range(5000):
        view = human.view(match["id"])
        if view["status"] != "active":
            break
        seen.append(view)
        assert view["legal_actions"], "solo bots act at once: the human must be to act"
        action = random_action(view["legal_actions"], rng)
        response = human.act(match["id"], {**action, "expected_version": view["version"]})
        assert response.status_code == 200, response.content
    return human, match["id"], seen


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.game_id)
def test_every_step_equals_what_the_player_saw_live_and_the_last_the_end(rules):
    lo, hi = rules.seat_range({})
    seats = max(lo, min(3, hi))
    human, match_id, seen = play_solo_watching(rules.game_id, seats, random.Random(3))
    assert seen, "the human decided at least once"
    v0 = setup_version(match_id)
    record = human.get(f"/api/matches/{match_id}/replay/").json()
    last = len(record["steps"])
    for live in seen:
        n = live["version"] - v0
        point = get_step(APIClient(), match_id, n)  # anyone may look once it has ended
        me = live["you"]["seat"]
        assert point["n"] == n and point["last"] == last and point["matched"] is True
        assert point["differences"] == []
        assert point["view"]["public"] == live["view"]["public"]
        assert point["view"]["to_act"] == live["view"]["to_act"] == live["to_act"]
        assert point["private"][me] == live["view"]["private"]
        assert point["legal_actions"][me] == live["legal_actions"]
        if n:
            recorded = record["steps"][n - 1]
            assert point["step"]["action"] == recorded["action"]
            assert point["step"]["seat"] == recorded["seat"]
            assert point["step"]["events"] == recorded["events"]
    # the last step is the end: the views the players and spectators get now
    end = get_step(human.client, match_id, last)
    final = human.view(match_id)
    spectator = APIClient().get(f"/api/matches/{match_id}/").json()
    me = final["you"]["seat"]
    assert end["view"] == spectator["view"]
    assert end["private"][me] == final["view"]["private"]
    assert end["view"]["over"] is True and end["view"]["placements"] == final["placements"]
    assert end["legal_actions"] == [[] for _ in range(seats)] and end["matched"] is True
    assert end["step"] == {**record["steps"][-1], "n": last}
    # the set-up: no seat acted, the deal's events (every private part) are there
    setup = get_step(human.client, match_id, 0)
    assert setup["step"] == {"n": 0, **record["setup"]} and setup["matched"] is True
    assert len(setup["private"]) == seats and all(p is not None for p in setup["private"])


def test_a_late_entrant_joining_a_single_round_event_is_a_step_that_adds_a_seat():
    host, event, _players = event_with(3)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    match_id = current(event).match_id
    tournament_services.tournament_register(tournament_id=event.pk, user=guest_create()[0])
    play_out(match_id, random.Random(4))
    client = APIClient()
    record = client.get(f"/api/matches/{match_id}/replay/").json()
    joins = [s["n"] for s in record["steps"] if s.get("join")]
    assert len(joins) == 1
    before = get_step(client, match_id, joins[0] - 1)
    joined = get_step(client, match_id, joins[0])
    assert len(before["private"]) == before["view"]["seats"] == 3
    assert len(joined["private"]) == joined["view"]["seats"] == 4
    assert joined["step"]["join"] is True and joined["step"]["seat"] == 3
    assert joined["step"]["action"] == {"type": "join"} and joined["matched"] is True
    assert [e["type"] for e in joined["step"]["events"]] == ["seat_joined"]
    end = get_step(client, match_id, len(record["steps"]))
    assert end["matched"] is True and end["view"]["over"] is True


def test_a_decision_a_bot_took_after_a_deadline_is_labelled_by_bot():
    users = [guest_create()[0] for _ in range(3)]
    match = services.match_create(user=users[0], game="fabfib", seats=3, options={"life": 1})
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    rules = registry.get("fabfib")
    for turn in range(300):
        match.refresh_from_db()
        if match.status != "active":
            break
        seat = Seat.objects.get(match=match, must_act=True)
        if turn % 2:
            view = rules.view(rules.from_json(match.state), seat.position)
            action = random_action(view["legal_actions"], random.Random(turn))
            services.action_submit(match_id=match.pk, user=users[seat.position], action=action)
        else:
            past = services.db_now() - timedelta(minutes=1)
            Seat.objects.filter(pk=seat.pk).update(deadline=past)
            Match.objects.filter(pk=match.pk).update(deadline=past)
            services.deadlines_sweep()
    assert match.status == "finished"
    client = APIClient()
    record = client.get(f"/api/matches/{match.pk}/replay/").json()
    flags = [bool(s.get("by_bot")) for s in record["steps"]]
    assert any(flags) and not all(flags)
    for n, flag in enumerate(flags, start=1):
        step = get_step(client, match.pk, n)["step"]
        assert step.get("by_bot", False) is flag, n


def test_a_record_changed_behind_the_servers_back_no_longer_matches_from_that_step():
    human, match_id, _ = play_solo_watching("fibbers_dice", 3, random.Random(5))
    last = len(human.get(f"/api/matches/{match_id}/replay/").json()["steps"])
    assert last >= 4
    k = last // 2
    row = Event.objects.filter(match_id=match_id, version=setup_version(match_id) + k).first()
    assert row is not None
    Event.objects.filter(pk=row.pk).update(public={**row.public, "forged": True})
    before, at, end = (get_step(human.client, match_id, n) for n in (k - 1, k, last))
    assert before["matched"] is True and before["differences"] == []
    assert at["matched"] is False and at["differences"] == [f"step {k}: events differ"]
    assert end["matched"] is False and f"step {k}: events differ" in end["differences"]
    # the views are the engine's re-run all the same, not the forged record
    assert all("forged" not in e["public"] for e in at["step"]["events"])


def test_bad_step_numbers_unfinished_unknown_and_hidden_matches_are_4xx_json_errors():
    human, match_id, _ = play_solo_watching("fabfib", 3, random.Random(6))
    last = len(human.get(f"/api/matches/{match_id}/replay/").json()["steps"])
    for bad in ("x", "-1", "1.5", "1e3", "%20", "0x1", "٣"):
        error = assert_error(human.get(step_url(match_id, bad)), 400, "invalid")
        assert error["field"] == "n"
    assert_error(human.get(step_url(match_id, last + 1)), 404, "not_found")
    for far in (999999, "1234567890", "9" * 5000):
        assert_error(human.get(step_url(match_id, far)), 404, "not_found")
    assert_error(human.get(step_url(match_id, "")[:-1] + "/"), 404)  # no n at all
    assert human.get(step_url(match_id, last)).status_code == 200
    assert_error(human.post(step_url(match_id, 0)), 405)
    # unknown, and not a match id at all
    assert_error(human.get(step_url("8c1f8a5e-0000-4000-8000-000000000000", 0)), 404)
    assert_error(human.get(step_url("nope", 0)), 404)
    # not finished: the same answer as the replay itself
    a, b = Player(), Player()
    lobby = a.create(game="fabfib", seats=3)
    active = a.create(game="fabfib", seats=3, bots=["random"] * 2, time_control="solo")
    for m in (lobby, active):
        replay = assert_error(a.get(f"/api/matches/{m['id']}/replay/"), 404, "not_found")
        assert assert_error(a.get(step_url(m["id"], 0)), 404, "not_found") == replay
    # a private match is hidden from outsiders, shown to its players
    private = a.create(
        game="fabfib", seats=3, bots=["random"] * 3, join=False, visibility="private"
    )
    assert a.get(step_url(private["id"], 1)).status_code == 200
    for outsider in (b.client, APIClient()):
        assert_error(outsider.get(step_url(private["id"], 1)), 404, "not_found")
        assert_error(outsider.get(step_url(private["id"], "x")), 404, "not_found")


def test_a_second_request_reads_the_match_row_only_and_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(replays, "REPLAY_RERUNS", 1)
    watcher = Player()
    one = watcher.create(game="skull", seats=3, bots=["random"] * 3, join=False)["id"]
    two = watcher.create(game="fabfib", seats=3, bots=["random"] * 3, join=False)["id"]
    first = get_step(watcher.client, one, 5)
    with CaptureQueriesContext(connection) as cold:
        get_step(watcher.client, two, 5)
    with CaptureQueriesContext(connection) as warm:
        again = get_step(watcher.client, two, 3)
    events = Event._meta.db_table
    assert any(events in q["sql"] for q in cold.captured_queries)
    assert not any(events in q["sql"] for q in warm.captured_queries), warm.captured_queries
    assert again["n"] == 3 and len(replays._reruns) == 1
    assert get_step(watcher.client, one, 5) == first  # pushed out, read again: the same
