"""The long-poll events endpoint on the follower, outside Django's request cycle.

``fibserver.asgi`` sends ``GET /api/matches/<id>/events/`` here first. A request this handler
can answer exactly as Django's view (:func:`api.follow.match_events`) would — a well-formed
query, a valid or no token, a match the caller may follow, an allowed ``Host``, no ``Origin``
(CORS), nothing hostile in it — is served here: no middleware stack, no ``HttpRequest``, one
shared thread pool for the database (a few persistent connections per process instead of one
per waiting request), and **one** read per match change for every waiter that asks the same
thing (the same match, ``after``, seat and token: every spectator of a match, typically),
rendered to JSON once. Everything else — errors of every kind, ``HEAD``, CORS requests, a
redirect to HTTPS — goes to Django unchanged, which answers it in the API's one error shape.

The waiting is the view's: register with the process's one Redis subscription (:mod:`api.hub`)
before the first read, wake on a message (or re-check every few seconds, or poll without
Redis), always re-read the events table (a message is never trusted for content), so a lost
message or a gap is rebuilt from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from django.http.request import split_domain_port, validate_host

from api.rest.parsers import unstorable
from fibserver.errors import AppError
from games import selectors

from .hub import POLL_SECONDS, RECHECK_SECONDS, hub, use_redis

ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]

EVENTS_PATH = re.compile(r"^/api/matches/([0-9A-Za-z-]{1,64})/events/$")
#: Database threads of the follower (each keeps one connection, see :func:`_db`).
THREADS = int(os.environ.get("FOLLOWER_DB_THREADS", "4"))
#: How long a database thread keeps its connection (seconds); 0 closes it after every read.
KEEP_SECONDS = float(os.environ.get("FOLLOWER_DB_KEEP_SECONDS", "0"))


class Fallback(Exception):
    """Django answers this request (an error, or something the lean path does not do)."""


_pool: ThreadPoolExecutor | None = None
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


def _user(authorization: str | None) -> Any:
    """The token's user (cached, :mod:`api.authentication`), ``None`` without a token; a
    token that is not valid is Django's to refuse."""
    if not authorization:
        return None
    from rest_framework.exceptions import APIException

    from api.authentication import BearerTokenAuthentication, CachedTokenAuthentication

    keyword, _, key = authorization.partition(" ")
    scheme = {"bearer": BearerTokenAuthentication, "token": CachedTokenAuthentication}.get(
        keyword.lower()
    )
    if scheme is None or not key or " " in key.strip():
        raise Fallback
    try:
        return scheme().authenticate_credentials(key.strip())[0]
    except APIException:
        raise Fallback from None


_queries: dict[bytes, tuple[int, float, int | None]] = {}


def _query(raw: bytes) -> tuple[int, float, int | None]:
    """``after``, ``wait`` and ``seat`` of a query string, checked as the view checks them
    (remembered per query string: a follower sends the same few again and again)."""
    found = _queries.get(raw)
    if found is not None:
        return found
    if b"%00" in raw or b"\x00" in raw:
        raise Fallback
    try:
        pairs = parse_qsl(raw.decode("ascii"), keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise Fallback from None
    if any(unstorable(k) or unstorable(v) for k, v in pairs):
        raise Fallback
    from api.rest import serializers as s

    try:
        query = s.validate(s.EventsQuery, dict(pairs))
    except AppError:
        raise Fallback from None
    wait = min(float(query["wait"]), float(settings.FIBSERVER["MAX_WAIT_SECONDS"]))
    found = (int(query["after"]), wait, query.get("seat"))
    if len(_queries) > 10_000:
        _queries.clear()
    _queries[raw] = found
    return found


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        text = value.decode("latin-1")
        if "\x00" in text or unstorable(text):
            raise Fallback
        out[name.decode("latin-1").lower()] = text
    return out


def _check_host(headers: dict[str, str]) -> None:
    domain, _port = split_domain_port(headers.get("host", ""))
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        raise Fallback


def _is_secure(scope: dict[str, Any], headers: dict[str, str]) -> bool:
    header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if header:
        name, value = header
        sent = headers.get(name.removeprefix("HTTP_").replace("_", "-").lower(), "")
        return sent.split(",")[0].strip() == value
    return scope.get("scheme") == "https"


_CORS_PATHS = re.compile(getattr(settings, "CORS_URLS_REGEX", r"^.*$"))


def _response_headers(secure: bool, length: int, path: str) -> list[tuple[bytes, bytes]]:
    """What Django's middleware adds to this view's 200 (SecurityMiddleware, the
    clickjacking middleware, django-cors-headers' ``Vary``), for the same settings."""
    out = [
        (b"content-type", b"application/json"),
        (b"content-length", str(length).encode()),
    ]
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        out.append((b"x-content-type-options", b"nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        text = policy if isinstance(policy, str) else ",".join(policy)
        out.append((b"referrer-policy", text.encode()))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        out.append(
            (b"cross-origin-opener-policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY.encode())
        )
    if secure and settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        out.append((b"strict-transport-security", hsts.encode()))
    out.append((b"x-frame-options", getattr(settings, "X_FRAME_OPTIONS", "DENY").encode()))
    if _CORS_PATHS.match(path):
        out.append((b"vary", b"origin"))  # django-cors-headers marks every response it covers
    return out


class Reads:
    """Single-flight reads: waiters asking the same thing at the same time share one read
    (and its JSON). A read that started before a change may be shared by a waiter registered
    after it: that waiter's wake-up is already set, so it simply reads again.

    A finished read is also kept, stamped with the match's hub stamp taken **before** it
    started (:meth:`api.hub.Hub.stamp`), and answers the same question again while the stamp
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
                body = selectors.events_page(match_id, _user(auth), after, seat)
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
    """``GET /api/matches/{id}/events/`` on the lean path, or by Django (see the module)."""
    match = EVENTS_PATH.match(scope.get("path", ""))
    try:
        if match is None or scope.get("method") != "GET":
            raise Fallback
        headers = _headers(scope)
        if "origin" in headers:
            raise Fallback  # CORS: Django's middleware decides
        _check_host(headers)
        secure = _is_secure(scope, headers)
        if settings.SECURE_SSL_REDIRECT and not secure:
            raise Fallback
        after, wait, seat = _query(scope.get("query_string", b""))
        match_id = str(selectors.match_pk(match.group(1)))
    except (Fallback, AppError):
        await django(scope, receive, send)
        return
    auth = headers.get("authorization")
    key = (match_id, after, seat, auth)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + wait
    redis = use_redis()
    if redis:
        hub.ensure_running()
    client = Receive(receive)
    gone = asyncio.ensure_future(client.disconnected())
    data = b""
    try:
        with hub.listening(match_id) as changed:
            body, data = await reads.page(key, match_id, auth, after, seat)
            while (
                not body["events"]
                and body["status"] not in ("finished", "aborted")
                and (remaining := give_up - loop.time()) > 0
            ):
                listening = redis and hub.connected
                woke = asyncio.ensure_future(changed.wait())
                await asyncio.wait(
                    {woke, gone},
                    timeout=min(remaining, RECHECK_SECONDS if listening else POLL_SECONDS),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                woke.cancel()
                changed.clear()
                if gone.done():
                    return  # the client left: nobody to answer
                body, data = await reads.page(key, match_id, auth, after, seat)
    except (Fallback, AppError):
        data = b""  # Django answers it, in the API's error shape
    finally:
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await gone
    if not data:
        await django(scope, client.replay, send)
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": _response_headers(secure, len(data), scope.get("path", "")),
        }
    )
    await send({"type": "http.response.body", "body": data})
