"""Tell followers that a match changed: Redis pub/sub, one channel for all matches.

Published after commit with the match id and its new version. Followers (the long-poll events
endpoint) subscribe once per process and re-read the events table, so a lost message only
delays a follower until its next timed re-check; it never loses an event.

The publish is off the request's critical path: :func:`publish` hands the message to one
thread per process, which sends what has gathered meanwhile in one pipelined round trip while
the request goes on to answer. A message still queued when the process ends is lost, which,
as above, only delays a follower.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from typing import Any

from django.conf import settings

CHANNEL = "fibserver:match-changed"
log = logging.getLogger(__name__)
_client: Any = None
_outbox: queue.SimpleQueue[str] | None = None
_owner = 0  # the process the outbox and its thread belong to (a fork starts its own)
_lock = threading.Lock()


def _redis() -> Any:
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(str(settings.REDIS_URL), socket_timeout=2)
    return _client


def _send(messages: list[str]) -> None:
    try:
        pipe = _redis().pipeline(transaction=False)
        for message in messages:
            pipe.publish(CHANNEL, message)
        pipe.execute()
    except Exception:  # followers re-check the database on their own; never fail a move
        log.warning("could not publish %d match changes", len(messages), exc_info=True)


def _publisher(outbox: queue.SimpleQueue[str]) -> None:
    while True:
        messages = [outbox.get()]
        while True:
            try:
                messages.append(outbox.get_nowait())
            except queue.Empty:
                break
        _send(messages)


def _box() -> queue.SimpleQueue[str]:
    global _outbox, _owner, _client
    pid = os.getpid()
    if _outbox is None or _owner != pid:
        with _lock:
            if _outbox is None or _owner != pid:
                _client = None  # a forked child opens its own connection
                _outbox = queue.SimpleQueue()
                _owner = pid
                threading.Thread(
                    target=_publisher, args=(_outbox,), name="match-changed", daemon=True
                ).start()
    return _outbox


def publish(match_id: Any, version: int) -> None:
    """Queue "``match_id`` is at ``version``" for the followers (sent at once, by the
    publisher thread)."""
    if not settings.REDIS_URL:
        return
    _box().put(f"{match_id}:{version}")
