"""The ASGI server's first and last word (the follower and ``scripts/serve``, both uvicorn).

- **Bodies are bounded before the application reads them** (:func:`bounded_bodies`): uvicorn
  hands an application a body as it arrives and waits for it as long as the client likes, and
  Django's ASGI handler reads the whole body before any middleware can refuse it, so a lying
  ``Content-Length`` or a body that never ends held a request (and its task) forever. Here a
  declared ``Content-Length`` over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is answered 413
  ``payload_too_large`` at once, unread; a body (declared or chunked) that grows past it, 413
  as soon as it does; and a body not complete within ``BODY_SECONDS`` (a slow body, or fewer
  bytes than declared), 408 ``request_timeout``. Each of these answers closes the connection.
  A request without a body (every ``GET``, the long-poll) passes untouched.
- **Failures are JSON** (:func:`json_errors`): whatever fails in an HTTP request before its
  answer has begun is answered in the one JSON error shape, 503 ``unavailable`` with
  ``Retry-After`` when the database or Redis does not answer, else 500 ``server_error``; never
  uvicorn's plain-text "Internal Server Error".
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from kernel import outage

log = logging.getLogger("fibserver.request")

ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]

#: Seconds a request's whole body may take to arrive (``FIBSERVER_BODY_SECONDS``).
BODY_SECONDS = float(os.environ.get("FIBSERVER_BODY_SECONDS", "10"))


def error_answer(
    status: int, code: str, message: str, close: bool = False, **details: Any
) -> list[dict[str, Any]]:
    """The two ASGI messages of a JSON error answer (``close``: and the connection after it,
    for a refusal that leaves a body unread)."""
    body = orjson.dumps({"error": {"code": code, "message": message, **details}})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if status == 503:
        headers.append((b"retry-after", str(outage.RETRY_AFTER_SECONDS).encode()))
    if close:
        headers.append((b"connection", b"close"))
    return [
        {"type": "http.response.start", "status": status, "headers": headers},
        {"type": "http.response.body", "body": body},
    ]


def json_errors(app: ASGIApp) -> ASGIApp:
    """``app`` with its HTTP failures answered in the one error shape (see the module)."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: dict[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await app(scope, receive, tracking_send)
        except Exception as error:
            if started:
                raise  # half an answer is out: the server closes the connection
            if outage.is_outage(error):
                log.warning(
                    "%s %s: unavailable (%r)", scope.get("method"), scope.get("path"), error
                )
                messages = error_answer(
                    503, "unavailable", outage.MESSAGE, retry_after=outage.RETRY_AFTER_SECONDS
                )
            else:
                log.exception("%s %s failed", scope.get("method"), scope.get("path"))
                messages = error_answer(500, "server_error", "Internal Server Error.")
            for message in messages:
                await send(message)

    return guarded


def _declared_length(scope: dict[str, Any]) -> tuple[int | None, bool]:
    """The declared ``Content-Length`` (``None``: none, or not a number) and whether the
    body is chunked."""
    length: int | None = None
    chunked = False
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            length = int(value) if value.isdigit() else None
        elif name == b"transfer-encoding":
            chunked = True
    return length, chunked


def bounded_bodies(app: ASGIApp, limit: int | None = None) -> ASGIApp:
    """``app`` with every request body bounded in size and time (see the module)."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        most = limit if limit is not None else _upload_limit()
        length, chunked = _declared_length(scope)
        if not chunked and not length:
            await app(scope, receive, send)  # no body to wait for
            return
        if length is not None and length > most:
            await _refuse(send, 413, "payload_too_large", f"The request body is over {most} bytes.")
            return
        body = await _read_body(receive, most)
        if isinstance(body, int):
            if body == 413:
                message = f"The request body is over {most} bytes."
                await _refuse(send, 413, "payload_too_large", message)
            elif body == 408:
                message = f"The request body did not arrive within {BODY_SECONDS:g} s."
                await _refuse(send, 408, "request_timeout", message)
            return  # 0: the client left
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # what comes next: the client leaving

        await app(scope, replay, send)

    return guarded


def _upload_limit() -> int:
    from django.conf import settings

    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**62)


async def _read_body(receive: Any, most: int) -> bytes | int:
    """The whole body, or 413 (too big), 408 (too slow), 0 (the client left)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + BODY_SECONDS
    parts: list[bytes] = []
    size = 0
    while True:
        try:
            message = await asyncio.wait_for(receive(), max(0.0, until - loop.time()))
        except TimeoutError:
            return 408
        if message["type"] == "http.disconnect":
            return 0
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > most:
            return 413
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


async def _refuse(send: Any, status: int, code: str, message: str) -> None:
    log.info("refused a request body: %s %s", status, code)
    for part in error_answer(status, code, message, close=True):
        await send(part)
