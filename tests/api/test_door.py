"""The API's WSGI entry (``api.fast.entry``) and the plain match view: what goes
through the short handler is answered exactly as Django's full handler answers it, and the
plain ``GET /api/matches/{id}/`` answers what its DRF twin answers."""

from __future__ import annotations

import io
import sys
from typing import Any

import orjson
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.urls import get_resolver
from rest_framework.test import APIClient

from api.fast import entry
from api.fast.entry import Entry, takes_fast_lane
from games.models import Match

from .helpers import Player, wsgi_call
from .test_lean_move import REFUSALS, legal, refusal, turn, two_player_match

pytestmark = pytest.mark.django_db(transaction=True)


def environ(
    method: str,
    path: str,
    token: str | None = None,
    body: Any = None,
    query: str = "",
    **headers: str,
) -> dict[str, Any]:
    raw = b"" if body is None else body if isinstance(body, bytes) else orjson.dumps(body)
    env: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "CONTENT_LENGTH": str(len(raw)),
    }
    if body is not None:
        env["CONTENT_TYPE"] = "application/json"
    if token:
        env["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    env.update(headers)
    return env


def call(app: Any, env: dict[str, Any]) -> tuple[int, bytes, dict[str, str]]:
    status, body, headers = wsgi_call(app, env)
    return status, body, dict(headers)


@pytest.fixture
def apps() -> tuple[Entry, WSGIHandler]:
    return Entry(WSGIHandler()), WSGIHandler()


def alike(apps: tuple[Entry, WSGIHandler], make: Any) -> tuple[int, bytes, dict[str, str]]:
    """The door's answer, asserted equal to the full handler's (``make()`` builds the
    environ twice: a request body is read once)."""
    door, full = apps
    through_door = call(door, make())
    assert through_door == call(full, make())
    return through_door


def test_only_the_two_hot_requests_without_a_cookie_take_the_fast_lane():
    assert takes_fast_lane(environ("POST", "/api/matches/x/actions/"))
    assert takes_fast_lane(environ("GET", "/api/matches/x/"))
    assert not takes_fast_lane(environ("GET", "/api/matches/x/", HTTP_COOKIE="sessionid=1"))
    assert not takes_fast_lane(environ("HEAD", "/api/matches/x/"))
    assert not takes_fast_lane(environ("GET", "/api/matches/x/actions/"))
    assert not takes_fast_lane(environ("POST", "/api/matches/x/join/"))
    assert not takes_fast_lane(environ("GET", "/api/matches/"))
    assert not takes_fast_lane(environ("GET", "/api/matches/x"))


def test_the_entry_accounts_for_every_middleware_and_keeps_the_security_checks(settings):
    """Every middleware of the site is accounted for by the entry (a new one fails here), and
    what the site's middleware decides still acts: an HTTPS redirect, the Host check."""
    assert set(settings.MIDDLEWARE) == set(entry.ACCOUNTED)
    settings.SECURE_SSL_REDIRECT = True
    apps = Entry(WSGIHandler()), WSGIHandler()  # middleware reads its settings when built
    redirected = alike(apps, lambda: environ("GET", "/api/matches/x/"))
    assert redirected[0] == 301
    assert redirected[2]["Location"] == "https://testserver/api/matches/x/"
    settings.SECURE_SSL_REDIRECT = False
    apps = Entry(WSGIHandler()), WSGIHandler()
    foreign = alike(apps, lambda: environ("GET", "/api/matches/x/", HTTP_HOST="evil.example"))
    assert foreign[0] == 400


@pytest.mark.parametrize("case", [name for name, _ in REFUSALS])
def test_every_refused_move_is_answered_as_the_full_handler_answers_it(case, apps):
    match_id, who, body, extra = refusal(case)
    query = extra.pop("QUERY_STRING", "")
    path = f"/api/matches/{match_id}/actions/"
    before = Match.objects.get(pk=match_id).version
    raw = b"" if body is None else orjson.dumps(body)

    def make() -> dict[str, Any]:
        env = environ("POST", path, who.token, raw, query, **extra)
        env["CONTENT_TYPE"] = "application/json"
        return env

    status, _, headers = alike(apps, make)
    assert 400 <= status < 500
    assert headers["Content-Type"] == "application/json"
    assert Match.objects.get(pk=match_id).version == before, "a refusal changes nothing"


def test_a_move_through_the_door_is_answered_with_the_full_handlers_headers(apps):
    door, full = apps
    a, b, match_id = two_player_match()
    path = f"/api/matches/{match_id}/actions/"
    answers = []
    for app in (door, full):
        mover, _other, view = turn([a, b], match_id)
        action = {**legal(view), "expected_version": view["version"]}
        sent = {"HTTP_X_REQUEST_ID": "req-move"}
        answers.append(call(app, environ("POST", path, mover.token, action, **sent)))
        after = mover.view(match_id)
        assert answers[-1][0] == 200
        assert orjson.loads(answers[-1][1])["version"] == after["version"] == view["version"] + 1
    (_, _, door_headers), (_, _, full_headers) = answers
    assert door_headers.keys() == full_headers.keys()
    assert {k: v for k, v in door_headers.items() if k != "Content-Length"} == {
        k: v for k, v in full_headers.items() if k != "Content-Length"
    }
    assert door_headers["X-Frame-Options"] == "DENY"
    assert door_headers["X-Content-Type-Options"] == "nosniff"
    assert door_headers["X-Request-ID"] == "req-move"


def test_views_and_conditional_views_are_answered_as_the_full_handler_answers_them(apps):
    a, b, match_id = two_player_match()
    path = f"/api/matches/{match_id}/"
    status, body, headers = alike(apps, lambda: environ("GET", path, a.token))
    assert status == 200 and orjson.loads(body)["id"] == match_id
    tag = headers["ETag"]
    cases = [
        lambda: environ("GET", path),  # a spectator
        lambda: environ("GET", path, b.token),
        lambda: environ("GET", path, a.token, HTTP_IF_NONE_MATCH=tag),
        lambda: environ("GET", path, a.token, HTTP_IF_NONE_MATCH='"old", ' + tag),
        lambda: environ("GET", path, b.token, HTTP_IF_NONE_MATCH=tag),  # Ann's tag
        lambda: environ("GET", path, a.token, query="seat=x"),
        lambda: environ("GET", path, a.token, query="seat=7"),
        lambda: environ("GET", path, a.token, query="format=json"),
        lambda: environ("GET", path, a.token, HTTP_ACCEPT="application/xml"),
        lambda: environ("GET", path, "nope"),
        lambda: environ("GET", path, HTTP_AUTHORIZATION="Bearer"),
        lambda: environ("GET", "/api/matches/nope/", a.token),
        lambda: environ("GET", "/api/matches/00000000-0000-0000-0000-000000000000/"),
        lambda: environ("GET", "/api/matches/join/", a.token),
        lambda: environ("POST", "/api/matches/join/", a.token, {"invite_code": "x"}),
        lambda: environ("GET", path, a.token, HTTP_X_REQUEST_ID="req-7"),  # echoed
        lambda: environ("GET", path, "nope", HTTP_X_REQUEST_ID="req-8"),  # handed over
    ]
    answers = [alike(apps, make) for make in cases]
    statuses = [status for status, _, _ in answers]
    assert statuses == [
        *[200, 200, 304, 304, 200, 400, 403, 200, 406, 401, 401, 404, 404, 405, 404, 200, 401]
    ]
    assert [h.get("X-Request-ID") for _, _, h in answers[-3:]] == [None, "req-7", "req-8"]


def test_a_304_has_no_body_and_the_tag_and_a_private_match_stays_hidden(apps):
    host = Player("Host")
    match = host.create(game="fibber", seats=2, visibility="private")
    path = f"/api/matches/{match['id']}/"
    _, _, headers = alike(apps, lambda: environ("GET", path, host.token))
    status, body, not_modified = alike(
        apps, lambda: environ("GET", path, host.token, HTTP_IF_NONE_MATCH=headers["ETag"])
    )
    assert (status, body) == (304, b"")
    assert not_modified["ETag"] == headers["ETag"]
    assert not_modified["Cache-Control"] == "private, no-cache"
    outsider = Player("Outsider")
    assert alike(apps, lambda: environ("GET", path, outsider.token))[0] == 404
    assert alike(apps, lambda: environ("GET", path))[0] == 404


@pytest.mark.parametrize(
    "header",
    [
        {"HTTP_COOKIE": "sessionid=nope"},
        {"HTTP_ORIGIN": "https://elsewhere.example"},
        {"HTTP_X_NOTE": "a\x00b"},
        {"QUERY_STRING": "seat=%00"},
    ],
)
def test_a_request_the_site_middleware_treats_apart_never_takes_the_fast_lane(
    apps, monkeypatch, header
):
    door, _full = apps
    a, _b, match_id = two_player_match()

    def no_fast(*_args: Any) -> Any:
        raise AssertionError("the fast lane took a request the middleware treats apart")

    monkeypatch.setattr(door, "serve", no_fast)
    env = environ("GET", f"/api/matches/{match_id}/", a.token, **header)
    assert call(door, env)[0] in (200, 400)


def test_every_static_route_beside_a_match_id_is_handed_over(apps):
    """A route of the full URL conf that the hot patterns would also match (a fixed name in
    place of the match id) must be answered by its own view, not by the match view."""
    resolver = get_resolver()
    for method in ("GET", "POST"):
        for suffix in ("", "actions/"):
            for name in {"join"} | _fixed_names(resolver):
                path = f"/api/matches/{name}/{suffix}"
                body = {} if method == "POST" else None
                alike(apps, lambda p=path, m=method, b=body: environ(m, p, body=b))


def _fixed_names(resolver: Any) -> set[str]:
    """The fixed segments the full URL conf routes right under ``/api/matches/``."""
    names = set()
    for pattern in resolver.url_patterns:
        for inner in getattr(pattern, "url_patterns", []):
            route = str(inner.pattern)
            if route.startswith("matches/") and "<" not in route and route.count("/") == 2:
                names.add(route.split("/")[1])
    return names


def test_the_plain_match_view_answers_what_its_drf_twin_answers(settings):
    a, b, match_id = two_player_match()
    path = f"/api/matches/{match_id}/"
    tag = a.get(path)["ETag"]
    clients = [a.client, b.client, APIClient(), APIClient(HTTP_AUTHORIZATION="Bearer nope")]
    requests = [
        (c, q, h)
        for c in clients
        for q in ("", "?seat=x", "?seat=0", "?format=json")
        for h in ({}, {"HTTP_IF_NONE_MATCH": tag}, {"HTTP_ACCEPT": "application/xml"})
    ]

    def answers() -> list[tuple[int, bytes, dict[str, str]]]:
        out = []
        for client, query, headers in requests:
            response = client.get(path + query, **headers)
            kept = {k: v for k, v in response.items() if k.lower() != "content-length"}
            out.append((response.status_code, response.content, kept))
        return out

    plain = answers()
    settings.ROOT_URLCONF = "api.rest.schema_urls"  # the twin at the same path
    assert plain == answers()
    assert {status for status, _, _ in plain} >= {200, 304, 400, 401, 403, 406}


def chunked(env: dict[str, Any]) -> dict[str, Any]:
    """``env`` as gunicorn hands the application a ``Transfer-Encoding: chunked`` body: the
    chunks decoded in ``wsgi.input``, the end marked, no ``Content-Length``."""
    del env["CONTENT_LENGTH"]
    env["HTTP_TRANSFER_ENCODING"] = "chunked"
    env["wsgi.input_terminated"] = True
    return env


@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_ACCEPT": "application/json"},  # the short handler serves it
        {"HTTP_ACCEPT": "application/json, text/plain, */*"},  # axios' default: handed over
        {"CONTENT_TYPE": "text/plain"},  # handed over: the twin's 415
        {"HTTP_AUTHORIZATION": "Bearer nope"},  # handed over: the twin's 401
    ],
)
def test_a_chunked_move_is_answered_as_the_full_handler_answers_it(apps, headers):
    """A chunked body read by the short handler's input guard and then handed over is still
    there for the full handler (it used to meet a Content-Length set from the chunks beside
    the Transfer-Encoding: 400 'not both')."""
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    path = f"/api/matches/{match_id}/actions/"
    stale = {**legal(view), "expected_version": view["version"] + 5}
    status, body, _ = alike(
        apps, lambda: chunked(environ("POST", path, mover.token, stale, **headers))
    )
    expected = {"CONTENT_TYPE": 415, "HTTP_AUTHORIZATION": 401}
    assert status == next((code for name, code in expected.items() if name in headers), 409)
    assert set(orjson.loads(body)) == {"error"}
    assert Match.objects.get(pk=match_id).version == view["version"]


def test_a_chunked_move_through_the_door_is_applied_once(apps):
    door, _full = apps
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    path = f"/api/matches/{match_id}/actions/"
    action = {**legal(view), "expected_version": view["version"]}
    accept = "application/json, text/plain, */*"
    status, body, _ = call(
        door, chunked(environ("POST", path, mover.token, action, HTTP_ACCEPT=accept))
    )
    assert status == 200, body
    assert mover.view(match_id)["version"] == view["version"] + 1


#: The hostile requests of the hostile battery on the two routes the short handler takes.
HOSTILE = [
    ("GET", "", "seat=%C2%B2", None, {}),
    ("GET", "", "seat=%D9%A3", None, {}),
    ("GET", "", "seat=%00", None, {}),
    ("GET", "", "seat=-1", None, {}),
    ("POST", "actions/", "seat=%C2%B2", {"type": "call"}, {}),
    ("POST", "actions/", "", b'{"type": ' + b"[" * 1000 + b"]" * 1000 + b"}", {}),
    ("POST", "actions/", "", {"type": "call\u0000"}, {}),
    ("POST", "actions/", "", b'{"type": "call", "x": "\\u0000"}', {}),
    ("POST", "actions/", "", b'{"type": "\\ud800"}', {}),
    ("POST", "actions/", "", b"{", {}),
    ("POST", "actions/", "", b"[]", {}),
    ("POST", "actions/", "", {"type": "call"}, {"HTTP_IDEMPOTENCY_KEY": "a\u0000b"}),
    ("POST", "actions/", "", {"type": "call"}, {"CONTENT_LENGTH": "x"}),
    ("POST", "actions/", "", {"type": "call"}, {"CONTENT_LENGTH": "99999999999"}),
    ("POST", "actions/", "", {"type": "call"}, {"HTTP_TRANSFER_ENCODING": "chunked"}),
    ("POST", "actions/", "", {"type": "call"}, {"HTTP_TRANSFER_ENCODING": "gzip"}),
]


@pytest.mark.parametrize("identity", ["anonymous", "seated", "bad token"])
@pytest.mark.parametrize(("method", "suffix", "query", "body", "headers"), HOSTILE)
def test_hostile_requests_through_the_door_get_the_full_handlers_json_4xx(
    apps, identity, method, suffix, query, body, headers
):
    """The production WSGI entry (``fibserver.wsgi``: the door) answers the issue-11 hostile
    requests on its hot routes with the full handler's 4xx in the JSON error shape."""
    a, _b, match_id = two_player_match()
    token = {"anonymous": None, "seated": a.token, "bad token": "nope"}[identity]
    before = Match.objects.get(pk=match_id).version
    path = f"/api/matches/{match_id}/{suffix}"
    status, content, answer = alike(
        apps, lambda: environ(method, path, token, body, query, **headers)
    )
    assert 400 <= status < 500, (status, content[:300])
    assert answer["Content-Type"] == "application/json"
    error = orjson.loads(content)["error"]
    assert isinstance(error["code"], str) and isinstance(error["message"], str)
    assert Match.objects.get(pk=match_id).version == before


def test_the_production_wsgi_application_is_the_door():
    from fibserver import wsgi

    assert isinstance(wsgi.application, Entry)


def wsgi_path(path: str) -> str:
    """``path`` as a WSGI server puts it in ``PATH_INFO``: its UTF-8 bytes as Latin-1 text."""
    return path.encode().decode("latin-1")


@pytest.mark.parametrize("match_id", ["\u0663", "\u00b2", "\u00e9t\u00e9", "\U0001f0a1"])
@pytest.mark.parametrize(
    ("method", "suffix", "headers"),
    [
        ("POST", "actions/", {}),  # no token: handed over for the twin's 401
        ("POST", "actions/", {"HTTP_AUTHORIZATION": "Bearer nope"}),
        ("GET", "", {"HTTP_AUTHORIZATION": "Bearer nope"}),
        ("GET", "", {"HTTP_ACCEPT": "application/xml"}),
    ],
)
def test_a_non_ascii_match_id_handed_over_is_answered_as_the_full_handler_answers_it(
    apps, match_id, method, suffix, headers
):
    """The short handler's request writes its decoded path into the environ; the full
    handler must still read the server's (a character beyond Latin-1 was a 500 before any
    middleware: an HTML page from gunicorn)."""
    path = wsgi_path(f"/api/matches/{match_id}/{suffix}")
    body = {} if method == "POST" else None
    status, content, answer = alike(apps, lambda: environ(method, path, body=body, **headers))
    assert 400 <= status < 500, (status, content[:300])
    assert answer["Content-Type"] == "application/json"
    assert set(orjson.loads(content)) == {"error"}


def test_the_fast_lane_counts_each_request_once_under_its_route_and_echoes_the_request_id(
    apps, settings
):
    from tests.ops.test_metrics import TOKEN, scrape, value

    settings.METRICS_TOKEN = TOKEN
    door, _full = apps
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    total = "fibserver_http_requests_total"
    move_route, view_route = "api/matches/<str:match_id>/actions/", "api/matches/<str:match_id>/"
    before = scrape()
    body = {**legal(view), "expected_version": view["version"]}
    status, _body, headers = call(
        door,
        environ(
            "POST", f"/api/matches/{match_id}/actions/", mover.token, body,
            HTTP_X_REQUEST_ID="req-42-move",
        ),
    )  # fmt: skip
    assert status == 200 and headers["X-Request-ID"] == "req-42-move"
    status, _body, headers = call(door, environ("GET", f"/api/matches/{match_id}/", a.token))
    assert status == 200 and "X-Request-ID" not in headers  # an id made here is only logged
    handed = call(door, environ("GET", f"/api/matches/{match_id}/", "not-a-token"))
    assert handed[0] == 401  # handed over: counted once, by the full handler
    after = scrape()

    def counted(route: str, method: str, status: str) -> float:
        labels = {"route": route, "method": method, "status": status}
        return value(after, total, **labels) - value(before, total, **labels)

    assert counted(move_route, "POST", "200") == 1
    assert counted(view_route, "GET", "200") == 1
    assert counted(view_route, "GET", "401") == 1
