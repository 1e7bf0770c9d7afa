"""While the database or Redis does not answer, every face answers 503 ``unavailable`` with
``Retry-After`` in the one error shape (REST, the fast lane, GraphQL, the ASGI follower), never
a bare 500; a bug stays a 500 ``server_error``, JSON too. The whole processes under a real
outage: ``tests/ops/test_faults.py``."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson
import pytest
import redis
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from api.play.hub import hub
from kernel.outage import RETRY_AFTER_SECONDS

from .helpers import Player, assert_error

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def database_down(monkeypatch):
    """The database goes away: every connection is closed (an in-memory SQLite one stays
    open), and every new connection or cursor fails as against a server that is not there."""

    def lost(self: BaseDatabaseWrapper, *args: Any, **kwargs: Any) -> Any:
        raise self.Database.OperationalError("the connection is lost")  # type: ignore[attr-defined]

    def down() -> None:
        backend = type(connections["default"])
        connections.close_all()
        monkeypatch.setattr(backend, "get_new_connection", lost)
        monkeypatch.setattr(backend, "create_cursor", lost)

    return down


class _DeadCache:
    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")

        return fail


def assert_unavailable(response: Any) -> None:
    error = assert_error(response, 503, "unavailable")
    assert error["retry_after"] == RETRY_AFTER_SECONDS
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)


def test_rest_answers_503_while_the_database_is_away(database_down):
    player = Player("Outage")
    match = player.create(game="fabfib", seats=3, bots=["random", "random"])
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {player.token}")
    database_down()
    assert_unavailable(client.get(f"/api/matches/{match['id']}/"))  # the fast lane's twin
    assert_unavailable(client.get("/api/matches/"))
    assert_unavailable(client.post("/api/auth/guest/", {}, format="json"))


def test_rest_answers_503_while_redis_is_away(monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "cache", _DeadCache())  # the throttles' cache
    response = APIClient(raise_request_exception=False).post("/api/auth/guest/", {}, format="json")
    assert_unavailable(response)


def test_graphql_says_unavailable_while_the_database_is_away(database_down):
    player = Player("Outage")
    database_down()
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {player.token}")
    response = client.post(
        "/graphql/", {"query": "{ matches { pageInfo { hasNextPage } } }"}, format="json"
    )
    body = response.json()
    assert response.status_code in (200, 503), body
    codes = {e["extensions"]["code"] for e in body["errors"]}
    assert codes == {"unavailable"}, body


def _asgi(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[bytes, bytes], Any]:
    from fibserver.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"after=0",
        "root_path": "",
        "headers": [(b"host", b"localhost"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8001),
    }
    sent: list[dict[str, Any]] = []
    received: list[int] = []

    async def receive() -> dict[str, Any]:
        if not received:
            received.append(1)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(3600)  # the client stays
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        try:
            await application(scope, receive, send)  # type: ignore[arg-type]
        finally:
            # The follower's process-wide Redis subscription, started on this loop: ended
            # here, while the loop runs, as asyncio.run's own cancelling could wait on it.
            task = hub.task
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                    await asyncio.wait_for(task, 5)

    asyncio.run(run())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), orjson.loads(body)


def test_the_follower_answers_503_json_while_the_database_is_away(database_down):
    player = Player("Outage")
    match = player.create(game="fabfib", seats=3, bots=["random", "random"])
    database_down()
    auth = [(b"authorization", f"Bearer {player.token}".encode())]
    status, headers, body = _asgi(f"/api/matches/{match['id']}/events/", auth)
    assert status == 503, body
    assert body["error"]["code"] == "unavailable"
    assert headers[b"retry-after"] == str(RETRY_AFTER_SECONDS).encode()
    assert headers[b"content-type"] == b"application/json"


def test_a_bug_on_the_follower_is_a_json_500(monkeypatch):
    from api.fast import follower

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(follower, "_query", broken)
    status, _headers, body = _asgi("/api/matches/x/events/", [])
    assert status == 500
    assert body == {"error": {"code": "server_error", "message": "Internal Server Error."}}
