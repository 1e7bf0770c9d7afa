"""The lean move path: the plain view answers what its DRF twin answers, and the
optimistic write never stores a move computed from a state that is no longer the match's."""

from __future__ import annotations

import random

import orjson
import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from api import rediscache
from api.throttling import AtomicScopedRateThrottle, redis_client
from games import services
from games.engine.bots import random_action
from games.models import Event, Match
from games.services import optimistic
from games.services.sink import Batch

from .helpers import Player, applied_actions, assert_error, replays_to_stored_state

pytestmark = pytest.mark.django_db(transaction=True)

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the optimistic write is PostgreSQL's"
)


def two_player_match() -> tuple[Player, Player, str]:
    a, b = Player("Ann"), Player("Bob")
    match = a.create(game="fibber", seats=2)
    b.post(f"/api/matches/{match['id']}/join/")
    return a, b, match["id"]


def turn(players: list[Player], match_id: str) -> tuple[Player, Player, dict]:
    """(the player to act, the other, the mover's view)."""
    views = [p.view(match_id) for p in players]
    i = next(i for i, v in enumerate(views) if v["legal_actions"])
    return players[i], players[1 - i], views[i]


def legal(view: dict, seed: int = 1) -> dict:
    return random_action(view["legal_actions"], random.Random(seed))


def twin(settings: object) -> None:
    """Route the moves to the DRF twin (the schema's URL conf holds it at the same path)."""
    settings.ROOT_URLCONF = "api.rest.schema_urls"  # type: ignore[attr-defined]


REFUSALS = [
    ("not your turn", lambda m, view, other: (other, {**legal(view)}, {})),
    ("stale version", lambda m, view, mover: (mover, {**legal(view), "expected_version": 0}, {})),
    ("illegal", lambda m, view, mover: (mover, {"type": "call", "bogus": 1}, {})),
    ("not an action", lambda m, view, mover: (mover, {"type": "fly"}, {})),
    ("not an object", lambda m, view, mover: (mover, [1, 2], {})),
    ("empty", lambda m, view, mover: (mover, None, {})),
    ("bad key", lambda m, view, mover: (mover, legal(view), {"HTTP_IDEMPOTENCY_KEY": "a b"})),
    ("bad seat", lambda m, view, mover: (mover, legal(view), {"QUERY_STRING": "seat=x"})),
    ("not my seat", lambda m, view, mover: (mover, legal(view), {"QUERY_STRING": "seat=7"})),
]


def send(player: Player, path: str, body: object, extra: dict) -> object:
    extra = dict(extra)
    query = extra.pop("QUERY_STRING", "")
    url = path + (f"?{query}" if query else "")
    if body is None:
        return player.client.post(url, content_type="application/json", **extra)
    return player.client.post(url, orjson.dumps(body), content_type="application/json", **extra)


def answer(response: object) -> tuple:
    headers = {k: v for k, v in response.items() if k.lower() != "content-length"}  # type: ignore[attr-defined]
    return response.status_code, response.content, headers  # type: ignore[attr-defined]


def refusal(case: str) -> tuple[str, Player, object, dict]:
    """A fresh match and the refused move ``case`` of REFUSALS: (match id, who sends it, body,
    extra request fields)."""
    a, b, match_id = two_player_match()
    mover, other, view = turn([a, b], match_id)
    who = mover if case != "not your turn" else other
    _, body, extra = dict(REFUSALS)[case](match_id, view, who)
    return match_id, who, body, dict(extra)


@pytest.mark.parametrize("case", [name for name, _ in REFUSALS])
def test_every_refusal_is_what_the_drf_twin_answers(case, settings):
    match_id, who, body, extra = refusal(case)
    path = f"/api/matches/{match_id}/actions/"
    before = Match.objects.get(pk=match_id).version
    lean = answer(send(who, path, body, extra))
    twin(settings)
    drf = answer(send(who, path, body, extra))
    assert lean == drf
    assert 400 <= lean[0] < 500
    assert Match.objects.get(pk=match_id).version == before, "a refusal changes nothing"


def test_unknown_matches_and_what_the_plain_view_hands_over_are_answered_alike(settings):
    a, _b, match_id = two_player_match()
    cases = [
        (a.client, "post", "/api/matches/nope/actions/", {"format": "json", "data": {"type": "x"}}),
        (
            a.client,
            "post",
            "/api/matches/00000000-0000-0000-0000-000000000000/actions/",
            {"format": "json", "data": {"type": "call"}},
        ),
        (a.client, "get", f"/api/matches/{match_id}/actions/", {}),
        (a.client, "options", f"/api/matches/{match_id}/actions/", {}),
        (APIClient(), "post", f"/api/matches/{match_id}/actions/", {"format": "json"}),
        (
            APIClient(HTTP_AUTHORIZATION="Bearer nope"),
            "post",
            f"/api/matches/{match_id}/actions/",
            {"format": "json"},
        ),
        (
            a.client,
            "post",
            f"/api/matches/{match_id}/actions/",
            {"data": "type=call", "content_type": "application/x-www-form-urlencoded"},
        ),
        (
            a.client,
            "post",
            f"/api/matches/{match_id}/actions/",
            {"data": b"{nope", "content_type": "application/json"},
        ),
        (
            a.client,
            "post",
            f"/api/matches/{match_id}/actions/",
            {"data": b'{"type": "call"}', "content_type": "application/json", "HTTP_ACCEPT": "*/*"},
        ),
    ]
    lean = [answer(getattr(c, m)(p, **kw)) for c, m, p, kw in cases]
    twin(settings)
    drf = [answer(getattr(c, m)(p, **kw)) for c, m, p, kw in cases]
    assert lean == drf
    statuses = [status for status, _, _ in lean]
    assert statuses[:8] == [400, 404, 405, 200, 401, 401, 415, 400], statuses
    assert statuses[8] in (403, 422), statuses  # not Ann's turn, or not a legal first move


def test_the_answer_to_a_move_is_the_movers_view_after_it():
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    response = mover.act(match_id, {**legal(view), "expected_version": view["version"]})
    assert response.status_code == 200
    assert response["Allow"] == "POST, OPTIONS"
    assert response.json() == mover.view(match_id)
    assert response.json()["version"] == view["version"] + 1


def test_a_throttled_move_is_429_as_the_twin_says_and_changes_nothing(settings, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"actions": "1/min"})
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    first = mover.act(match_id, {"type": "fly"})
    assert first.status_code == 400
    version = Match.objects.get(pk=match_id).version
    lean = answer(mover.act(match_id, legal(view)))
    assert_error(mover.act(match_id, legal(view)), 429, "throttled")
    twin(settings)
    drf = answer(mover.act(match_id, legal(view)))
    assert lean[0] == drf[0] == 429 and 0 < int(lean[2]["Retry-After"]) <= 60
    assert {k: v for k, v in lean[2].items() if k != "Retry-After"} == {
        k: v for k, v in drf[2].items() if k != "Retry-After"
    }
    assert Match.objects.get(pk=match_id).version == version


@postgres_only
def test_a_move_that_loses_the_race_is_judged_again_on_the_new_state(monkeypatch):
    """Another writer commits between the read and the write: the write stores nothing and
    the move is checked again from a fresh read — here it is no longer the caller's turn."""
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    store = Batch.store

    def other_move_first(batch: Batch) -> bool:
        monkeypatch.setattr(Batch, "store", store)
        services.action_submit(match_id=match_id, user=mover.user, action=legal(view, 2))
        return store(batch)

    monkeypatch.setattr(Batch, "store", other_move_first)
    assert_error(mover.act(match_id, legal(view)), 403, "forbidden")
    assert len(applied_actions(match_id)) == 1
    assert Match.objects.get(pk=match_id).version == view["version"] + 1
    seqs = list(Event.objects.filter(match_id=match_id).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert replays_to_stored_state(match_id)


@postgres_only
def test_a_move_with_a_stale_expected_version_after_a_lost_race_is_409(monkeypatch):
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    store = Batch.store

    def bump_first(batch: Batch) -> bool:
        Match.objects.filter(pk=match_id).update(version=F("version") + 1)
        return store(batch)

    monkeypatch.setattr(Batch, "store", bump_first)
    body = {**legal(view), "expected_version": view["version"]}
    error = assert_error(mover.act(match_id, body), 409, "stale_version")
    assert error["version"] == view["version"] + 1
    assert not applied_actions(match_id)


@postgres_only
def test_a_move_that_keeps_losing_races_takes_the_row_lock(monkeypatch):
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    store = Batch.store
    tries = []

    def always_bumped(batch: Batch) -> bool:
        tries.append(batch.version)
        Match.objects.filter(pk=match_id).update(version=F("version") + 1)
        return store(batch)

    monkeypatch.setattr(Batch, "store", always_bumped)
    response = mover.act(match_id, legal(view))
    assert response.status_code == 200, response.content
    assert len(tries) == optimistic.TRIES
    assert len(applied_actions(match_id)) == 1
    assert response.json()["version"] == view["version"] + optimistic.TRIES + 1
    assert replays_to_stored_state(match_id)


@postgres_only
def test_nothing_is_queued_when_the_write_stores_nothing(monkeypatch):
    """Publish, bot turns and deadline timers follow only a stored move."""
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    published: list[tuple] = []
    monkeypatch.setattr("games.services.eventlog._publish", lambda *a: published.append(a))
    store = Batch.store

    def bump_first(batch: Batch) -> bool:
        Match.objects.filter(pk=match_id).update(version=F("version") + 1)
        stored = store(batch)
        assert not stored and not published
        return stored

    monkeypatch.setattr(Batch, "store", bump_first)
    body = {**legal(view), "expected_version": view["version"]}
    assert_error(mover.act(match_id, body), 409, "stale_version")
    assert published == []
    monkeypatch.setattr(Batch, "store", store)
    assert mover.act(match_id, legal(view)).status_code == 200
    assert published == [(Match.objects.get(pk=match_id).pk, view["version"] + 2)]


def test_a_whole_match_through_the_lean_path_replays_exactly():
    """Every move but the last (the finisher's) is the optimistic write; the log rebuilds the
    stored state exactly and the end goes through the finisher as before."""
    players = [Player() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    rng = random.Random(5)
    for _ in range(2000):
        views = [p.view(match["id"]) for p in players]
        if views[0]["status"] != "active":
            break
        i = next(i for i, v in enumerate(views) if v["legal_actions"])
        response = players[i].act(match["id"], random_action(views[i]["legal_actions"], rng))
        assert response.status_code == 200, response.content
        assert response.json() == players[i].view(match["id"])
    final = Match.objects.get(pk=match["id"])
    assert final.status == "finished" and final.placements
    assert replays_to_stored_state(match["id"])
    seqs = list(Event.objects.filter(match_id=match["id"]).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


# --- The throttle ------------------------------------------------------------------------------


@pytest.mark.skipif(redis_client() is None, reason="needs Redis (CI sets REDIS_URL)")
def test_the_atomic_throttle_counts_like_drfs(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"actions": "3/min"})
    player = Player()
    request = type("R", (), {"user": player.user, "META": {}})()
    view = type("V", (), {"throttle_scope": "actions"})()
    clock = [1000.0]

    def throttle() -> AtomicScopedRateThrottle:
        t = AtomicScopedRateThrottle()
        t.timer = lambda: clock[0]  # type: ignore[method-assign]
        return t

    assert [throttle().allow_request(request, view) for _ in range(3)] == [True] * 3
    refused = throttle()
    assert not refused.allow_request(request, view)
    assert refused.wait() == pytest.approx(60.0)
    clock[0] += 30
    again = throttle()
    assert not again.allow_request(request, view)
    assert again.wait() == pytest.approx(30.0)
    clock[0] += 30.5  # the first three are older than a minute now
    assert throttle().allow_request(request, view)
    other = type("R", (), {"user": Player().user, "META": {}})()
    assert throttle().allow_request(other, view)
    key = AtomicScopedRateThrottle.cache_format % {"scope": "actions", "ident": player.user.pk}
    assert 0 < redis_client().ttl(cache.make_key(key)) <= 60


@pytest.mark.skipif(redis_client() is None, reason="needs Redis (CI sets REDIS_URL)")
def test_a_cached_token_is_checked_with_the_throttle_and_still_ends_at_logout(monkeypatch):
    """A cached token and the rate limit in one script: no separate token lookup."""
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    assert mover.act(match_id, {"type": "fly"}).status_code == 400  # the token is cached now

    def no_lookup(name: str) -> None:
        raise AssertionError(f"looked up {name} apart")

    monkeypatch.setattr(rediscache, "get", no_lookup)
    assert mover.act(match_id, legal(view)).status_code == 200
    monkeypatch.undo()
    assert mover.post("/api/auth/logout/").status_code in (200, 204)
    assert_error(mover.act(match_id, legal(view)), 401)


def test_a_retry_with_the_same_key_gets_the_same_bytes_after_the_match_moved_on():
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    body = {**legal(view), "expected_version": view["version"]}
    first = mover.act(match_id, body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 200
    nxt, _, next_view = turn([a, b], match_id)
    assert nxt.act(match_id, legal(next_view)).status_code == 200  # the match moves on
    again = mover.act(match_id, body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert (again.status_code, again.content) == (200, first.content)
    assert len(applied_actions(match_id)) == 2
    reused = mover.act(match_id, {"type": "call"}, HTTP_IDEMPOTENCY_KEY="k-1")
    assert_error(reused, 422, "idempotency_key_reused")


@postgres_only
def test_a_key_stored_by_another_request_meanwhile_stores_nothing_of_this_one(monkeypatch):
    """The answer's INSERT fails on the key's unique constraint: the whole statement, the move
    included, stores nothing, and the request reads again and finds the key taken."""
    from games.models import IdempotencyRecord

    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    elsewhere = Player().create(game="fibber", seats=2)["id"]
    store = Batch.store

    def key_taken_first(batch: Batch) -> bool:
        monkeypatch.setattr(Batch, "store", store)
        IdempotencyRecord.objects.create(
            user=mover.user,
            key="k-1",
            match_id=elsewhere,
            request_hash="x",
            status_code=200,
            body="{}",
        )
        return store(batch)

    monkeypatch.setattr(Batch, "store", key_taken_first)
    response = mover.act(match_id, legal(view), HTTP_IDEMPOTENCY_KEY="k-1")
    assert_error(response, 422, "idempotency_key_reused")
    assert not applied_actions(match_id)
    assert Match.objects.get(pk=match_id).version == view["version"]
