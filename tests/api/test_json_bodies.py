"""JSON bodies are bounded and storable on every endpoint that reads one:
nesting deeper than ``MAX_JSON_DEPTH`` is 400 ``malformed_request`` (a thousand levels used to
be a 500 RecursionError in the serializers), and a NUL or a lone surrogate in any key or value
at any depth is 400 ``invalid`` (NUL used to be a 500 on PostgreSQL). Nothing is written."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from rest_framework.test import APIClient

from api.play.body import MAX_JSON_DEPTH, check_tree
from kernel.errors import Invalid, MalformedRequest

from .helpers import Player, assert_error, db_fingerprint

pytestmark = pytest.mark.django_db


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.fixture
def table() -> tuple[Player, str, str]:
    """A player seated at an active match (against bots), and an open lobby of someone else's."""
    player = Player("Deep")
    active = player.create(game="fabfib", seats=3, bots=["random", "random"])
    lobby = Player("Host").create(game="fabfib", seats=3)
    return player, active["id"], lobby["id"]


#: Every endpoint that reads a JSON body: (path, needs a token, body with ``{}`` where a
#: hostile value goes).
JSON_ENDPOINTS = [
    ("/api/auth/guest/", False, '{"display_name": %s}'),
    ("/api/auth/register/", False, '{"username": "deep", "password": "x", "display_name": %s}'),
    ("/api/auth/login/", False, '{"username": %s, "password": "x"}'),
    ("/api/auth/upgrade/", True, '{"username": "deep", "password": %s}'),
    ("/api/matches/", True, '{"game": "fabfib", "seats": 3, "bots": %s}'),
    ("/api/matches/", True, '{"game": "fabfib", "seats": 3, "options": {"variant": %s}}'),
    ("/api/matches/join/", True, '{"invite_code": %s}'),
    ("/api/matches/{lobby}/join/", True, '{"invite_code": %s}'),
    ("/api/matches/{active}/bots/", True, '{"level": %s, "count": 1}'),
    ("/api/matches/{active}/actions/", True, '{"type": "claim", "value": %s}'),
    ("/api/matches/{active}/actions/", True, '{"type": %s}'),
]


def post(table: tuple[Player, str, str], path: str, auth: bool, body: bytes) -> Any:
    player, active, lobby = table
    client = player.client if auth else APIClient()
    url = path.format(active=active, lobby=lobby)
    return client.generic("POST", url, body, content_type="application/json")


@pytest.mark.parametrize(("path", "auth", "template"), JSON_ENDPOINTS)
def test_a_thousand_nested_arrays_are_a_400_on_every_json_endpoint(table, path, auth, template):
    before = db_fingerprint()
    response = post(table, path, auth, (template % nested(1000)).encode())
    error = assert_error(response, 400, "malformed_request")
    assert f"deeper than {MAX_JSON_DEPTH} levels" in error["message"]
    assert db_fingerprint() == before


@pytest.mark.parametrize(("path", "auth", "template"), JSON_ENDPOINTS)
def test_nul_at_any_depth_is_a_400_on_every_json_endpoint(table, path, auth, template):
    before = db_fingerprint()
    for value in ('"a\\u0000b"', '["ok", {"k": "\\u0000"}]', '{"\\u0000": 1}'):
        response = post(table, path, auth, (template % value).encode())
        error = assert_error(response, 400, "invalid")
        assert "NUL" in error["message"] and "\x00" not in error["message"]
        assert "\x00" not in error.get("field", "")
    assert db_fingerprint() == before


@pytest.mark.parametrize(("path", "auth", "template"), JSON_ENDPOINTS)
def test_a_lone_surrogate_is_a_400_invalid_on_every_json_endpoint(table, path, auth, template):
    before = db_fingerprint()
    for value in ('"\\ud800"', '["\\udfff"]', '{"\\ud800x": 1}', '"\\ud800\\u0041"'):
        response = post(table, path, auth, (template % value).encode())
        assert "surrogate" in assert_error(response, 400, "invalid")["message"]
    assert db_fingerprint() == before


def test_the_error_names_where_the_nul_is(table):
    body = {"type": "claim", "value": {"cards": [1, "\x00"]}}
    response = post(table, "/api/matches/{active}/actions/", True, orjson.dumps(body))
    error = assert_error(response, 400, "invalid")
    assert error["field"] == "value.cards[1]"
    body = {"game": "fabfib", "seats": 3, "options": {"vari\x00ant": "easy"}}
    error = assert_error(post(table, "/api/matches/", True, orjson.dumps(body)), 400, "invalid")
    assert error["field"] == "options.vari\ufffdant"  # the NUL itself is never echoed


def test_nesting_up_to_the_limit_reaches_the_serializers(table):
    """32 levels are still read (and refused by validation, not by the parser); 33 are not."""
    template = '{"game": "fabfib", "seats": 3, "bots": %s}'
    at_limit = post(table, "/api/matches/", True, (template % nested(MAX_JSON_DEPTH - 1)).encode())
    fields = assert_error(at_limit, 400, "invalid")["fields"]
    assert any(key == "bots" or key.startswith("bots.") for key in fields), fields
    over = post(table, "/api/matches/", True, (template % nested(MAX_JSON_DEPTH)).encode())
    assert_error(over, 400, "malformed_request")


def test_escaped_text_that_only_looks_hostile_is_fine(table):
    """A backslash before "u0000" or "ud800" is just text; a surrogate pair is one character."""
    response = APIClient().generic(
        "POST",
        "/api/auth/guest/",
        '{"display_name": "\\\\u0000 \\\\ud800 \\ud83d\\ude00"}',
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["user"]["display_name"] == "\\u0000 \\ud800 \U0001f600"


def test_check_tree_is_iterative_and_exact():
    check_tree(orjson.loads(nested(MAX_JSON_DEPTH)))
    check_tree({"a": [{"b": [1, 2.5, None, True, "text"]}]})
    with pytest.raises(MalformedRequest):
        check_tree(orjson.loads(nested(MAX_JSON_DEPTH + 1)))
    with pytest.raises(MalformedRequest):
        check_tree(orjson.loads("[" * 1024 + "]" * 1024))
    with pytest.raises(Invalid):
        check_tree("\x00")
    with pytest.raises(Invalid):
        check_tree([[[{"x": ["\ud800"]}]]])
