"""The follower's wake-up: one Redis pub/sub subscription per process, fanned out in-process.

Services publish "match changed" after commit (:mod:`kernel.wake`). Every follower in the ASGI
process — a long-poll of the events endpoint (:mod:`api.longpoll`, or the fast lane's follower
:mod:`api.fast.follower`) or a GraphQL subscription (:mod:`api.graphql.subscriptions`), all in
the one wait loop :func:`api.play.wait.pages` — registers with the one :data:`hub` and is woken
when its match changes. A message only says "look again": followers always re-read the events table
(never trust a message for content) and re-check it every :data:`RECHECK_SECONDS` anyway, so a
lost message or a Redis outage only delays a follower; no event is ever missed. Without Redis
(the embedded default) followers poll the database every :data:`POLL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import defaultdict
from collections.abc import Iterator

from django.conf import settings

from kernel.wake import CHANNEL

log = logging.getLogger(__name__)

#: Re-read the events table at least this often while waiting, message or not (seconds).
RECHECK_SECONDS = 5.0
#: Without Redis (embedded mode, or under WSGI) waiters poll the database this often.
POLL_SECONDS = 0.5


class Hub:
    """One Redis subscription per process and event loop; wakes the waiters of a match."""

    def __init__(self) -> None:
        self.waiters: dict[str, set[asyncio.Event]] = defaultdict(set)
        #: Per followed match, a stamp that changes with every wake-up (from one counter that
        #: only grows, so a stamp is never reused): a read stamped with the current value has
        #: seen every change this process was told of (:class:`api.fast.follower.Reads`).
        self.stamps: dict[str, int] = {}
        self._counter = itertools.count(1)
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
                    self.wake_all()  # whatever changed before we listened: read again
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
        if match_id in self.stamps:
            self.stamps[match_id] = next(self._counter)
        for event in self.waiters.get(match_id, ()):
            event.set()

    def wake_all(self) -> None:
        for match_id in self.stamps:
            self.stamps[match_id] = next(self._counter)
        for events in self.waiters.values():
            for event in events:
                event.set()

    def stamp(self, match_id: str) -> int | None:
        """The match's current stamp while it has waiters and the subscription is up."""
        return self.stamps.get(match_id) if self.connected else None

    @contextlib.contextmanager
    def listening(self, match_id: str) -> Iterator[asyncio.Event]:
        """Register a waiter for ``match_id`` for as long as the block runs.

        Register *before* reading the events table: a change committed between the read and
        the wait then still sets the event, so the follower reads again at once."""
        event = asyncio.Event()
        self.waiters[match_id].add(event)
        if match_id not in self.stamps:
            self.stamps[match_id] = next(self._counter)
        try:
            yield event
        finally:
            self.waiters[match_id].discard(event)
            if not self.waiters[match_id]:
                del self.waiters[match_id]
                self.stamps.pop(match_id, None)

    async def wait(self, match_id: str, timeout: float) -> None:
        with self.listening(match_id) as event:
            await wait_for_event(event, timeout)


async def wait_for_event(event: asyncio.Event, timeout: float) -> None:
    """Wait until ``event`` is set or ``timeout`` seconds pass, then clear it."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)
    event.clear()


def use_redis() -> bool:
    """Whether followers here are woken by Redis (else they poll the database)."""
    return bool(settings.REDIS_URL)


hub = Hub()
