"""``matchEvents``: the caller's redacted events as they are committed, over a websocket.

Served by the ASGI follower, in the one wait loop of every follower (:func:`api.play.wait.pages`,
woken by the process's one Redis subscription, the same as the long-poll's). A message only
says "look again": every delivery is a re-read of the events table through the same reader as
REST's event feed (``games.reads.feeds.read_feed``: one snapshot, one redaction), after the
last sequence number delivered. So a subscriber that reconnects with
``after`` = the last ``seq`` it saw misses nothing and sees nothing twice, and a lost message
only delays it until the next re-check. The subscription completes once a finished (or aborted)
match has delivered its last event.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection

from api.play.hub import use_redis
from api.play.wait import Page, pages
from games.access import match_pk
from games.reads import feeds
from kernel.ops import metrics

from .types import MatchEvent

T = TypeVar("T")


def _fresh(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` with the database connection handled as Django handles it around a request
    (a websocket has no request cycle): stale connections closed before and after. Inside a
    transaction (tests) the transaction decides."""

    def run(*args: Any, **kwargs: Any) -> T:
        if not connection.in_atomic_block:
            close_old_connections()
        try:
            return fn(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                close_old_connections()

    return run


async def db(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run the synchronous selector or service ``fn`` from async code."""
    return await sync_to_async(_fresh(fn))(*args, **kwargs)


async def first_page(user: Any, match_id: str, after: int, seat: int | None) -> dict[str, Any]:
    """The first read, before the stream starts: a caller who may not see the match is refused
    here (``not_found``, as in REST), with an ``error`` message and no stream."""
    return await db(feeds.read_feed, match_id, user, after, seat)


async def follow(
    user: Any, match_id: str, after: int, seat: int | None, page: dict[str, Any]
) -> AsyncGenerator[MatchEvent, None]:
    """Deliver ``page``, then every later event once, until a match that is over has no more."""
    with metrics.following("subscription"):
        if page["events"]:
            metrics.delivered("subscription", len(page["events"]))
        for event in page["events"]:
            yield MatchEvent.of(event)
            after = event["seq"]

        async def read(since: int) -> Page:
            return await db(feeds.read_feed, match_id, user, since, seat)

        # From here on the hub is listened to *before* each read: a change committed between a
        # read and the wait still wakes this subscriber.
        async for later in pages(read, str(match_pk(match_id)), after, hubbed=use_redis()):
            if later["events"]:
                metrics.delivered("subscription", len(later["events"]))
            for event in later["events"]:
                yield MatchEvent.of(event)
