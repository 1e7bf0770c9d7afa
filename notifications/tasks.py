"""Celery tasks of the notifications: thin, idempotent; they call the services and channels.

- :func:`deliver`: one delivery to one channel; a failure is tried again by Celery after the
  back-off its record says (the record, not the task, decides: a lost task is found again);
- :func:`relay`: run by the sweep (Celery beat's, or the embedded runner's, every second):
  reminders that are due, the outbox relay, and deliveries whose task was lost. Without Celery
  the deliveries are attempted right there, in the sweep.
"""

from __future__ import annotations

from typing import Any

from celery import current_app, shared_task
from django.conf import settings

from . import channels, services

#: With Celery, a pending delivery this late (seconds) lost its task: the relay sends it again.
LOST_AFTER = 120


@shared_task(bind=True, acks_late=True, ignore_result=True, name="notifications.tasks.deliver")
def deliver(self: Any, delivery_id: int) -> bool:
    """One attempt; ``True`` when nothing more is to be done."""
    again = channels.attempt(delivery_id)
    if again is not None:
        raise self.retry(countdown=again, max_retries=None)
    return True


def _celery() -> bool:
    return settings.FIBSERVER["TASKS"] == "celery"


def send(ids: list[int]) -> None:
    """Send the deliveries ``ids`` now: as Celery tasks, or here."""
    if _celery():
        for delivery_id in ids:
            current_app.send_task("notifications.tasks.deliver", (delivery_id,))
        return
    for delivery_id in ids:
        channels.attempt(delivery_id)


def relay() -> int:
    """Reminders due, notifications to hand to the channels, deliveries due again. Returns the
    deliveries sent."""
    services.reminders_fire()
    sent = 0
    while True:
        ids = services.dispatch()
        send(ids)
        sent += len(ids)
        if len(ids) < 1000:
            break
    again = services.pending_deliveries(late=LOST_AFTER if _celery() else 0)
    send(again)
    return sent + len(again)
