"""Who a token belongs to, from this process's memory: the fast lane's moves and views without
a network round trip for the token.

The fast lane (:mod:`api.fast`) keeps the user and session of a token it has checked in a
dictionary of this process, keyed by the token's digest (never the token), for at most
:data:`LOCAL_SECONDS`. Everything that ends a session or changes its user — a logout, a
revocation, a password change, a deactivation, an account deleted — goes through
:func:`api.authentication.forget_digest`, which drops the entry here at once and publishes the
digest on :data:`CHANNEL`; every other process drops it when the message arrives.

**The bound.** A process trusts its entries only while its subscription to :data:`CHANNEL` is
up: it is confirmed before the first entry is kept, and when it drops (Redis restarted,
unreachable) the dictionary is emptied and nothing is kept until a new subscription is
confirmed. So a session that ended is refused by every process as soon as the message is
delivered — milliseconds — and, should Redis ever lose a message on a live subscription, by
:data:`LOCAL_SECONDS` at the latest. An entry is never kept from a lookup that raced with an
invalidation: a lookup notes the count of invalidations seen before it reads the database, and
keeps nothing if that count moved meanwhile. ``tests/api/test_local_tokens.py`` holds it to
this, across processes.

Without Redis (the embedded default: one process) there is nothing to subscribe to: the
invalidation is local, at once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.conf import settings

CHANNEL = "fibserver:token-forgotten"
#: The longest an entry is used (seconds), whatever else happens.
LOCAL_SECONDS = 60.0
#: Entries kept at most (the oldest dropped first beyond).
MAX_ENTRIES = 50_000
log = logging.getLogger(__name__)

_entries: dict[str, tuple[Any, Any, float]] = {}  # digest -> (user, session, expires at)
_forgotten = 0  # invalidations seen by this process (local and delivered)
_lock = threading.Lock()


class _Subscription:
    """This process's subscription to :data:`CHANNEL` (a daemon thread, started lazily and
    again in a forked child)."""

    owner = 0
    up = False
    thread: threading.Thread | None = None

    @classmethod
    def ready(cls) -> bool:
        """Whether entries may be kept and used now."""
        if not settings.REDIS_URL:
            return True
        if cls.owner != os.getpid():
            with _lock:
                if cls.owner != os.getpid():
                    cls.owner, cls.up = os.getpid(), False
                    _entries.clear()
                    cls.thread = threading.Thread(
                        target=cls._listen, name="token-forgotten", daemon=True
                    )
                    cls.thread.start()
        return cls.up

    @classmethod
    def _listen(cls) -> None:
        import redis

        owner = cls.owner
        while cls.owner == owner:
            client = None
            try:
                client = redis.Redis.from_url(
                    str(settings.REDIS_URL), socket_timeout=None, client_name=client_name()
                )
                pubsub = client.pubsub(ignore_subscribe_messages=False)
                pubsub.subscribe(CHANNEL)
                for message in pubsub.listen():
                    if message["type"] == "subscribe":
                        _drop_all()  # nothing seen while away can be trusted
                        cls.up = True
                    elif message["type"] == "message":
                        _drop(message["data"].decode().split(","))
            except Exception:
                log.debug("token invalidations: subscription lost", exc_info=True)
            finally:
                cls.up = False
                _drop_all()
                if client is not None:
                    try:
                        client.close()
                    except Exception:
                        log.debug("closing the subscription failed", exc_info=True)
            time.sleep(0.5)


def client_name() -> str:
    """The name of this process's subscription connection (``CLIENT LIST``)."""
    return f"fibserver-token-forgotten-{os.getpid()}"


def _drop(digests: list[str]) -> None:
    global _forgotten
    with _lock:
        _forgotten += 1
        for digest in digests:
            _entries.pop(digest, None)


def _drop_all() -> None:
    global _forgotten
    with _lock:
        _forgotten += 1
        _entries.clear()


def mark() -> int:
    """Note before reading a token from the database; pass to :func:`keep`."""
    return _forgotten


def get(digest: str) -> tuple[Any, Any] | None:
    """The ``(user, session)`` kept for a token's digest, if it may be used."""
    found = _entries.get(digest)
    if found is None or not _Subscription.ready():
        return None
    if found[2] < time.monotonic():
        _entries.pop(digest, None)
        return None
    return found[0], found[1]


def keep(digest: str, user: Any, session: Any, seen: int) -> None:
    """Keep a token's ``(user, session)`` read since :func:`mark` returned ``seen``, unless an
    invalidation arrived meanwhile or the subscription is not up."""
    if not _Subscription.ready():
        return
    with _lock:
        if _forgotten != seen:
            return
        if len(_entries) >= MAX_ENTRIES:
            _entries.pop(next(iter(_entries)))
        _entries[digest] = (user, session, time.monotonic() + LOCAL_SECONDS)


def forget(digests: list[str]) -> None:
    """Drop the entries of these digests here, now, and in every process (published)."""
    _drop(digests)
    if not settings.REDIS_URL or not digests:
        return
    from kernel import wake

    wake.publish_on(CHANNEL, ",".join(digests))
