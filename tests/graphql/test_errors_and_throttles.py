"""Refusals through GraphQL carry REST's code and message (in ``errors[].extensions``), change
nothing, and the throttles and idempotency keys are the same budget and the same records in
both APIs."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from tests.api.helpers import Player

from .helpers import GqlPlayer, post

pytestmark = pytest.mark.django_db(transaction=True)

GUEST = "mutation { guest { token } }"


def rest_error(response) -> dict:
    return response.json()["error"]


def gql_error(answer: dict) -> dict:
    (error,) = answer["errors"]
    return {"message": error["message"], **error["extensions"]}


def both():
    """A live Fab Fib match; REST and GraphQL clients of the same three players."""
    rest = [Player(f"P{i}") for i in range(3)]
    match = rest[0].create(game="fabfib", seats=3)
    for p in rest[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    gql = [GqlPlayer(token=p.token) for p in rest]
    return match["id"], rest, gql


def test_action_refusals_have_the_same_code_and_reason_and_change_nothing():
    match_id, rest, gql = both()
    views = [p.view(match_id) for p in rest]
    turn = next(i for i, v in enumerate(views) if v["legal_actions"])
    other = (turn + 1) % 3
    version = views[turn]["version"]
    cases = [
        (turn, {"type": "no_such_action"}, {}),  # illegal
        (turn, {"type": "claim", "value": "abc"}, {}),  # illegal value
        (other, {"type": "call"}, {}),  # not your turn
        (turn, {"type": "call"}, {"expected_version": version + 5}),  # stale
        (turn, ["not", "an", "object"], {}),  # not an object
        (turn, {"no": "type"}, {}),  # no type
    ]
    for seat, action, extra in cases:
        body = {**action, **extra} if isinstance(action, dict) else action
        expected = rest_error(rest[seat].act(match_id, body))
        answer = gql[seat].act(match_id, action, v=extra.get("expected_version"))
        assert answer["data"]["act"] is None
        assert gql_error(answer) == expected, (action, expected)
    assert rest[turn].view(match_id)["version"] == version  # nothing changed
    # A seat that is not yours, and a negative seat: REST's query-parameter rule.
    for seat in (other, -1):
        answer = gql[turn].act(match_id, {"type": "call"}, seat=seat)
        url = f"/api/matches/{match_id}/actions/?seat={seat}"
        assert gql_error(answer) == rest_error(rest[turn].post(url, {"type": "call"}))


def test_validation_errors_have_the_same_code_message_and_fields():
    player = Player()
    gql = GqlPlayer(token=player.token)
    cases = [
        ({"game": "fabfib", "seats": 99}, "{game: fabfib, seats: 99}"),
        (
            {"game": "fabfib", "seats": 3, "bots": ["genius"]},
            '{game: fabfib, seats: 3, bots: ["genius"]}',
        ),
        (
            {"game": "fabfib", "seats": 3, "options": {"life": 0}},
            "{game: fabfib, seats: 3, options: {life: 0}}",
        ),
        (
            {"game": "skull", "seats": 3, "time_control": "solo"},
            "{game: skull, seats: 3, timeControl: solo}",
        ),
    ]
    for body, literal in cases:
        expected = rest_error(player.post("/api/matches/", body))
        answer = gql.run(f"mutation {{ createMatch(input: {literal}) {{ id }} }}")
        assert gql_error(answer) == expected, body
    expected = rest_error(
        player.client.post("/api/auth/register/", {"username": "x", "password": "1"}, format="json")
    )
    answer = post(Client(), 'mutation { register(username: "x", password: "1") { token } }').json()
    assert gql_error(answer) == expected


def test_idempotency_keys_are_shared_with_rest_and_apply_once():
    match_id, rest, gql = both()
    views = [p.view(match_id) for p in rest]
    turn = next(i for i, v in enumerate(views) if v["legal_actions"])
    entry = views[turn]["legal_actions"][0]
    action = {"type": entry["type"], **{k: d["one_of"][0] for k, d in entry["params"].items()}}
    first = rest[turn].act(match_id, action, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 200
    again = gql[turn].act(match_id, action, key="k-1")
    assert "errors" not in again
    assert again["data"]["act"]["version"] == first.json()["version"]
    assert rest[turn].view(match_id)["version"] == first.json()["version"]  # applied once
    other = {"type": "call"} if action["type"] != "call" else {"type": "accept"}  # well-formed
    reused = gql[turn].act(match_id, other, key="k-1")
    assert gql_error(reused)["code"] == "idempotency_key_reused"
    too_long = gql[turn].act(match_id, action, key="k" * 129)
    assert gql_error(too_long)["code"] == "invalid"


def test_throttles_are_one_budget_for_rest_and_graphql(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"guest": "3/hour"})
    client = Client()
    assert post(client, GUEST).json()["data"]["guest"]["token"]
    assert client.post("/api/auth/guest/", {}, content_type="application/json").status_code == 201
    assert post(client, GUEST).json()["data"]["guest"]["token"]
    rest = client.post("/api/auth/guest/", {}, content_type="application/json")
    assert rest.status_code == 429
    answer = post(client, GUEST).json()
    error = gql_error(answer)
    assert error["code"] == "throttled" and error["retry_after"] > 0
    assert error["message"] == rest.json()["error"]["message"].replace(
        str(rest.json()["error"]["retry_after"]), str(error["retry_after"])
    )


def test_actions_are_throttled_per_user_across_both_apis(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"actions": "2/min"})
    match_id, rest, gql = both()
    assert rest[0].act(match_id, {"type": "nothing"}).status_code in (400, 403, 422)
    assert gql_error(gql[0].act(match_id, {"type": "nothing"}))["code"] != "throttled"
    assert gql_error(gql[0].act(match_id, {"type": "nothing"}))["code"] == "throttled"
    assert rest[0].act(match_id, {"type": "nothing"}).status_code == 429
    # Another user has a budget of their own.
    assert gql_error(gql[1].act(match_id, {"type": "nothing"}))["code"] != "throttled"


def test_a_private_match_is_not_found_by_outsiders_in_every_query():
    host = Player()
    private = host.create(game="fabfib", seats=3, visibility="private")["id"]
    outsider = GqlPlayer()
    for document in (
        "query($id: ID!) { match(id: $id) { id } }",
        "query($id: ID!) { events(matchId: $id) { lastSeq } }",
        "query($id: ID!) { replay(matchId: $id) { seed } }",
        "query($id: ID!) { matchStats(matchId: $id) { matchId } }",
    ):
        hidden = outsider.run(document, id=private)
        missing = outsider.run(document, id="00000000-0000-0000-0000-000000000000")
        assert hidden == missing and gql_error(hidden)["code"] == "not_found"
