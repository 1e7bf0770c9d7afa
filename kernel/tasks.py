"""Task dispatch by name: the one switch between Celery, the embedded runner and inline work.

Every app queues its follow-up work by the task's full name (``games.tasks.run_bot_turn``,
``accounts.tasks.build_export``), so no module that queues work imports the module that holds
the task, and this layer names none of the apps. Where the work runs depends on
``FIBSERVER["TASKS"]``:

- ``celery`` (with Redis): sent to the Celery workers;
- ``embedded`` (the README's one command, no Redis): put on :data:`local_queue`, which the
  embedded runner thread (``fibserver.runner``) works through with the same pacing as a worker;
- ``inline`` (tests, scripts): run right here, in the calling thread.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from datetime import datetime
from typing import Any

from celery import current_app
from django.conf import settings


def mode() -> str:
    return str(settings.FIBSERVER["TASKS"])


class LocalQueue:
    """Work due at a monotonic time, for the embedded runner: ``(due, task name, args)``."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, str, tuple[Any, ...]]] = []
        self._order = itertools.count()
        self._ready = threading.Condition()

    def put(self, name: str, args: tuple[Any, ...], delay: float = 0.0) -> None:
        with self._ready:
            heapq.heappush(self._heap, (time.monotonic() + delay, next(self._order), name, args))
            self._ready.notify()

    def take(self, timeout: float) -> tuple[str, tuple[Any, ...]] | None:
        """The next due item, waiting at most ``timeout`` seconds for one."""
        give_up = time.monotonic() + timeout
        with self._ready:
            while True:
                now = time.monotonic()
                if self._heap and self._heap[0][0] <= now:
                    _, _, name, args = heapq.heappop(self._heap)
                    return name, args
                until = min(self._heap[0][0], give_up) if self._heap else give_up
                if until <= now:
                    return None
                self._ready.wait(until - now)

    def clear(self) -> None:
        with self._ready:
            self._heap.clear()

    def __len__(self) -> int:
        return len(self._heap)


local_queue = LocalQueue()


def task(name: str) -> Any:
    """The task registered under ``name`` (its app's ``tasks`` module registered it at start)."""
    return current_app.tasks[name]


def send(name: str, args: tuple[Any, ...], *, delay: float = 0.0) -> None:
    """Run the task ``name`` with ``args``: on a worker after ``delay`` seconds, on the
    embedded runner after ``delay``, or inline now (``delay`` ignored)."""
    if mode() == "celery":
        if delay:
            current_app.send_task(name, args, countdown=delay)
        else:
            current_app.send_task(name, args)
    elif mode() == "embedded":
        local_queue.put(name, args, delay)
    else:
        task(name)(*args)


def send_at(name: str, args: tuple[Any, ...], at: datetime) -> None:
    """A timer: the task ``name`` at ``at``, with Celery only (without it the sweeps stand in)."""
    if mode() == "celery":
        current_app.send_task(name, args, eta=at)
