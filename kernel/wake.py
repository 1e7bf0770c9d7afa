"""Tell followers that a match changed: Redis pub/sub, one channel for all matches.

Published after commit with the match id and its new version. Followers (the long-poll events
endpoint) subscribe once per process and re-read the events table, so a lost message only
delays a follower until its next timed re-check; it never loses an event.

The publish is off the request's critical path: :func:`publish` hands the message to one
thread per process, which sends what has gathered meanwhile in one pipelined round trip while
the request goes on to answer.

**At exit** (:func:`_flush_at_exit`, an ``atexit`` hook) the publisher is given
``EXIT_SECONDS`` to send what is still queued, then the connection is closed from the main
thread; what it could not send in that time (Redis away) is dropped knowingly, which, as
above, only delays a follower. The client never closes itself in ``__del__``: at interpreter
shutdown that ran ``ConnectionPool.disconnect``, which waits for the pool's lock, and a daemon
thread frozen by the shutdown while it held that lock (the publisher, mid-send) left the
process hanging after its last line forever (a management command that moved a match, a
worker being recycled).
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from typing import Any

from django.conf import settings

CHANNEL = "fibserver:match-changed"
log = logging.getLogger(__name__)
_client: Any = None
_outbox: queue.SimpleQueue[tuple[str, str]] | None = None
_owner = 0  # the process the outbox and its thread belong to (a fork starts its own)
_thread: threading.Thread | None = None
_lock = threading.Lock()
#: Seconds a process ending waits for the publisher to send what is queued.
EXIT_SECONDS = 2.0
#: Put on the outbox to end the publisher thread.
_STOP = ("", "\x00stop")


def _redis() -> Any:
    global _client
    if _client is None:
        import redis

        class Client(redis.Redis):  # type: ignore[misc, type-arg]
            def __del__(self) -> None:
                """Closed by :func:`_flush_at_exit`, never by the garbage collector (see the
                module's docstring)."""

        _client = Client.from_url(str(settings.REDIS_URL), socket_timeout=2)
    return _client


def _send(messages: list[tuple[str, str]]) -> None:
    try:
        pipe = _redis().pipeline(transaction=False)
        for channel, message in messages:
            pipe.publish(channel, message)
        pipe.execute()
    except Exception:  # followers re-check the database on their own; never fail a move
        log.warning("could not publish %d match changes", len(messages), exc_info=True)


def _publisher(outbox: queue.SimpleQueue[tuple[str, str]]) -> None:
    while True:
        messages = [outbox.get()]
        while True:
            try:
                messages.append(outbox.get_nowait())
            except queue.Empty:
                break
        stop = _STOP in messages
        messages = [m for m in messages if m != _STOP]
        if messages:
            _send(messages)
        if stop:
            return


def _flush_at_exit() -> None:
    """Send what is queued (for at most ``EXIT_SECONDS``), then close the connection."""
    global _client
    thread, outbox = _thread, _outbox
    if thread is None or outbox is None or _owner != os.getpid() or not thread.is_alive():
        return
    outbox.put(_STOP)
    thread.join(EXIT_SECONDS)
    if thread.is_alive():
        log.warning("match changes still unsent at exit: dropped (followers re-check)")
        return  # the thread may hold the pool: leave the connection to the OS
    client, _client = _client, None
    if client is not None:
        try:
            client.close()
        except Exception:
            log.debug("closing the wake-up connection failed", exc_info=True)


def _box() -> queue.SimpleQueue[tuple[str, str]]:
    global _outbox, _owner, _client, _thread
    pid = os.getpid()
    if _outbox is None or _owner != pid:
        with _lock:
            if _outbox is None or _owner != pid:
                _client = None  # a forked child opens its own connection
                _outbox = queue.SimpleQueue()
                _owner = pid
                _thread = threading.Thread(
                    target=_publisher, args=(_outbox,), name="match-changed", daemon=True
                )
                _thread.start()
    return _outbox


atexit.register(_flush_at_exit)


def publish(match_id: Any, version: int) -> None:
    """Queue "``match_id`` is at ``version``" for the followers (sent at once, by the
    publisher thread)."""
    publish_on(CHANNEL, f"{match_id}:{version}")


def publish_on(channel: str, message: str) -> None:
    """Queue ``message`` for ``channel`` (sent at once, by the publisher thread, with whatever
    else is queued)."""
    if not settings.REDIS_URL:
        return
    _box().put((channel, message))
