"""Celery tasks: thin, idempotent, version-checked; they fetch by id and call a service."""

from __future__ import annotations

import threading
from typing import Any

from celery import shared_task
from django.conf import settings

from . import services
from .models import Match

_local = threading.local()


@shared_task(acks_late=True, ignore_result=True)
def run_bot_turn(match_id: str, version: int) -> bool:
    """One bot decision, if the match is still at ``version`` (a stale task does nothing)."""
    return services.bot_act(match_id=match_id, expected_version=version)


def schedule_bots(match_id: Any, version: int) -> None:
    """Queue the next bot decision of a match (called on commit by the services).

    With a real broker it is a task, after a short pause so humans can follow the table. In
    the embedded, eager mode the decisions are taken right here, one transaction each, in a
    loop rather than by recursion."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
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
