"""Hostile input outside the body is refused under ``/api/`` before any view or query runs
(``api.middleware.InputGuardMiddleware``): a NUL (PostgreSQL text cannot hold
it: these were 500s there) in the query string, the path or a header is 400 ``invalid``, and so
are too many query parameters, a Host we do not serve and a Content-Length that is not a number;
a declared body over the limit is 413 on every endpoint, and a path that only lacks its slash is
a JSON 404 naming the right one (not a redirect that drops a POST body, nor a 500 in DEBUG)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Event, IdempotencyRecord

from .helpers import Player, assert_error, db_fingerprint

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> Player:
    return Player("Guard")


@pytest.fixture
def match_id(player: Player) -> str:
    return player.create(game="fabfib", seats=3, bots=["random", "random"])["id"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("game=%00", "game"),
        ("game=fab%00fib", "game"),
        ("mine=1&status=%00", "status"),
        ("mine=1&game=%00", "game"),
        ("limit=10&offset=%00", "offset"),
    ],
)
def test_a_nul_in_a_query_parameter_is_a_400(player, query, field):
    for client in (Client(), player.client):
        error = assert_error(client.get(f"/api/matches/?{query}"), 400, "invalid")
        assert error["field"] == field and "NUL" in error["message"]


def test_a_nul_in_a_query_parameter_name_is_a_400():
    assert_error(Client().get("/api/matches/?%00=1"), 400, "invalid")


def test_a_nul_in_the_query_of_any_endpoint_is_a_400(player, match_id):
    for path in (
        f"/api/matches/{match_id}/",
        f"/api/matches/{match_id}/events/",
        "/api/me/turns/",
        "/api/me/",
    ):
        assert_error(player.get(f"{path}?seat=%00"), 400, "invalid")


def test_a_nul_in_the_path_is_a_400(player, match_id):
    for path in ("/api/matches/%00/", f"/api/matches/{match_id}%00/", "/api/me%00/"):
        error = assert_error(player.get(path), 400, "invalid")
        assert "path" in error["message"]


def test_a_nul_in_the_idempotency_key_is_a_400_and_nothing_is_stored(player, match_id):
    before = db_fingerprint()
    events = Event.objects.filter(match_id=match_id).count()
    response = player.act(match_id, {"type": "call"}, HTTP_IDEMPOTENCY_KEY="key\x00")
    error = assert_error(response, 400, "invalid")
    assert error["field"] == "Idempotency-Key"
    assert db_fingerprint() == before
    assert not IdempotencyRecord.objects.exists()
    assert Event.objects.filter(match_id=match_id).count() == events


def test_a_nul_in_the_token_is_a_400(match_id):
    for header in ("Bearer \x00", "Token abc\x00def"):
        client = Client(HTTP_AUTHORIZATION=header)
        error = assert_error(client.get(f"/api/matches/{match_id}/"), 400, "invalid")
        assert error["field"] == "Authorization"


def test_too_many_query_parameters_are_a_json_400():
    query = "&".join(f"p{i}=1" for i in range(1001))
    error = assert_error(Client().get(f"/api/matches/?{query}"), 400, "invalid")
    assert "query parameters" in error["message"]


def test_a_host_we_do_not_serve_is_a_json_400(settings):
    settings.ALLOWED_HOSTS = ["api.example"]
    assert Client(HTTP_HOST="api.example").get("/api/matches/").status_code == 200
    error = assert_error(Client(HTTP_HOST="evil.example").get("/api/matches/"), 400, "invalid")
    assert "Host" in error["message"]


def test_a_declared_body_over_the_limit_is_a_413_everywhere(player, match_id, settings):
    too_big = str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    for method, path in (
        ("POST", "/api/auth/guest/"),
        ("POST", f"/api/matches/{match_id}/start/"),  # reads no body at all
        ("GET", "/api/me/"),
        ("GET", f"/api/matches/{match_id}/events/"),
    ):
        response = player.client.generic(method, path, b"{}", CONTENT_LENGTH=too_big)
        assert_error(response, 413, "payload_too_large")


@pytest.mark.parametrize("length", ["-1", "abc", "1e3"])
def test_a_content_length_that_is_not_a_number_is_a_400(player, length):
    response = player.client.generic("POST", "/api/auth/guest/", b"{}", CONTENT_LENGTH=length)
    assert "Content-Length" in assert_error(response, 400, "invalid")["message"]


def test_content_length_and_transfer_encoding_together_are_a_400(player):
    response = player.client.generic(
        "POST", "/api/auth/guest/", b"{}", HTTP_TRANSFER_ENCODING="chunked"
    )
    assert_error(response, 400, "invalid")


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE"])
def test_a_path_without_its_slash_is_a_json_404_naming_the_right_one(
    player, match_id, settings, debug, method
):
    """Django's APPEND_SLASH answered a 301 (a POST body lost) or, in DEBUG, a 500."""
    settings.DEBUG = debug
    before = db_fingerprint()
    for path in ("/api/matches", f"/api/matches/{match_id}/actions", "/api/auth/guest"):
        response = player.client.generic(method, path, b"{}", content_type="application/json")
        error = assert_error(response, 404, "not_found")
        assert f"{path}/" in error["message"]
    error = assert_error(player.client.generic(method, "/api/nothing"), 404, "not_found")
    assert "did you mean" not in error["message"]
    assert db_fingerprint() == before


def test_refusals_carry_the_cors_headers(settings):
    """The guard runs after CORS, so a browser can read why it was refused."""
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example"]
    response = Client(HTTP_ORIGIN="https://app.example").get("/api/matches/?game=%00")
    assert_error(response, 400, "invalid")
    assert response["Access-Control-Allow-Origin"] == "https://app.example"


def test_ordinary_requests_are_untouched(player, match_id):
    assert player.get("/api/matches/?game=fabfib&limit=5").status_code == 200
    assert player.get(f"/api/matches/{match_id}/?seat=0").status_code in (200, 403)
    assert player.get("/api/me/").json()["display_name"] == "Guard"
    assert Client().get("/healthz/").status_code == 200
