"""Processes that heal by themselves: the Celery worker, beat and the embedded runner after the
database or Redis went away and came back (docs/operations.md, "Outages").

- **A dead database connection** (a failover, a restart, ``pg_terminate_backend``): Django
  replaces a broken connection only at the start and end of a request; a Celery worker (which
  keeps its connection for ``CELERY_DB_REUSE_MAX`` tasks) and the runner thread would keep
  failing on it. :func:`drop_broken_connections` runs before and after every task, and
  :class:`HealingTask` (the Celery app's task class) runs a task that met a dead connection
  once more on a fresh one. Every task is idempotent and version-checked, and the failed
  transaction was rolled back, so a second run never applies anything twice.
- **A Redis restart**: when a worker loses its broker connection, Celery closes the old
  connection, and kombu's Redis transport then tries to put the worker's unacknowledged
  messages back on their queues through that connection's transport, which ``collect()`` has
  already detached (``AttributeError: 'NoneType' object has no attribute 'hostname'`` in
  ``restore_unacked``), and the worker exits with "Unrecoverable error". :func:`guard_kombu`
  makes that step give up quietly instead: the messages stay in Redis's unacknowledged index,
  where any worker's ``restore_visible`` puts them back after the visibility timeout, or, if
  Redis came back empty, they are gone, which loses nothing: deadlines and bot turns live in
  the database, and the sweep takes whatever was due. And the worker tries to reconnect every
  ``RECONNECT_SECONDS`` at most (kombu's default waits 2, 4, 6 … up to 30 s between attempts,
  so a worker could stay idle for up to 30 s after Redis was back).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from celery import Task
from django.db import InterfaceError, OperationalError, connections

log = logging.getLogger("fibserver.healing")

T = TypeVar("T")

#: What a connection the database dropped raises (psycopg's "the connection is lost",
#: "the connection is closed", a server that terminated the backend, or is not there).
CONNECTION_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


def in_transaction() -> bool:
    """Whether any database connection is inside ``atomic()`` (a test's transaction, a
    caller's): a retry there would run inside the broken transaction, so there is none."""
    return any(conn.in_atomic_block for conn in connections.all(initialized_only=True))


def drop_broken_connections() -> None:
    """Close every connection that has failed and no longer answers, as Django does between
    requests; the next query opens a fresh one. A healthy connection costs nothing here (a
    flag is read; only a connection that saw an error is asked ``SELECT 1``). How long a
    healthy connection is kept stays ``CELERY_DB_REUSE_MAX``'s business."""
    for conn in connections.all(initialized_only=True):
        if conn.in_atomic_block or conn.connection is None or not conn.errors_occurred:
            continue
        if conn.is_usable():
            conn.errors_occurred = False
        else:
            conn.close()


def _close_after_error() -> None:
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            try:
                conn.close()
            except Exception:  # a connection that is gone may fail to close: it is closed
                log.debug("closing a broken connection failed", exc_info=True)


def with_fresh_connection(name: str, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``work``; if it meets a connection the database dropped (and no transaction of
    the caller's is open), close the connections and run it once more on fresh ones."""
    try:
        return work(*args, **kwargs)
    except CONNECTION_ERRORS as error:
        if in_transaction():
            raise
        log.warning("%s met a dead database connection (%s); again on a fresh one", name, error)
        _close_after_error()
    return work(*args, **kwargs)


class HealingTask(Task):  # type: ignore[misc]  # Celery is untyped
    """The Celery app's task class (``Celery(task_cls=...)``, so every ``shared_task`` has
    it): a task that meets a dead database connection runs again on a fresh one, once."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if getattr(self.request, "is_eager", False) or in_transaction():
            return super().__call__(*args, **kwargs)  # inline tasks: the caller's connection
        drop_broken_connections()
        try:
            return with_fresh_connection(self.name, super().__call__, *args, **kwargs)
        finally:
            drop_broken_connections()


_guarded = False
#: The longest a worker waits between two attempts to reconnect to the broker.
RECONNECT_SECONDS = 1.0


def guard_kombu() -> None:
    """Make the Redis transport's ``restore_unacked`` survive a connection that was already
    collected (see the module's docstring). Idempotent."""
    global _guarded
    if _guarded:
        return
    from kombu.transport import redis as kombu_redis

    original = kombu_redis.QoS.restore_unacked

    def restore_unacked(self: Any, client: Any = None) -> Any:
        transport = getattr(self.channel, "connection", None)
        if client is None and (transport is None or getattr(transport, "client", None) is None):
            log.warning(
                "broker connection lost with %d unacknowledged message(s): left to Redis's "
                "visibility timeout (deadlines and bot turns are swept from the database)",
                len(self._delivered),
            )
            self._delivered.clear()
            return None
        try:
            return original(self, client)
        except AttributeError:  # the same, found deeper: the transport was detached
            log.warning("could not restore unacknowledged messages: broker connection gone")
            self._delivered.clear()
            return None

    kombu_redis.QoS.restore_unacked = restore_unacked  # type: ignore[method-assign]

    from kombu import Connection

    ensure = Connection._ensure_connection

    def ensure_often(
        self: Any,
        errback: Any = None,
        max_retries: Any = None,
        interval_start: float = 2,
        interval_step: float = 2,
        interval_max: float = 30,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        most = RECONNECT_SECONDS
        return ensure(
            self,
            errback,
            max_retries,
            min(interval_start, most),
            min(interval_step, most),
            min(interval_max, most),
            *args,
            **kwargs,
        )

    Connection._ensure_connection = ensure_often  # type: ignore[method-assign]
    _guarded = True
