"""The long-poll events endpoint on the follower, outside Django's request cycle.

``fibserver.asgi`` sends ``GET /api/matches/<id>/events/`` here first. A request this handler
can answer exactly as Django's view (:func:`api.longpoll.match_events`) would — a well-formed
query, a valid or no token, a match the caller may follow, an allowed ``Host``, no ``Origin``
(CORS), nothing hostile in it — is served here: no middleware stack, no request cycle, one
shared thread pool for the database (a few persistent connections per process instead of one
per waiting request), and **one** read per match change for every waiter that asks the same
thing (the same match, ``after``, seat and token: every spectator of a match, typically),
rendered to JSON once. Everything else — errors of every kind, ``HEAD``, CORS requests, a
redirect to HTTPS — it hands over to Django unchanged, which answers it in the API's one error
shape.

What Django decides about a request is decided by Django's own code: the host is checked by
``HttpRequest.get_host``, HTTPS by ``is_secure`` and the redirect to it by
``SecurityMiddleware``, and the answer's headers are added by the same middleware Django's
answer passes through (``SecurityMiddleware``, django-cors-headers, the clickjacking
middleware), run on a probe of the request (:mod:`api.fast.probe`).

The waiting is the one wait loop of every follower (:func:`api.play.wait.pages`), here also
watching for the client to leave.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qsl

import orjson
from django.conf import settings
from django.db import DatabaseError, connection
from rest_framework.exceptions import AuthenticationFailed

from accounts.models import User
from api.authentication import CachedTokenAuthentication, token_key
from api.play.body import unstorable
from api.play.hub import hub, use_redis
from api.play.queries import feed_of
from api.play.wait import has_news, pages
from games.access import match_pk
from games.reads import feeds
from kernel.errors import AppError
from kernel.ops import context, metrics

from . import HandOver
from .probe import Probe, check, response_headers

ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]

EVENTS_PATH = re.compile(r"^/api/matches/([0-9A-Za-z-]{1,64})/events/$")
#: The route of the events endpoint, as Django's request metrics name it.
EVENTS_ROUTE = "api/matches/<str:match_id>/events/"
#: Database threads of the follower (each keeps one connection, see :func:`_db`).
THREADS = int(os.environ.get("FOLLOWER_DB_THREADS", "4"))
#: How long a database thread keeps its connection (seconds); 0 closes it after every read.
KEEP_SECONDS = float(os.environ.get("FOLLOWER_DB_KEEP_SECONDS", "0"))


_pool: ThreadPoolExecutor | None = None
log = logging.getLogger("fibserver.request")
_LOG_REQUESTS = bool(getattr(settings, "LOG_REQUESTS", False))
_born = threading.local()


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(THREADS, thread_name_prefix="follow-db")
    return _pool


def _db(job: Callable[[], Any]) -> Any:
    """Run ``job`` on this pool thread's connection; it is kept ``KEEP_SECONDS`` (closed after
    a database error, so a connection the database dropped is replaced by the next read)."""
    try:
        return job()
    except DatabaseError:
        connection.close()
        raise
    finally:
        now = time.monotonic()
        if connection.connection is None:
            _born.at = None
        elif getattr(_born, "at", None) is None:
            _born.at = now
        if KEEP_SECONDS <= 0 or now - (_born.at or now) > KEEP_SECONDS:
            connection.close()
            _born.at = None


_tokens = CachedTokenAuthentication()


def _user(authorization: str | None) -> User | None:
    """The token's user (cached, :mod:`api.authentication`), ``None`` without a token; a
    header DRF must judge, or a token that is not valid, is Django's to refuse."""
    if not authorization:
        return None
    key = token_key(authorization)
    if key is None:
        raise HandOver
    try:
        return _tokens.authenticate_credentials(key)[0]  # type: ignore[no-any-return]
    except AuthenticationFailed:
        raise HandOver from None


_queries: dict[bytes, tuple[int, float, int | None]] = {}


def _query(raw: bytes) -> tuple[int, float, int | None]:
    """``after``, ``wait`` and ``seat`` of a query string, checked as the view checks them
    (remembered per query string: a follower sends the same few again and again)."""
    found = _queries.get(raw)
    if found is not None:
        return found
    if b"%00" in raw or b"\x00" in raw:
        raise HandOver
    try:
        pairs = parse_qsl(raw.decode("ascii"), keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise HandOver from None
    if any(unstorable(k) or unstorable(v) for k, v in pairs):
        raise HandOver
    try:
        found = feed_of(dict(pairs))
    except AppError:
        raise HandOver from None
    if len(_queries) > 10_000:
        _queries.clear()
    _queries[raw] = found
    return found


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        text = value.decode("latin-1")
        if "\x00" in text or unstorable(text):
            raise HandOver
        out[name.decode("latin-1").lower()] = text
    return out


class Reads:
    """Single-flight reads: waiters asking the same thing at the same time share one read
    (and its JSON). A read that started before a change may be shared by a waiter registered
    after it: that waiter's wake-up is already set, so it simply reads again.

    A finished read is also kept, stamped with the match's hub stamp taken **before** it
    started (:meth:`api.play.hub.Hub.stamp`), and answers the same question again while the stamp
    is unchanged: no change was published since, so the database would answer the same (the
    followers of a match that re-poll after a delivery cost no read each). Changes are
    published after their commit, so a change the read could not see moves the stamp (its
    waiters, registered before they asked, are woken by it and ask again)."""

    def __init__(self) -> None:
        self.inflight: dict[tuple[Any, ...], asyncio.Future[tuple[dict[str, Any], bytes]]] = {}
        self.kept: dict[tuple[Any, ...], tuple[int, tuple[dict[str, Any], bytes]]] = {}

    async def page(
        self, key: tuple[Any, ...], match_id: str, auth: str | None, after: int, seat: int | None
    ) -> tuple[dict[str, Any], bytes]:
        # Kept only for anonymous callers (spectators: many share one question), so a token
        # revoked meanwhile is always checked again.
        stamp = hub.stamp(match_id) if auth is None else None
        kept = self.kept.get(key)
        if kept is not None and stamp is not None and kept[0] == stamp:
            return kept[1]
        future = self.inflight.get(key)
        if future is None:

            def job() -> tuple[dict[str, Any], bytes]:
                body = feeds.read_feed(match_id, _user(auth), after, seat)
                return body, orjson.dumps(body)

            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(_executor(), _db, job)
            self.inflight[key] = future

            def done(f: Any, key: tuple[Any, ...] = key, stamp: int | None = stamp) -> None:
                if self.inflight.get(key) is f:
                    del self.inflight[key]
                if stamp is not None and not f.cancelled() and f.exception() is None:
                    if len(self.kept) > 50_000:
                        self.kept.clear()
                    self.kept[key] = (stamp, f.result())

            future.add_done_callback(done)
        return await asyncio.shield(future)


reads = Reads()


class Receive:
    """The client's messages, watched for a disconnect while waiting, and replayed to Django
    when the request falls back to it after all."""

    def __init__(self, receive: Any) -> None:
        self.receive = receive
        self.seen: list[dict[str, Any]] = []

    async def disconnected(self) -> None:
        while True:
            message = await self.receive()
            self.seen.append(message)
            if message["type"] == "http.disconnect":
                return

    async def replay(self) -> dict[str, Any]:
        if self.seen:
            return self.seen.pop(0)
        message: dict[str, Any] = await self.receive()
        return message


async def serve_events(scope: dict[str, Any], receive: Any, send: Any, django: ASGIApp) -> None:
    """``GET /api/matches/{id}/events/`` on the fast lane, or by Django (see the module)."""
    match = EVENTS_PATH.match(scope.get("path", ""))
    try:
        if match is None or scope.get("method") != "GET":
            raise HandOver
        headers = _headers(scope)
        if "origin" in headers:
            raise HandOver  # CORS: Django's middleware decides
        probe = Probe(scope, headers)
        check(probe)
        after, wait, seat = _query(scope.get("query_string", b""))
        match_id = str(match_pk(match.group(1)))
    except (HandOver, AppError):
        await django(scope, receive, send)
        return
    auth = headers.get("authorization")
    started = time.perf_counter()
    sent_id = context.valid_request_id(headers.get("x-request-id"))
    bound = (
        context.request_id.set(sent_id or context.new_request_id()),
        context.match_id.set(match_id),
    )
    try:
        if await _follow(scope, receive, send, django, probe, match_id, auth, after, wait, seat):
            seconds = time.perf_counter() - started
            metrics.request_done(EVENTS_ROUTE, "GET", 200, seconds)
            if _LOG_REQUESTS:
                extra = {"method": "GET", "route": EVENTS_ROUTE, "status": 200}
                log.info("GET %s 200", EVENTS_ROUTE, extra={**extra, "duration_ms": seconds * 1e3})
    finally:
        context.match_id.reset(bound[1])
        context.request_id.reset(bound[0])


async def _follow(
    scope: dict[str, Any],
    receive: Any,
    send: Any,
    django: ASGIApp,
    probe: Probe,
    match_id: str,
    auth: str | None,
    after: int,
    wait: float,
    seat: int | None,
) -> bool:
    """Wait for news and answer (``True``), or let Django answer (``False``)."""
    until = asyncio.get_running_loop().time() + wait
    client = Receive(receive)
    gone = asyncio.ensure_future(client.disconnected())
    data = b""
    events = 0

    async def read(since: int) -> dict[str, Any]:
        nonlocal data
        body, data = await reads.page((match_id, since, seat, auth), match_id, auth, since, seat)
        return body

    try:
        with metrics.following("longpoll"):
            async for page in pages(
                read, match_id, after, hubbed=use_redis(), until=until, gone=gone
            ):
                events = len(page["events"])
                if has_news(page):
                    break
        if gone.done():
            return False  # the client left: nobody to answer
    except (HandOver, AppError):
        data = b""  # Django answers it, in the API's error shape
    finally:
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await gone
    if not data:
        await django(scope, client.replay, send)
        return False
    headers = response_headers(probe, len(data))
    sent_id = context.valid_request_id(probe.META.get("HTTP_X_REQUEST_ID"))
    if sent_id is not None:
        headers.append((b"x-request-id", sent_id.encode()))  # as Django's answer (ops middleware)
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": data})
    if events:
        metrics.delivered("longpoll", events)
    return True
