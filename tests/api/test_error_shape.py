"""Every response under ``/api/`` uses the one JSON error shape, whatever produced it: the events
endpoint (a plain async Django view) answers other methods with a JSON 405 and ``Allow`` instead of
a CSRF 403 page; unmatched paths get the JSON 404; every 405 carries ``Allow``; Django's own errors
(a SuspiciousOperation, an unhandled exception) are JSON under ``/api/``, in DEBUG too, while pages
outside ``/api/`` (the admin) keep Django's HTML."""

from __future__ import annotations

import pytest
from django.core.exceptions import SuspiciousOperation
from django.test import Client

from games.reads import lists

from .helpers import Player, api_routes, assert_error, db_fingerprint

ROUTES = api_routes()

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> Player:
    return Player("Shape")


@pytest.fixture
def match_id(player: Player) -> str:
    return player.create(game="fabfib", seats=3, bots=["random", "random"])["id"]


def allowed(response) -> list[str]:
    return [m.strip() for m in response.get("Allow", "").split(",") if m.strip()]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "FOO"])
def test_other_methods_on_the_events_endpoint_are_a_json_405_with_allow(player, match_id, method):
    """These were a CSRF 403 HTML page (and a 405 without Allow for the rest)."""
    path = f"/api/matches/{match_id}/events/"
    for client in (Client(enforce_csrf_checks=True), player.client):
        client.cookies["csrftoken"] = "x" * 32  # a cookie session's CSRF must not come into it
        response = client.generic(method, path, b"{}", content_type="application/json")
        assert_error(response, 405, "method_not_allowed")
        assert allowed(response) == ["GET", "HEAD"]
    assert Client().head(path).status_code == 200


def test_csrf_still_guards_the_admin():
    response = Client(enforce_csrf_checks=True).post(
        "/admin/login/", {"username": "a", "password": "b"}
    )
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("method", ["TRACE", "FOO", "PROPFIND"])
def test_unknown_methods_are_a_405_with_allow_on_every_route(player, match_id, method):
    for route in ROUTES:
        path = "/" + route.replace("<str:match_id>", match_id)
        response = player.client.generic(method, path)
        assert_error(response, 405, "method_not_allowed")
        assert allowed(response) and method not in allowed(response), (path, allowed(response))


@pytest.mark.parametrize("debug", [False, True])
def test_unmatched_api_paths_are_a_json_404(player, settings, debug):
    settings.DEBUG = debug
    for path in ("/api/nope/", "/api/", "/api/matches/a/b/c/", "/api/auth/"):
        for client in (Client(), player.client):
            for method in ("GET", "POST", "DELETE", "TRACE"):
                response = client.generic(method, path)
                error = assert_error(response, 404, "not_found")
                assert error["message"] == "There is no API endpoint at this path."


def test_outside_the_api_django_pages_are_left_alone():
    response = Client().get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_the_docs_page_answers_other_methods_with_a_json_405():
    """OPTIONS on the Swagger page was a 500: its template renderer cannot draw DRF's answer."""
    assert Client().get("/api/docs/").status_code == 200
    for method in ("OPTIONS", "POST", "DELETE"):
        response = Client().generic(method, "/api/docs/")
        assert_error(response, 405, "method_not_allowed")
        assert allowed(response) == ["GET", "HEAD"]  # the HTML 405's headers are kept
        assert response["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("debug", [False, True])
def test_a_crash_under_the_api_is_a_json_500(player, monkeypatch, settings, debug):
    settings.DEBUG = debug

    def crash(**kwargs):
        raise RuntimeError("a bug, with a secret in it")

    monkeypatch.setattr(lists, "read_turns", crash)
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {player.token}")
    response = client.get("/api/me/turns/")
    error = assert_error(response, 500, "server_error")
    assert error["message"] == "Internal Server Error."
    assert b"secret" not in response.content


@pytest.mark.parametrize("debug", [False, True])
def test_a_suspicious_operation_under_the_api_is_a_json_400(player, monkeypatch, settings, debug):
    settings.DEBUG = debug

    def suspicious(**kwargs):
        raise SuspiciousOperation("something odd")

    monkeypatch.setattr(lists, "read_turns", suspicious)
    before = db_fingerprint()
    assert_error(player.get("/api/me/turns/"), 400, "invalid")
    assert db_fingerprint() == before
