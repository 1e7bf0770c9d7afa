"""Follow-up work the services queue on commit: the next bot turn, a deadline's timer, the
end-of-match work.

Tasks are addressed by name (``games.tasks.…``), so this module — and with it every service —
never imports ``games.tasks``; only tasks import services. Where the work runs depends on
``FIBSERVER["TASKS"]``:

- ``celery`` (with Redis): sent to the Celery workers;
- ``embedded`` (the README's one command, no Redis): put on :data:`local_queue`, which the
  embedded runner thread (``games.runner``) works through with the same pacing as a worker;
  deadlines need no timer there, the runner's sweep enforces them;
- ``inline`` (tests, scripts): run right here after the commit, in the calling thread.
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
from django.utils import timezone

from .common import MatchId

TASK_PREFIX = "games.tasks."


def mode() -> str:
    return settings.FIBSERVER["TASKS"]


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
_inline = threading.local()


def _task(name: str) -> Any:
    return current_app.tasks[TASK_PREFIX + name]


def bots(match_id: MatchId, version: int) -> None:
    """The next bot decision of a match at ``version``, after the bot pause."""
    args = (str(match_id), version)
    delay = settings.FIBSERVER["BOT_DELAY_SECONDS"]
    if mode() == "celery":
        current_app.send_task(TASK_PREFIX + "run_bot_turn", args, countdown=delay)
    elif mode() == "embedded":
        local_queue.put("run_bot_turn", args, delay)
    else:
        _drain_bots(match_id)


def _drain_bots(match_id: MatchId) -> None:
    """Inline: take every bot decision now, one transaction each, in a loop rather than by
    recursion (each decision's commit asks for the next one)."""
    if getattr(_inline, "draining", False):
        return  # the loop below is already running and will pick this decision up
    from ..models import Match

    _inline.draining = True
    try:
        run = _task("run_bot_turn")
        while True:
            current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
            if current is None or not run(str(match_id), current):
                break
    finally:
        _inline.draining = False


def timer_needed(at: datetime, armed: datetime | None, now: datetime) -> bool:
    """Whether a deadline at ``at`` needs a timer of its own, the match's last timer firing at
    ``armed``: only with Celery (without it the sweep is the timer), only when ``at`` is near
    enough for a broker to hold it (long ``async`` deadlines are left to the sweep), and only
    when no timer is still to fire at or before ``at``.

    One timer per match is enough: deadlines only move later while a match is played (each is
    the time of a decision plus the seconds per decision), and a timer that finds the match
    moved on sends the next one for the deadline it finds (``services.deadline_expire``). So a
    live match sends a timer about once per deadline period rather than once per move; a timer
    that is lost is the sweep's, as before."""
    if mode() != "celery":
        return False
    if (at - now).total_seconds() > settings.FIBSERVER["DEADLINE_TIMER_HORIZON_SECONDS"]:
        return False
    return armed is None or armed <= now or armed > at


def deadline(match_id: MatchId, version: int, at: datetime) -> None:
    """The precise timer of a deadline (sent when :func:`timer_needed` said so)."""
    if mode() != "celery":
        return
    horizon = settings.FIBSERVER["DEADLINE_TIMER_HORIZON_SECONDS"]
    if (at - timezone.now()).total_seconds() > horizon:
        return
    current_app.send_task(TASK_PREFIX + "enforce_deadline", (str(match_id), version), eta=at)


def results(match_id: MatchId) -> None:
    """The end-of-match work of a finished match."""
    args = (str(match_id),)
    if mode() == "celery":
        current_app.send_task(TASK_PREFIX + "record_results", args)
    elif mode() == "embedded":
        local_queue.put("record_results", args)
    else:
        _task("record_results")(*args)


def tournament_round(match_id: MatchId) -> None:
    """The end-of-round work of a tournament's match (docs/tournaments.md)."""
    args = (str(match_id),)
    if mode() == "celery":
        current_app.send_task(TASK_PREFIX + "tournament_round_ended", args)
    elif mode() == "embedded":
        local_queue.put("tournament_round_ended", args)
    else:
        _task("tournament_round_ended")(*args)


def export(export_id: object) -> None:
    """Write a player's data export (``accounts.export.export_build``)."""
    args = (str(export_id),)
    if mode() == "celery":
        current_app.send_task(TASK_PREFIX + "build_export", args)
    elif mode() == "embedded":
        local_queue.put("build_export", args)
    else:
        _task("build_export")(*args)
