"""Celery tasks: thin, idempotent, version-checked; they fetch by id and call a service.

Two ways work gets done, with the same code:
- with Redis, Celery workers run these tasks (``acks_late``, lost workers' tasks re-queued),
  and Celery beat runs :func:`sweep` every second;
- in the embedded default (no Redis) bot turns run in-process right after the commit that
  made them due, and a thread in the server process runs :func:`sweep` (``games.runner``).
Either way deadlines live in the database, so nothing a crashed process held is lost.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import services
from .models import Match

_local = threading.local()


@shared_task(acks_late=True, ignore_result=True)
def run_bot_turn(match_id: str, version: int) -> bool:
    """One bot decision, if the match is still at ``version`` (a stale task does nothing)."""
    return services.bot_act(match_id=match_id, expected_version=version)


@shared_task(acks_late=True, ignore_result=True)
def enforce_deadline(match_id: str, version: int) -> int:
    """The precise timer of a deadline: takes the overdue decisions if nothing moved since."""
    return services.deadline_expire(match_id=match_id, expected_version=version)


@shared_task(acks_late=True, ignore_result=True)
def record_results(match_id: str) -> bool:
    """The end-of-match work of a finished match (applied once, whatever the retries)."""
    return services.match_record_results(match_id=match_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep() -> int:
    """Beat, every second: whatever a lost timer or a crashed worker left behind."""
    return services.deadlines_sweep()


def schedule_bots(match_id: Any, version: int) -> None:
    """Queue the next bot decision of a match (called on commit by the services).

    With a real broker it is a task, after a short pause so humans can follow the table. In
    the embedded mode the decisions are taken right here, one transaction each, in a loop
    rather than by recursion."""
    if not settings.FIBSERVER["RUN_TASKS_INLINE"]:
        run_bot_turn.apply_async(
            (str(match_id), version), countdown=settings.FIBSERVER["BOT_DELAY_SECONDS"]
        )
        return
    if getattr(_local, "draining", False):
        return  # the loop below is already running and will pick this decision up
    _local.draining = True
    try:
        while True:
            current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
            if current is None or not services.bot_act(match_id=match_id, expected_version=current):
                break
    finally:
        _local.draining = False


def schedule_deadline(match_id: Any, version: int, deadline: datetime) -> None:
    """A precise timer for a new deadline, when it is near enough for a broker to hold it
    (long ``async`` deadlines are left to the sweep). The embedded runner sweeps instead."""
    if settings.FIBSERVER["RUN_TASKS_INLINE"]:
        return
    horizon = settings.FIBSERVER["DEADLINE_TIMER_HORIZON_SECONDS"]
    if (deadline - timezone.now()).total_seconds() > horizon:
        return
    enforce_deadline.apply_async((str(match_id), version), eta=deadline)


def schedule_results(match_id: Any) -> None:
    """Queue the end-of-match work (called on commit by the finisher)."""
    if settings.FIBSERVER["RUN_TASKS_INLINE"]:
        services.match_record_results(match_id=match_id)
    else:
        record_results.delay(str(match_id))
