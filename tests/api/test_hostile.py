"""The hostile battery: every URL pattern under ``/api/`` gets every method and a set of hostile
requests, anonymously and as a seated player, and must answer like an API (docs/api.md: "Bad
input gets a clear 4xx, never a 500"):

- never a 5xx;
- JSON for every response, except a success that is not JSON by design (the OpenAPI document,
  the Swagger and ReDoc pages, DRF's browsable API that a client asked for with
  ``Accept: text/html`` or ``?format=api``, an empty 204/304);
- every 4xx has the one error shape ``{"error": {"code", "message", ...}}``;
- every 405 carries ``Allow`` (without the method it refused);
- a rejected request changes nothing in the database.

The routes are enumerated from the URL resolver, so a new endpoint is covered without touching
this file (a new kind of path parameter makes it fail until it gets sample values here).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import HttpResponse
from django.test import Client
from django.utils.timezone import now
from rest_framework.throttling import ScopedRateThrottle

from accounts.models import Session
from accounts.sessions import digest_of
from api.fast.entry import Entry, takes_fast_lane

from .helpers import Player, api_routes, db_fingerprint, wsgi_call

pytestmark = pytest.mark.django_db


ROUTES = api_routes()
PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")

#: Hostile values for a path id that is a UUID (a tournament, an export, a session).
UUID_IDS = [
    "not-a-uuid",
    str(uuid.UUID(int=0)),
    str(uuid.uuid4()),
    "%00",
    "%ED%A0%80",
    "x" * 3000,
    "%C2%B2",
    "-1",
    "9" * 40,
    "%20",
]

#: Hostile values for each kind of path parameter (percent-encoded as a client would send).
BAD_PATH_VALUES = {
    "match_id": [
        "not-a-uuid",
        str(uuid.UUID(int=0)),
        str(uuid.uuid4()),
        "%00",
        "a%00b",
        "%ED%A0%80",  # a UTF-8-encoded surrogate
        "x" * 3000,
        "%C2%B2",  # ²
        "%D9%A3",  # ٣
        "-1",
        "9" * 40,
        "%20",
    ],
    "tournament_id": UUID_IDS,
    "game": ["nope", "%00", "FABFIB", "x" * 3000, "%ED%A0%80", "%20"],
    "ticket_id": ["0", "-1", "abc", "%00", "%C2%B2", "%D9%A3", "9" * 40, "%20", "1.0"],
    "challenge_id": ["0", "-1", "abc", "%00", "%C2%B2", "%D9%A3", "9" * 40, "%20", "1.0"],
    "player_id": ["0", "-1", "abc", "%00", "%C2%B2", "%D9%A3", "9" * 40, "%20", "1.0"],
    "notification_id": ["0", "-1", "abc", "%00", "%C2%B2", "%D9%A3", "9" * 40, "%20", "1.0"],
    "webhook_id": ["0", "-1", "abc", "%00", "%C2%B2", "%D9%A3", "9" * 40, "%20", "1.0"],
    "subscription_id": ["0", "-1", "abc", "%00", "%C2%B2", "%D9%A3", "9" * 40, "%20", "1.0"],
    "device_id": ["0", "-1", "abc", "%00", "%C2%B2", "%D9%A3", "9" * 40, "%20", "1.0"],
    "export_id": UUID_IDS,
    "session_id": UUID_IDS,
    "n": ["-1", "x", "%00", "%ED%A0%80", "%C2%B2", "%D9%A3", "9" * 40, "9" * 5000, "1.0", "1e3"],
}

#: Successful responses that are not JSON by design.
NOT_JSON_BY_DESIGN = {"api/schema/", "api/docs/", "api/redoc/"}

METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE", "FOO", "PROPFIND"]

DEEP = "[" * 1000 + "]" * 1000
DEEP_33 = "[" * 33 + "]" * 33


def _json(value: Any) -> bytes:
    return orjson.dumps(value)


JSON = "application/json"
#: (label, body, content type) for POST.
BODIES: list[tuple[str, bytes, str]] = [
    ("truncated", b'{"a":', JSON),
    ("not json", b"not json", JSON),
    ("not utf-8", b'{"a": "\xff\xfe"}', JSON),
    ("bom", b"\xef\xbb\xbf{}", JSON),
    ("nan", b'{"seats": NaN}', JSON),
    ("infinity", b'{"seats": 1e400}', JSON),
    ("array", b"[]", JSON),
    ("array of one", b'[{"type": "call"}]', JSON),
    ("number", b"1", JSON),
    ("string", b'"call"', JSON),
    ("null", b"null", JSON),
    ("true", b"true", JSON),
    ("text/plain", b'{"type": "call"}', "text/plain"),
    ("form", b"type=call&game=fabfib&seats=3", "application/x-www-form-urlencoded"),
    (
        "multipart",
        b'--B\r\nContent-Disposition: form-data; name="type"\r\n\r\ncall\r\n--B--\r\n',
        "multipart/form-data; boundary=B",
    ),
    ("xml", b"<type>call</type>", "application/xml"),
    ("latin-1", '{"display_name": "é"}'.encode("latin-1"), "application/json; charset=latin-1"),
    ("no content type", b'{"type": "call"}', ""),
    ("huge", b'{"display_name": "' + b"x" * 70_000 + b'"}', JSON),
    ("deep", DEEP.encode(), JSON),
    ("deep 33", DEEP_33.encode(), JSON),
    ("deep display_name", b'{"display_name": %s}' % DEEP.encode(), JSON),
    (
        "deep options",
        b'{"game": "fabfib", "seats": 3, "options": {"variant": %s}}' % DEEP.encode(),
        JSON,
    ),
    ("deep bots", b'{"game": "fabfib", "seats": 3, "bots": %s}' % DEEP.encode(), JSON),
    ("deep action", b'{"type": "claim", "value": %s}' % DEEP.encode(), JSON),
    ("deep invite", b'{"invite_code": %s}' % DEEP.encode(), JSON),
    ("nul value", _json({"display_name": "a\x00b", "username": "\x00", "password": "\x00"}), JSON),
    ("nul key", _json({"\x00": 1, "type": "call"}), JSON),
    ("nul action", _json({"type": "call\x00"}), JSON),
    ("nul param", _json({"type": "claim", "value": "\x00"}), JSON),
    ("nul options", _json({"game": "fabfib", "seats": 3, "options": {"x": ["\x00"]}}), JSON),
    ("nul invite", _json({"invite_code": "\x00"}), JSON),
    ("nul bots", _json({"game": "fabfib", "seats": 3, "bots": ["\x00"], "level": "\x00"}), JSON),
    ("surrogate", b'{"display_name": "\\ud800", "username": "\\udfff", "password": "x"}', JSON),
    ("surrogate key", b'{"\\ud800": 1}', JSON),
    ("surrogate action", b'{"type": "claim", "value": "\\udc00"}', JSON),
    (
        "overlong",
        _json(
            {
                k: "x" * 10_000
                for k in ("display_name", "username", "password", "invite_code", "type", "level")
            }
        ),
        JSON,
    ),
    ("negative", _json({"game": "fabfib", "seats": -1, "count": -5, "expected_version": -1}), JSON),
    (
        "huge numbers",
        _json(
            {
                "game": "fabfib",
                "seats": 2**64 - 1,
                "count": 2**64 - 1,
                "decision_seconds": 2**63,
                "type": "call",
                "expected_version": 2**64 - 1,
            }
        ),
        JSON,
    ),
    ("huge float", b'{"type": "claim", "value": 1e308, "expected_version": 1e308}', JSON),
    ("negative action", _json({"type": "claim", "value": -1, "expected_version": 0}), JSON),
    (
        "wrong types",
        _json(
            {
                "game": 1,
                "seats": "3",
                "options": [],
                "bots": "strong",
                "join": "yes",
                "visibility": {},
                "username": {},
                "password": [],
                "invite_code": 5,
                "level": [],
                "count": "x",
                "display_name": 7,
            }
        ),
        JSON,
    ),
    ("type list", _json({"type": ["call"]}), JSON),
    ("unicode digits", _json({"game": "fabfib", "seats": "٣", "count": "²"}), JSON),
]

#: Query strings sent with GET and POST.
QUERIES = [
    "seat=%C2%B2",
    "after=%D9%A3",
    "seat=-1",
    "seat=" + "9" * 30,
    "after=-1",
    "after=" + "9" * 30,
    "wait=1e9",
    "wait=-1",
    "wait=nan",
    "wait=31",
    "game=%00",
    "%00=1",
    "game=%ED%A0%80",
    "game=" + "x" * 5000,
    "mine=1&status=%00",
    "mine=1&status=" + "x" * 300,
    "mine=%00",
    "limit=-1&offset=-1",
    "offset=" + "9" * 30,
    "limit=" + "9" * 30,
    "offset=%D9%A3&limit=%C2%B2",
    "format=xml",
    "format=api",
    "lang=xx",
    "lang=" + "x" * 300,
    "version=%C2%B2",
    "&".join(f"p{i}=1" for i in range(1100)),
]

#: Extra headers (WSGI names) sent with GET and POST.
HEADERS: list[dict[str, str]] = [
    {"HTTP_IDEMPOTENCY_KEY": "a\x00b"},
    {"HTTP_IDEMPOTENCY_KEY": "x" * 10_000},
    {"HTTP_IDEMPOTENCY_KEY": ""},
    {"HTTP_AUTHORIZATION": "Bearer \x00"},
    {"HTTP_AUTHORIZATION": "Bearer " + "x" * 10_000},
    {"HTTP_AUTHORIZATION": "Bearer a b c"},
    {"HTTP_AUTHORIZATION": "Token"},
    {"HTTP_AUTHORIZATION": "Basic Zm9vOmJhcg=="},
    {"HTTP_AUTHORIZATION": "Bearer \xe9\xff"},
    {"HTTP_HOST": "evil.example\x00"},
    {"HTTP_HOST": "[::1"},
    {"HTTP_IF_NONE_MATCH": "*"},
    {"HTTP_ACCEPT": "text/html"},
    {"HTTP_ACCEPT": "application/xml"},
    {"HTTP_ORIGIN": "http://["},
    {"HTTP_X_FORWARDED_FOR": "not, an, ip"},
    {"HTTP_TRANSFER_ENCODING": "chunked"},
    {"HTTP_TRANSFER_ENCODING": "gzip"},
    {"CONTENT_LENGTH": "-1"},
    {"CONTENT_LENGTH": "abc"},
    {"CONTENT_LENGTH": "99999999999"},
    {"HTTP_COOKIE": "sessionid=\x00; csrftoken=x"},
]

#: Paths under /api/ that match nothing, and ones that only lack their slash.
UNMATCHED = ["/api/", "/api/nope/", "/api/matches/x/y/z/", "/api/me", "/api/%00/", "/api/matches"]


def is_json(response: Any) -> bool:
    media = response.get("Content-Type", "").split(";")[0].strip()
    return media == "application/json" or media.endswith("+json")


class Battery:
    def __init__(self, route: str, player: Player, match_id: str) -> None:
        self.route, self.player, self.match_id = route, player, match_id
        self.client = Client(raise_request_exception=False, enforce_csrf_checks=True)
        self.sent = 0
        self.state = db_fingerprint()  # the database as the next request finds it

    def paths(self) -> Iterator[str]:
        """The route with real parameter values, then with each hostile value."""
        names = PARAMETER.findall(self.route)
        for name in names:
            assert name in BAD_PATH_VALUES, f"give the battery sample values for <{name}>"
        good = {
            "match_id": self.match_id,
            "tournament_id": self.player.tournament_id,
            "game": "fabfib",
            "player_id": str(self.player.user.pk),
            "ticket_id": getattr(self.player, "ticket_id", "1"),
            "challenge_id": getattr(self.player, "challenge_id", "1"),
            "notification_id": "1",
            "webhook_id": "1",
            "subscription_id": "1",
            "device_id": "1",
            "export_id": str(uuid.UUID(int=1)),
            "session_id": str(uuid.UUID(int=1)),
            "n": "0",
        }

        def fill(values: dict[str, str]) -> str:
            return "/" + PARAMETER.sub(lambda m: values[m.group(1)], self.route)

        yield fill(good)
        for name in names:
            for bad in BAD_PATH_VALUES[name]:
                yield fill({**good, name: bad})

    def send(self, identity: str | None, method: str, path: str, **kwargs: Any) -> Any:
        extra = dict(kwargs.pop("extra", {}))
        if identity is not None:
            extra.setdefault("HTTP_AUTHORIZATION", f"Bearer {identity}")
        label = f"{method} {path[:120]} {kwargs.pop('label', '')} {ascii(extra)[:120]}"
        response = self.client.generic(method, path, **kwargs, **extra)
        self.sent += 1
        status = response.status_code
        assert status < 500, (label, status, response.content[:300])
        # DRF's browsable API, asked for by Accept or ?format=api, is HTML by design.
        wanted_html = "text/html" in extra.get("HTTP_ACCEPT", "") or "format=api" in path
        fine_without_json = (200 <= status < 300 or status == 304) and (
            self.route in NOT_JSON_BY_DESIGN or wanted_html or not response.content
        )
        if not fine_without_json and not (method == "HEAD" and status < 400):
            assert is_json(response), (label, status, response.get("Content-Type"))
        if 400 <= status < 500 and method != "HEAD":
            body = response.json()
            assert set(body) == {"error"}, (label, body)
            assert isinstance(body["error"].get("code"), str), (label, body)
            assert isinstance(body["error"].get("message"), str), (label, body)
        if status == 405:
            allow = [m.strip() for m in response.get("Allow", "").split(",") if m.strip()]
            assert allow and method not in allow, (label, response.get("Allow"))
        before, self.state = self.state, db_fingerprint()
        if status >= 400:
            assert self.state == before, (label, status, "changed the database")
        elif identity is not None:
            # A success may have been a logout: keep the player's token for the next requests.
            Session.objects.get_or_create(
                digest=digest_of(identity),
                defaults={"user": self.player.user, "label": "hostile", "last_used": now()},
            )
            self.state = db_fingerprint()
        return response

    def run(self) -> None:
        for identity in (None, self.player.token):
            self.run_as(identity)

    def run_as(self, identity: str | None) -> None:
        path, *bad_paths = self.paths()
        for method in METHODS:
            self.send(identity, method, path)
        for label, body, content_type in BODIES:
            self.send(identity, "POST", path, data=body, content_type=content_type, label=label)
        for method in ("PUT", "PATCH"):
            self.send(identity, method, path, data=b'{"type": "call"}', content_type=JSON)
        for query in QUERIES:
            for method in ("GET", "POST"):
                self.send(identity, method, f"{path}?{query}")
        for headers in HEADERS:
            for method in ("GET", "POST"):
                self.send(identity, method, path, data=b"{}", content_type=JSON, extra=headers)
        for bad in bad_paths:
            for method in ("GET", "POST", "DELETE"):
                self.send(identity, method, bad)


@pytest.fixture
def arena(monkeypatch: pytest.MonkeyPatch) -> tuple[Player, str]:
    """A seated player of an active Fab Fib match (against bots), and an open lobby match
    of someone else's, so lists and joins have something to find."""
    monkeypatch.setattr(ScopedRateThrottle, "allow_request", lambda self, request, view: True)
    player = Player("Battery")
    match = player.create(game="fabfib", seats=3, bots=["random", "random"])
    Player("Host").create(game="fabfib", seats=3)
    player.tournament_id = player.post("/api/tournaments/", {"name": "Battery night"}).json()["id"]
    ticket = player.post("/api/queue/", {"game": "fabfib", "seats_min": 3})
    player.ticket_id = str(ticket.json()["id"])  # type: ignore[attr-defined]
    rival = Player("Rival")
    challenge = player.post(
        "/api/challenges/", {"players": [rival.user.pk], "game": "fibbers_dice"}
    )
    player.challenge_id = str(challenge.json()["id"])  # type: ignore[attr-defined]
    return player, match["id"]


def test_the_battery_covers_every_endpoint():
    """A sanity check on the enumeration itself."""
    assert "api/matches/<str:match_id>/actions/" in ROUTES
    assert "api/matches/<str:match_id>/events/" in ROUTES
    assert "api/auth/guest/" in ROUTES
    assert len(ROUTES) >= 18
    assert set(ROUTES) >= QUICK_ROUTES


#: The routes the quick loop batters; the whole battery (every route) is in the slow tier.
QUICK_ROUTES = {
    "api/auth/guest/",
    "api/matches/",
    "api/matches/<str:match_id>/",
    "api/matches/<str:match_id>/actions/",
}


@pytest.mark.parametrize(
    "route",
    [r if r in QUICK_ROUTES else pytest.param(r, marks=pytest.mark.slow) for r in ROUTES],
)
def test_hostile_requests_get_a_clear_4xx_in_the_json_shape(route, arena):
    player, match_id = arena
    battery = Battery(route, player, match_id)
    battery.run()
    assert battery.sent > 100


def test_unmatched_api_paths_answer_the_json_404(arena):
    player, match_id = arena
    battery = Battery("api/unmatched/", player, match_id)
    for path in UNMATCHED:
        for method in METHODS:
            for identity in (None, player.token):
                response = battery.send(identity, method, path)
                if method != "HEAD":
                    assert response.json()["error"]["code"] in ("not_found", "invalid"), path


class DoorHandler:
    """The test client's requests through the production WSGI entry (``fibserver.wsgi``: the
    door, whose short handler takes cookie-less moves and match views, over Django's full
    WSGI handler), the answer turned back into a response the battery can read."""

    def __init__(self) -> None:
        self.door = Entry(WSGIHandler())
        self.short = 0  # the requests the short handler took

    def __call__(self, environ: dict[str, Any]) -> HttpResponse:
        if not environ.get("HTTP_COOKIE"):
            del environ["HTTP_COOKIE"]  # the test client's empty jar: no Cookie header sent
        self.short += takes_fast_lane(environ)
        sent = WSGIRequest(dict(environ))  # before a handler writes the decoded path into it
        # As the test client's own handler does: the test's transaction stays open.
        for signal in (request_started, request_finished):
            signal.disconnect(close_old_connections)
        try:
            status, body, headers = wsgi_call(self.door, environ)
        finally:
            for signal in (request_started, request_finished):
                signal.connect(close_old_connections)
        response = HttpResponse(body, status=status)
        del response["Content-Type"]
        for name, value in headers:
            if name.lower() == "set-cookie":
                response.cookies.load(value)
            else:
                response[name] = value
        response.wsgi_request = sent  # type: ignore[attr-defined]
        return response


class DoorBattery(Battery):
    """The battery through :class:`DoorHandler`, from a client that keeps no cookies (a
    cookie, such as the browsable API's CSRF cookie, sends a request past the short handler;
    the plain battery covers those)."""

    def __init__(self, route: str, player: Player, match_id: str) -> None:
        super().__init__(route, player, match_id)
        self.handler = DoorHandler()
        self.client.handler = self.handler  # type: ignore[assignment]

    def send(self, identity: str | None, method: str, path: str, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        return super().send(identity, method, path, **kwargs)


#: The routes the door's short handler takes, and the events feed beside them (the quick
#: loop keeps the moves; CI runs them all).
DOOR_ROUTES = [
    pytest.param("api/matches/<str:match_id>/", marks=pytest.mark.slow),
    "api/matches/<str:match_id>/actions/",
    pytest.param("api/matches/<str:match_id>/events/", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("route", DOOR_ROUTES)
def test_hostile_requests_through_the_production_wsgi_entry(route, arena):
    """The whole battery of a route through the door (``fibserver.wsgi.application``), as
    gunicorn runs it: the short handler must answer like the full one, never a 5xx or HTML."""
    player, match_id = arena
    battery = DoorBattery(route, player, match_id)
    battery.run()
    assert battery.sent > 100
    if not route.endswith("events/"):
        assert battery.handler.short > 50, "the short handler took the route's requests"
