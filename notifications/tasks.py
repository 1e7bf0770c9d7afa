"""Celery tasks of the notifications: thin, idempotent; they call the services and channels.

- :func:`deliver`: a batch of deliveries, each to one channel; a failure is tried again by a
  task sent for after its back-off (the record decides: a lost task is found again);
- :func:`relay`: every ``SWEEP_SECONDS`` (Celery beat, or the embedded runner):
  reminders that are due, the outbox relay, and deliveries whose task was lost. Without Celery
  the deliveries are attempted right there, in the sweep.
"""

from __future__ import annotations

from celery import current_app, shared_task
from django.conf import settings

from . import channels, deliveries, services

#: With Celery, a pending delivery this late (seconds) lost its task: the relay sends it again.
LOST_AFTER = 120


#: Deliveries one task attempts (side by side).
BATCH = 50


@shared_task(acks_late=True, ignore_result=True, name="notifications.tasks.deliver")
def deliver(delivery_ids: list[int]) -> int:
    """One attempt of each delivery; those that failed are sent again, as a task that waits for
    their back-off (their records, not this task, say when: a lost task is found again by the
    relay). Returns how many are to be tried again."""
    again = channels.attempt_many(list(delivery_ids))
    by_wait: dict[float, list[int]] = {}
    for delivery_id, wait in again.items():
        by_wait.setdefault(wait, []).append(delivery_id)
    for wait, ids in by_wait.items():
        current_app.send_task("notifications.tasks.deliver", (ids,), countdown=wait)
    return len(again)


@shared_task(acks_late=True, ignore_result=True, name="notifications.tasks.digests")
def digests() -> int:
    """Beat, every ``DIGEST_SECONDS``: the daily digests due (:mod:`notifications.digest`)."""
    from .digest import digests_send

    return digests_send()


def _celery() -> bool:
    return settings.FIBSERVER["TASKS"] == "celery"


def send(ids: list[int]) -> None:
    """Send the deliveries ``ids`` now: as Celery tasks, or here."""
    for first in range(0, len(ids), BATCH):
        batch = ids[first : first + BATCH]
        if _celery():
            current_app.send_task("notifications.tasks.deliver", (batch,))
        else:
            channels.attempt_many(batch)


@shared_task(acks_late=True, ignore_result=True, expires=5, name="notifications.tasks.relay")
def relay() -> int:
    """Reminders due, notifications to hand to the channels, deliveries due again. Returns the
    deliveries sent."""
    while services.reminders_fire(limit=1000) == 1000:
        pass  # a burst of due reminders: all of them now, a thousand at a time
    sent = 0
    while True:
        handled, ids = deliveries.dispatch(limit=1000)
        send(ids)
        sent += len(ids)
        if handled < 1000:
            break
    again = deliveries.pending_deliveries(late=LOST_AFTER if _celery() else 0)
    send(again)
    return sent + len(again)


@shared_task(acks_late=True, ignore_result=True, name="notifications.tasks.purge")
def purge() -> int:
    """Beat, every ``PURGE_SECONDS``: notifications past their keeping time."""
    return services.notifications_purge()
