"""Following a match: the long-poll events endpoint as an async view.

In production this runs in its own ASGI process (uvicorn, ``fibserver.asgi``): a waiting client
holds no thread and no worker, only a future. Each process keeps **one** Redis subscription and
fans the "match changed" messages out to its waiters in-process. Waiters always re-read the
events table (never trust a message for content), and re-check it every few seconds anyway, so a
lost message or a Redis outage only delays a follower; no event is ever missed.

Under WSGI (``runserver``, gunicorn) the same view works by polling the database, holding the
worker while it waits: the reverse proxy routes ``/api/…/events/`` to the ASGI process instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import APIException

from api.authentication import BearerTokenAuthentication
from api.errors import error_body, exception_handler
from fibserver.errors import AppError
from games import selectors
from games.notify import CHANNEL

from .rest.matches import events_params, seat_param

log = logging.getLogger(__name__)

#: Re-read the events table at least this often while waiting, message or not (seconds).
RECHECK_SECONDS = 5.0
#: Without Redis (embedded mode, or under WSGI) waiters poll the database this often.
POLL_SECONDS = 0.5


class Hub:
    """One Redis subscription per process and event loop; wakes the waiters of a match."""

    def __init__(self) -> None:
        self.waiters: dict[str, set[asyncio.Event]] = defaultdict(set)
        self.task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.connected = False

    def ensure_running(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.loop is not loop:
            self.loop = loop
            self.task = loop.create_task(self._listen())

    async def _listen(self) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(str(settings.REDIS_URL))
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    self.connected = True
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self.wake(message["data"].decode().split(":", 1)[0])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("follower lost its Redis subscription; retrying", exc_info=True)
            finally:
                self.connected = False
                with contextlib.suppress(Exception):
                    await client.aclose()
            self.wake_all()  # let everyone re-check the database while we reconnect
            await asyncio.sleep(1.0)

    def wake(self, match_id: str) -> None:
        for event in self.waiters.get(match_id, ()):
            event.set()

    def wake_all(self) -> None:
        for events in self.waiters.values():
            for event in events:
                event.set()

    async def wait(self, match_id: str, timeout: float) -> None:
        event = asyncio.Event()
        self.waiters[match_id].add(event)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)
        finally:
            self.waiters[match_id].discard(event)
            if not self.waiters[match_id]:
                del self.waiters[match_id]


hub = Hub()


def _authenticate(request: HttpRequest) -> Any:
    """The same token authentication as the REST views (``Bearer`` or DRF ``Token``)."""
    for scheme in (BearerTokenAuthentication(), TokenAuthentication()):
        found = scheme.authenticate(request)
        if found is not None:
            return found[0]
    return None


async def match_events(request: HttpRequest, match_id: str) -> JsonResponse:
    """``GET /api/matches/{id}/events/?after=N&wait=S`` (see the OpenAPI schema)."""
    if request.method != "GET":
        return JsonResponse(
            error_body("method_not_allowed", "Use GET."), status=405, headers={"Allow": "GET"}
        )
    try:
        after, wait = events_params(request)
        seat = seat_param(request)
        user = await sync_to_async(_authenticate)(request)
        body = await sync_to_async(selectors.events_page)(match_id, user, after, seat)
    except (APIException, AppError) as error:
        response = exception_handler(error, {})  # the one error shape of the whole API
        assert response is not None, "API and application errors always map to a response"
        return JsonResponse(response.data, status=response.status_code)
    if body["events"] or wait <= 0 or body["status"] in ("finished", "aborted"):
        return JsonResponse(body)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + wait
    use_hub = bool(settings.REDIS_URL) and hasattr(request, "scope")  # ASGI with Redis
    if use_hub:
        hub.ensure_running()
    key = str(selectors.match_pk(match_id))
    while (remaining := give_up - loop.time()) > 0:
        if use_hub and hub.connected:
            await hub.wait(key, min(remaining, RECHECK_SECONDS))
        else:
            await asyncio.sleep(min(remaining, POLL_SECONDS))
        body = await sync_to_async(selectors.events_page)(match_id, user, after, seat)
        if body["events"] or body["status"] in ("finished", "aborted"):
            break
    return JsonResponse(body)
