"""The matcher's Celery task (beat, every ``QUEUE_SECONDS``; the embedded runner calls it too)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(acks_late=True, ignore_result=True, expires=5)
def queue_match() -> int:
    """One pass of the quick-play matcher; returns how many tables it started."""
    return len(services.queue_match())
