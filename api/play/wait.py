"""The one wait loop of every follower: the long-poll (``api.longpoll``), the fast lane's
follower (``api.fast.follower``) and the GraphQL subscription (``api.graphql.subscriptions``).

:func:`pages` yields pages of a caller's event feed: the first at once, then one after each
wake-up. A waiter registers with the process's one Redis subscription (:mod:`.hub`) *before*
its first read, so a change committed between a read and the wait still wakes it; it re-reads
the events table on every wake-up (a message is never trusted for content) and every
``RECHECK_SECONDS`` anyway (``POLL_SECONDS`` without Redis), so a lost message or a Redis
outage only delays it, and a gap is always rebuilt from the log. Each consumer takes what it
needs: a long-poll the first page with news, a subscription every page until the end.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from .hub import POLL_SECONDS, RECHECK_SECONDS, hub

#: A page of a caller's feed (``games.reads.feeds.read_feed``).
Page = dict[str, Any]
#: The statuses after which a match has nothing more to say once its last event is read.
OVER = ("finished", "aborted")


def has_news(page: Page) -> bool:
    """Whether a long-poll answers with ``page`` now: it has events, or the match is over."""
    return bool(page["events"]) or page["status"] in OVER


async def pages(
    read: Callable[[int], Awaitable[Page]],
    match_key: str,
    after: int,
    *,
    hubbed: bool,
    until: float | None = None,
    gone: asyncio.Future[Any] | None = None,
) -> AsyncIterator[Page]:
    """Pages of ``read(after)``, moving ``after`` past each page's events, until a page shows
    the match over with nothing more to deliver, ``until`` (a time of the running loop)
    passes, or ``gone`` (the client left) is done. ``hubbed``: woken by the Redis subscription
    (else the database is polled)."""
    loop = asyncio.get_running_loop()
    if hubbed:
        hub.ensure_running()
    with hub.listening(match_key) as changed:
        while True:
            page = await read(after)
            yield page
            if page["events"]:
                after = page["events"][-1]["seq"]
                if page["more"]:
                    continue
            if page["status"] in OVER:
                return
            timeout = RECHECK_SECONDS
            if hubbed:
                hub.ensure_running()
            if not (hubbed and hub.connected):
                timeout = POLL_SECONDS
            if until is not None:
                remaining = until - loop.time()
                if remaining <= 0:
                    return
                timeout = min(timeout, remaining)
            await _wake(changed, timeout, gone)
            if gone is not None and gone.done():
                return


async def _wake(changed: asyncio.Event, timeout: float, gone: asyncio.Future[Any] | None) -> None:
    """Until the match changed, ``timeout`` seconds passed or the client left; then clear the
    wake-up, so the read that follows is the one a later change must wake again."""
    woke = asyncio.ensure_future(changed.wait())
    waited: set[asyncio.Future[Any]] = {woke} if gone is None else {woke, gone}
    try:
        await asyncio.wait(waited, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        woke.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await woke
    changed.clear()
