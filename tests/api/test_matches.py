"""The match API end to end: lobby, views, actions, events, inbox, replay, errors."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import registry
from games.engine.replay import verify
from games.engine.rng import seed_commitment
from games.models import Event, Match
from games.reads import feeds

from .helpers import Player, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = registry.all_rules()


def table_for(rules) -> int:
    lo, hi = rules.seat_range({})
    return max(lo, min(3, hi))


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.game_id)
def test_a_full_match_of_every_game_is_played_by_humans_through_the_api(rules):
    seats = table_for(rules)
    players = [Player(f"P{i}") for i in range(seats)]
    match = players[0].create(game=rules.game_id, seats=seats)
    assert match["status"] == "lobby"
    for p in players[1:]:
        assert p.post(f"/api/matches/{match['id']}/join/").status_code == 200
    final = play_to_the_end(match["id"], players, random.Random(rules.game_id))
    assert final["status"] == "finished" and sorted(final["placements"])[0] == 1
    replay = players[0].get(f"/api/matches/{match['id']}/replay/").json()
    assert verify(replay) == []
    # Why it ended: the game's own reason, in the match, its view and the replay's result.
    assert final["end_reason"] in rules.end_reasons
    assert final["end_reason"] == final["view"]["end_reason"] == replay["result"]["end_reason"]
    assert (
        seed_commitment(replay["seed"]) == match["seed_commitment"]
        or match["seed_commitment"] is None
    )
    assert seed_commitment(replay["seed"]) == final["seed_commitment"]
    stats = players[1].get(f"/api/matches/{match['id']}/stats/").json()
    assert len(stats["seats"]) == seats and "stats" in stats["seats"][0]


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.game_id)
def test_a_match_with_bots_in_some_seats_plays_to_the_end(rules):
    seats = table_for(rules)
    human = Player()
    match = human.create(
        game=rules.game_id, seats=seats, bots=["random"] * (seats - 1), time_control="solo"
    )
    assert match["status"] == "active"
    final = play_to_the_end(match["id"], [human], random.Random(7))
    assert final["status"] == "finished"
    assert verify(human.get(f"/api/matches/{match['id']}/replay/").json()) == []


def test_an_all_bot_exhibition_plays_itself_and_anyone_may_watch(api_client):
    creator = Player()
    match = creator.create(game="fabfib", seats=4, bots=["random"] * 4, join=False)
    body = api_client.get(f"/api/matches/{match['id']}/").json()
    assert body["status"] == "finished" and body["you"] is None
    assert body["view"]["private"] is None and body["legal_actions"] == []
    assert verify(api_client.get(f"/api/matches/{match['id']}/replay/").json()) == []


def test_the_host_of_a_private_exhibition_sees_and_finds_it_and_nobody_else_does():
    """the creator of a match can always see it, seated or not."""
    host, outsider = Player(), Player()
    match = host.create(
        game="fabfib", seats=3, bots=["random"] * 3, join=False, visibility="private"
    )
    for path in ("", "events/", "replay/", "stats/"):
        assert host.get(f"/api/matches/{match['id']}/{path}").status_code == 200, path
        assert outsider.get(f"/api/matches/{match['id']}/{path}").status_code == 404, path
    view = host.view(match["id"])
    assert view["you"] is None and view["created_by"] == host.user.pk
    assert match["id"] in [m["id"] for m in host.get("/api/matches/?mine=1").json()["results"]]
    assert outsider.get("/api/matches/?mine=1").json()["count"] == 0


def test_a_long_event_feed_pages_without_skipping_or_repeating(monkeypatch):
    """Pages are cut at ``EVENTS_PAGE`` events (200; 10 here, so that every match, however
    short the bots make it, fills several pages); ``more`` says so and the client continues
    after the last event it got, never after ``last_seq``."""
    monkeypatch.setattr(feeds, "EVENTS_PAGE", 10)
    watcher = Player()
    match = watcher.create(game="skull", seats=6, bots=["random"] * 6, join=False)
    seen, after, pages = [], 0, []
    while True:
        page = watcher.get(f"/api/matches/{match['id']}/events/?after={after}").json()
        pages.append(page["more"])
        seen += [e["seq"] for e in page["events"]]
        if not page["more"]:
            break
        after = page["events"][-1]["seq"]
    assert len(pages) > 1 and pages[:-1] == [True] * (len(pages) - 1)
    assert seen == list(range(1, page["last_seq"] + 1))


def test_the_lobby_lists_open_public_matches_by_game_and_my_matches():
    a, b = Player(), Player()
    fab = a.create(game="fabfib", seats=3)
    a.create(game="fabfib", seats=3, visibility="private")
    listed = b.get("/api/matches/?game=fabfib").json()
    ids = [m["id"] for m in listed["results"]]
    assert ids == [fab["id"]] and listed["count"] == 1
    assert listed["results"][0]["filled"] == 1
    assert b.get("/api/matches/?game=skull").json()["count"] == 0
    assert a.get("/api/matches/?mine=1").json()["count"] == 2
    assert b.get("/api/matches/?mine=1").json()["count"] == 0


def test_join_by_invite_code_for_a_private_match():
    a, b, c = Player(), Player(), Player()
    match = a.create(game="fabfib", seats=3, visibility="private")
    assert b.get(f"/api/matches/{match['id']}/").status_code == 404
    assert b.post(f"/api/matches/{match['id']}/join/").status_code == 404
    joined = b.post("/api/matches/join/", {"invite_code": match["invite_code"]})
    assert joined.status_code == 200 and joined.json()["you"]["seat"] == 1
    assert c.post("/api/matches/join/", {"invite_code": "nope"}).status_code == 404
    assert (
        c.post(
            f"/api/matches/{match['id']}/join/", {"invite_code": match["invite_code"]}
        ).status_code
        == 200
    )
    assert a.view(match["id"])["status"] == "active"  # auto-start when full


def test_leave_before_the_start_and_a_lobby_left_empty_is_aborted():
    a, b = Player(), Player()
    match = a.create(game="fabfib", seats=3)
    b.post(f"/api/matches/{match['id']}/join/")
    assert b.post(f"/api/matches/{match['id']}/leave/").status_code == 200
    assert a.view(match["id"])["seats"][1]["user"] is None
    assert a.post(f"/api/matches/{match['id']}/leave/").status_code == 200
    assert Match.objects.get(pk=match["id"]).status == "aborted"


def test_start_with_the_seats_filled_so_far_and_add_bots():
    a, b = Player(), Player()
    match = a.create(game="fabfib", seats=5)
    b.post(f"/api/matches/{match['id']}/join/")
    assert b.post(f"/api/matches/{match['id']}/start/").status_code == 403
    refused = a.post(f"/api/matches/{match['id']}/start/")
    assert refused.status_code == 409 and "3 to 10" in refused.json()["error"]["message"]
    added = a.post(f"/api/matches/{match['id']}/bots/", {"level": "random", "count": 1})
    assert added.status_code == 200 and added.json()["seats"][2]["bot_level"] == "random"
    started = a.post(f"/api/matches/{match['id']}/start/").json()
    assert started["status"] == "active" and started["seat_count"] == 3
    assert [s["position"] for s in started["seats"]] == [0, 1, 2]


def test_create_refuses_bad_input_with_clear_errors():
    a = Player()
    # Seat counts, option bounds and bot levels are in each game's create schema, so they are
    # 400 (the request does not fit its shape); what one field means for another is 422.
    cases = [
        ({"game": "chess", "seats": 3}, 400),
        ({"game": "fabfib", "seats": 2}, 400),
        ({"game": "fabfib", "seats": 3, "options": {"life": 99}}, 400),
        ({"game": "fabfib", "seats": 3, "options": {"colour": "red"}}, 400),
        ({"game": "fabfib", "seats": 3, "bots": ["genius"]}, 400),
        ({"game": "skull", "seats": 8}, 422),
        ({"game": "fabfib", "seats": 3, "bots": ["random"] * 3}, 422),
        ({"game": "fabfib", "seats": 3, "time_control": "live", "decision_seconds": 1}, 422),
        ({"game": "fabfib", "seats": "three"}, 400),
        ({"seats": 3}, 400),
    ]
    for body, code in cases:
        response = a.post("/api/matches/", body)
        assert response.status_code == code, (body, response.content)
        assert response.json()["error"]["message"]
    assert Match.objects.count() == 0


def test_action_errors_use_the_right_status_and_change_nothing():
    a, b, c = Player(), Player(), Player()
    match = a.create(game="fabfib", seats=3)
    for p in (b, c):
        p.post(f"/api/matches/{match['id']}/join/")
    view = a.view(match["id"])
    mover = next(p for p in (a, b, c) if p.view(match["id"])["legal_actions"])
    idle = next(p for p in (a, b, c) if p is not mover)
    version, last_seq = view["version"], view["last_seq"]
    stranger = Player()
    url = f"/api/matches/{match['id']}/actions/"
    cases = [
        (idle, {"type": "call"}, 403, "forbidden"),
        (stranger, {"type": "call"}, 403, "forbidden"),
        (mover, {"type": "fly"}, 400, "invalid"),  # no game has it: not an action's shape
        (mover, {"type": "place", "card": "skull"}, 422, "illegal_action"),  # Skull's, not here
        (mover, {"type": "claim", "value": "727"}, 422, "illegal_action"),
        (mover, {"type": "call", "expected_version": version - 1}, 409, "stale_version"),
        (mover, {"no": "type"}, 400, "invalid"),
        (mover, ["call"], 400, "invalid"),
    ]
    for player, body, code, error in cases:
        response = player.post(url, body)
        assert response.status_code == code, (body, response.content)
        assert response.json()["error"]["code"] == error
    stale = mover.post(url, {"type": "call", "expected_version": version - 1}).json()
    assert stale["error"]["version"] == version
    assert mover.client.post(url, "{not json", content_type="application/json").status_code == 400
    huge = json.dumps({"type": "call", "pad": "x" * 100_000})
    assert mover.client.post(url, huge, content_type="application/json").status_code == 413
    assert (
        mover.post(
            "/api/matches/00000000-0000-0000-0000-000000000000/actions/", {"type": "call"}
        ).status_code
        == 404
    )
    assert mover.post("/api/matches/not-a-uuid/actions/", {"type": "call"}).status_code == 404
    assert Player().client.logout() is None
    from rest_framework.test import APIClient

    assert APIClient().post(url, {"type": "call"}, format="json").status_code == 401
    after = a.view(match["id"])
    assert (after["version"], after["last_seq"]) == (version, last_seq)


def test_posted_fields_never_assign_match_or_seat_attributes():
    a = Player()
    match = a.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    view = a.view(match["id"])
    action = view["legal_actions"][0]
    body = {
        "type": action["type"],
        "version": 999,
        "status": "finished",
        "seat": 2,
        "hand": [1],
        "is_bot": True,
    }
    response = a.post(f"/api/matches/{match['id']}/actions/", body)
    # Unknown fields do not fit the action's shape: refused (400), naming each of them.
    assert response.status_code == 400, response.content
    assert {"version", "status", "hand", "is_bot"} <= set(response.json()["error"]["fields"])
    m = Match.objects.get(pk=match["id"])
    assert m.version == view["version"] and m.status == "active"
    create = a.post(
        "/api/matches/",
        {"game": "fabfib", "seats": 3, "status": "finished", "version": 7, "seed": "00"},
    )
    assert create.status_code == 400
    assert set(create.json()["error"]["fields"]) == {"status", "version", "seed"}
    assert Match.objects.count() == 1


def test_idempotency_key_applies_once_and_replays_the_response():
    a = Player()
    match = a.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    view = a.view(match["id"])
    action = {"type": view["legal_actions"][0]["type"]}
    for name, domain in view["legal_actions"][0]["params"].items():
        action[name] = domain.get("one_of", [None])[0]
    first = a.act(match["id"], action, HTTP_IDEMPOTENCY_KEY="k-1")
    again = a.act(match["id"], action, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    moves = Event.objects.filter(match_id=match["id"], actor=0).exclude(action=None).count()
    assert moves == 1
    other = a.act(match["id"], {"type": "believe"}, HTTP_IDEMPOTENCY_KEY="k-1")
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_key_reused"


def test_events_feed_is_redacted_gapless_and_paged_by_sequence():
    a = Player()
    match = a.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    feed = a.get(f"/api/matches/{match['id']}/events/?after=0").json()
    seqs = [e["seq"] for e in feed["events"]]
    assert seqs == list(range(1, feed["last_seq"] + 1))
    tail = a.get(f"/api/matches/{match['id']}/events/?after={seqs[-2]}").json()
    assert [e["seq"] for e in tail["events"]] == [seqs[-1]]
    for e in feed["events"]:
        if "private" in e:
            assert e["type"] in {"round_started", "accept", "exchange"}
    spectator = Player().get(f"/api/matches/{match['id']}/events/").json()
    assert all("private" not in e for e in spectator["events"])
    assert a.get(f"/api/matches/{match['id']}/events/?after=-1").status_code == 400
    assert a.get(f"/api/matches/{match['id']}/events/?wait=99").status_code == 400


def test_my_turns_lists_where_i_must_act_soonest_deadline_first():
    a, b, c = Player(), Player(), Player()
    live = a.create(game="fabfib", seats=3)
    for p in (b, c):
        p.post(f"/api/matches/{live['id']}/join/")
    solo = a.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    page = a.get("/api/me/turns/").json()
    turns = page["results"]  # paginated like every list
    assert page["count"] == len(turns)
    mine = {t["match"] for t in turns}
    live_mover = a.view(live["id"])["legal_actions"]
    assert (live["id"] in mine) == bool(live_mover)
    assert (solo["id"] in mine) == bool(a.view(solo["id"])["legal_actions"])
    deadlines = [t["deadline"] for t in turns]
    assert deadlines == sorted(deadlines, key=lambda d: (d is None, d or ""))


def test_replay_and_stats_are_hidden_until_the_end():
    a = Player()
    match = a.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    assert a.get(f"/api/matches/{match['id']}/replay/").status_code == 404
    assert a.get(f"/api/matches/{match['id']}/stats/").status_code == 404


def test_views_carry_an_etag_and_answer_304_when_unchanged():
    a = Player()
    match = a.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    first = a.get(f"/api/matches/{match['id']}/")
    tag = first["ETag"]
    assert a.get(f"/api/matches/{match['id']}/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    spectator = Player().get(f"/api/matches/{match['id']}/")
    assert spectator["ETag"] != tag  # computed from each caller's own view


def test_unknown_match_is_404_with_the_error_shape(api_client):
    for path in ("/api/matches/00000000-0000-0000-0000-000000000000/", "/api/matches/xyz/events/"):
        response = api_client.get(path)
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_in_two_tribes_a_person_takes_two_opposite_seats_and_sees_each():
    a, b = Player(), Player()
    match = a.create(game="skull", seats=6, options={"two_tribes": True})
    assert [s["position"] for s in match["seats"] if s["user"]] == [0, 3]
    joined = b.post(f"/api/matches/{match['id']}/join/").json()
    assert joined["you"]["seats"] == [1, 4]
    assert a.post(f"/api/matches/{match['id']}/join/").status_code == 409
    started = a.post(f"/api/matches/{match['id']}/start/").json()
    assert started["seat_count"] == 4 and started["status"] == "active"
    assert [s["user"]["id"] if s["user"] else None for s in started["seats"]] == [
        a.user.pk,
        b.user.pk,
        a.user.pk,
        b.user.pk,
    ]
    for seat in (0, 2):
        view = a.get(f"/api/matches/{match['id']}/?seat={seat}").json()
        assert view["you"]["seat"] == seat and view["view"]["seat"] == seat
    assert a.get(f"/api/matches/{match['id']}/?seat=1").status_code == 403
    final = play_to_the_end(match["id"], [a, b], random.Random(3))
    assert final["status"] == "finished"
