"""The OpenAPI schema says precisely what the server does, checked through the API.

- every response of whole matches of every game and variant (views, actions, events, lists,
  the inbox, replays, statistics) and every kind of error fits the component the operation
  documents for its status, and no undocumented status comes back;
- what the schema allows the server accepts, and what it forbids the server refuses (the
  cases schemathesis found): typed action bodies, strict types, empty strings, negative seats,
  boolean query parameters, per-game seat counts, path ids;
- conditional GETs (ETag, If-None-Match, 304) and the paginated inbox are documented and work.

``test_schemathesis.py`` fuzzes the same contract; these are the readable, deterministic cases.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from api.play import queries as s
from games.engine import registry
from games.engine.bots import bot_levels, random_action

from .helpers import Player
from .openapi_validation import assert_fits, document

pytestmark = pytest.mark.django_db(transaction=True)

MATCH = "/api/matches/{match_id}/"


def operation(path: str, method: str) -> dict[str, Any]:
    return document()["paths"][path][method.lower()]


def fits(response: Any, path: str, method: str = "get") -> Any:
    """``response`` has a status the operation documents, and its body fits that status's
    schema. Returns the body."""
    documented = operation(path, method)["responses"]
    status = str(response.status_code)
    assert status in documented, f"{method.upper()} {path} answered undocumented {status}"
    content = documented[status].get("content")
    if content is None:
        assert not response.content, f"{status} is documented without a body"
        return None
    body = response.json()
    component = content["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert_fits(component, body)
    return body


# --- Whole matches -------------------------------------------------------------------------

#: One short match per game and variant: (game, seats, options, seats the human plays).
#: The variants beyond one match per game are in the slow tier (CI runs them).
MATCHES = [
    ("fabfib", 3, {"life": 3}),
    ("fibber", 2, {"max_plays": 50}),
    pytest.param("fibber", 3, {"variant": "easy"}, marks=pytest.mark.slow),
    ("fibbers_dice", 3, {"points": 1}),
    ("skull", 3, {}),
    pytest.param("skull", 7, {"two_sets": True}, marks=pytest.mark.slow),
    pytest.param("skull", 4, {"two_tribes": True}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("game", "seats", "options"), MATCHES, ids=lambda v: str(v))
def test_every_response_of_a_whole_match_fits_the_schema(game, seats, options):
    rng = random.Random(f"{game}{seats}{options}")
    me = Player("Me")
    places = len(registry.get(game).places(seats, options))
    bots = ["random"] * (places - 1)
    created = me.post(
        "/api/matches/",
        {"game": game, "seats": seats, "options": options, "bots": bots, "time_control": "solo"},
    )
    match_id = fits(created, "/api/matches/", "post")["id"]
    url = f"/api/matches/{match_id}/"
    after = 0
    for _ in range(3000):
        body = fits(me.get(url), MATCH)
        feed = fits(me.get(f"{url}events/?after={after}"), MATCH + "events/")
        after = feed["last_seq"] if not feed["more"] else feed["events"][-1]["seq"]
        if body["status"] != "active":
            break
        seat = body["you"]["seat"]
        if not body["legal_actions"]:  # two_tribes: maybe the other seat acts
            other = next(p for p in body["you"]["seats"] if p in body["to_act"])
            seat = other
            body = fits(me.get(f"{url}?seat={seat}"), MATCH)
        action = random_action(body["legal_actions"], rng)
        sent = {**action, "expected_version": body["version"]}
        fits(me.post(f"{url}actions/?seat={seat}", sent), MATCH + "actions/", "post")
    assert body["status"] == "finished"
    record = fits(me.get(f"{url}replay/"), MATCH + "replay/")
    last = len(record["steps"])
    steps = MATCH + "replay/steps/{n}/"
    for n in sorted({0, 1, last // 2, last}):
        assert fits(me.get(f"{url}replay/steps/{n}/"), steps)["matched"] is True
    assert fits(me.get(f"{url}replay/steps/{last + 1}/"), steps)["error"]["code"] == "not_found"
    assert fits(me.get(f"{url}replay/steps/x/"), steps)["error"]["code"] == "invalid"
    fits(me.get(f"{url}stats/"), MATCH + "stats/")
    fits(APIClient().get(url), MATCH)  # the spectator's view
    fits(me.get("/api/matches/?mine=true&status=finished"), "/api/matches/")
    fits(me.get("/api/me/turns/"), "/api/me/turns/")


def test_lobby_lists_and_the_inbox_fit_the_schema():
    me, other = Player(), Player()
    for game in registry.game_ids():
        lo, _ = s.seat_span(registry.get(game))
        lobby = fits(
            me.post("/api/matches/", {"game": game, "seats": lo + 1}), "/api/matches/", "post"
        )
        fits(other.post(f"/api/matches/{lobby['id']}/join/"), MATCH + "join/", "post")
    fits(other.get("/api/matches/"), "/api/matches/")
    fits(me.get("/api/matches/?mine=1&game=skull"), "/api/matches/")
    fits(me.get("/api/me/turns/?limit=1&offset=0"), "/api/me/turns/")


# --- Errors --------------------------------------------------------------------------------


def test_every_kind_of_error_fits_its_documented_schema(monkeypatch):
    me, second, stranger = Player(), Player(), Player()
    lobby = me.create(game="fabfib", seats=3)
    url = f"/api/matches/{lobby['id']}/"
    fits(me.post(url + "actions/", {"type": "fly"}), MATCH + "actions/", "post")  # 400
    fits(APIClient().post(url + "actions/", {"type": "call"}), MATCH + "actions/", "post")  # 401
    fits(stranger.post(url + "leave/"), MATCH + "leave/", "post")  # 403
    fits(me.get("/api/matches/not-a-uuid/"), MATCH)  # 404
    fits(me.post(url + "join/"), MATCH + "join/", "post")  # 409 (seated already)
    big = json.dumps({"type": "call", "pad": "x" * 100_000})
    too_large = me.client.post(url + "actions/", big, content_type="application/json")
    assert fits(too_large, MATCH + "actions/", "post")["error"]["code"] == "payload_too_large"
    form = me.client.post(url + "join/", "invite_code=x", content_type="text/plain")
    assert fits(form, MATCH + "join/", "post")["error"]["code"] == "unsupported_media_type"
    refused = me.post("/api/matches/", {"game": "fabfib", "seats": 3, "bots": ["random"] * 3})
    assert fits(refused, "/api/matches/", "post")["error"]["code"] == "invalid_options"  # 422
    third = Player()
    for player in (second, third):
        player.post(url + "join/")  # full: the match starts
    players = (me, second, third)
    mover = next(p for p in players if p.view(lobby["id"])["legal_actions"])
    idle = next(p for p in players if p is not mover)
    version = mover.view(lobby["id"])["version"]
    stale = mover.post(url + "actions/", {"type": "call", "expected_version": version + 1})
    assert fits(stale, MATCH + "actions/", "post")["error"]["code"] == "stale_version"
    illegal = mover.post(url + "actions/", {"type": "place", "card": "skull"})
    assert fits(illegal, MATCH + "actions/", "post")["error"]["code"] == "illegal_action"
    not_yours = idle.post(url + "actions/", {"type": "call"})
    assert fits(not_yours, MATCH + "actions/", "post")["error"]["code"] == "forbidden"
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"guest": "1/hour"})
    client = APIClient()
    client.post("/api/auth/guest/", {}, format="json")
    throttled = client.post("/api/auth/guest/", {}, format="json")
    assert throttled["Retry-After"] and fits(throttled, "/api/auth/guest/", "post")


# --- Accepted exactly as documented -------------------------------------------------------


def test_strict_types_no_coercion():
    client = APIClient()
    assert client.post("/api/auth/guest/", {"display_name": 0}, format="json").status_code == 400
    assert client.post("/api/auth/guest/", {"display_name": ""}, format="json").status_code == 201
    me = Player()
    for bad in ({"game": "fabfib", "seats": "3"}, {"game": "fabfib", "seats": 3, "join": 1}):
        assert me.post("/api/matches/", bad).status_code == 400, bad
    # JSON Schema reads 3.0 as the integer 3.
    assert me.post("/api/matches/", {"game": "fabfib", "seats": 3.0}).status_code == 201


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("mine=true", 200),
        ("mine=false", 200),
        ("mine=1", 200),
        ("mine=0", 200),
        ("mine=null", 400),
        ("mine=yes", 400),
        ("mine=", 400),
        ("game=", 400),
        ("game=chess", 400),
        ("status=over", 400),
        ("limit=0", 400),
        ("limit=201", 400),
        ("offset=-1", 400),
    ],
)
def test_list_query_parameters_are_exactly_the_documented_ones(query, status):
    assert Player().get(f"/api/matches/?{query}").status_code == status


def test_empty_strings_negative_numbers_and_empty_actions_are_what_the_schema_says():
    me = Player()
    match = me.create(game="fabfib", seats=3)
    url = f"/api/matches/{match['id']}/"
    schemas = document()["components"]["schemas"]
    assert schemas["JoinIn"]["properties"]["invite_code"]["minLength"] == 1
    assert Player().post(url + "join/", {"invite_code": ""}).status_code == 400
    beyond = f"seat={s.MAX_SEATS}"  # the largest table has seats 0 to MAX_SEATS - 1
    for query in ("seat=-1", "after=-1", beyond, "after=1e3", "wait=31", "wait=nan"):
        assert me.get(url + "events/?" + query).status_code == 400, query
    assert me.get(url + "events/?after=0&wait=0.5").status_code == 200
    parameters = {p["name"]: p["schema"] for p in operation(MATCH + "events/", "get")["parameters"]}
    assert parameters["after"]["minimum"] == 0 and parameters["seat"]["minimum"] == 0
    assert me.post(url + "actions/", {}).status_code == 400
    assert operation(MATCH + "actions/", "post")["requestBody"]["required"] is True


def test_seat_counts_and_bot_levels_are_documented_per_game():
    schemas = document()["components"]["schemas"]
    variants = schemas["MatchCreateIn"]["discriminator"]["mapping"]
    assert set(variants) == set(registry.game_ids())
    for game, target in variants.items():
        variant = schemas[target.rsplit("/", 1)[-1]]
        lo, hi = s.seat_span(registry.get(game))
        seats = variant["properties"]["seats"]
        assert (seats["minimum"], seats["maximum"]) == (lo, hi), game
        assert schemas["BotLevel"]["enum"] == bot_levels(game)
        me = Player()
        assert me.post("/api/matches/", {"game": game, "seats": lo - 1}).status_code == 400
        assert me.post("/api/matches/", {"game": game, "seats": hi + 1}).status_code == 400


def test_path_ids_are_uuids_and_anything_else_is_a_json_404():
    """Match ids are UUIDs, player ids integers, games an enum of the registry, replay steps
    whole numbers from 0."""
    expected = {
        "match_id": {"type": "string", "format": "uuid"},
        "n": {"type": "integer", "minimum": 0},
        "tournament_id": {"type": "string", "format": "uuid"},
        "player_id": {"type": "integer"},
        "notification_id": {"type": "integer"},
        "webhook_id": {"type": "integer"},
        "ticket_id": {"type": "integer"},
        "challenge_id": {"type": "integer"},
        "subscription_id": {"type": "integer"},
        "device_id": {"type": "integer"},
        "export_id": {"type": "string", "format": "uuid"},
        "session_id": {"type": "string", "format": "uuid"},
        "game": {"type": "string", "enum": registry.game_ids()},
    }
    for path, methods in document()["paths"].items():
        for op in methods.values():
            for parameter in op.get("parameters", []):
                if parameter["in"] == "path":
                    assert parameter["schema"] == expected[parameter["name"]], path
    response = Player().get("/api/matches/12345/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_conditional_get_is_documented_and_works():
    op = operation(MATCH, "get")
    assert "If-None-Match" in {p["name"] for p in op["parameters"] if p["in"] == "header"}
    assert {"ETag", "Cache-Control"} <= set(op["responses"]["200"]["headers"])
    assert "ETag" in op["responses"]["304"]["headers"] and "content" not in op["responses"]["304"]
    me = Player()
    match = me.create(game="fabfib", seats=3)
    first = me.get(f"/api/matches/{match['id']}/")
    again = me.get(f"/api/matches/{match['id']}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"] and not again.content


def test_my_turns_is_paginated_like_every_list():
    me = Player()
    for _ in range(3):
        me.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    page = me.get("/api/me/turns/?limit=2").json()
    assert page["count"] >= 2 and len(page["results"]) == 2 and page["next"]
    rest = me.get(page["next"]).json()
    assert rest["previous"] and len(rest["results"]) == page["count"] - 2
    assert {p["name"] for p in operation("/api/me/turns/", "get")["parameters"]} == {
        "limit",
        "offset",
    }


def test_every_operation_documents_its_errors_with_the_error_schema():
    errors = {400: "InvalidError", 401: "NotAuthenticatedError", 403: "ForbiddenError"}
    errors |= {404: "NotFoundError", 409: "ConflictError", 413: "PayloadTooLargeError"}
    errors |= {415: "UnsupportedMediaTypeError", 422: "RefusedError", 429: "ThrottledError"}
    public = {"auth_guest_create", "auth_register", "auth_login"}
    for path, methods in document()["paths"].items():
        for method, op in methods.items():
            responses = op["responses"]
            for status, component in errors.items():
                if str(status) in responses:
                    ref = responses[str(status)]["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/" + component), (path, method, status)
            if op["operationId"] not in public:
                assert "401" in responses, (path, method)
            if "requestBody" in op:
                assert {"400", "413", "415"} <= set(responses), (path, method)
            if "{match_id}" in path:
                assert "404" in responses, (path, method)
