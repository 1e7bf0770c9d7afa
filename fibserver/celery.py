"""Celery application. Configuration comes from Django settings (``CELERY_*`` names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

app = Celery("fibserver")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

from kernel.ops import worker as _ops  # noqa: E402, F401  (request ids, task metrics, logs)


@app.on_after_finalize.connect
def _schedule_periodic(sender: Celery, **_: object) -> None:
    """Beat runs the deadline sweep every second or so (``FIBSERVER["SWEEP_SECONDS"]``) and
    the purge of expired records every ``FIBSERVER["PURGE_SECONDS"]``, the quick-play matcher
    every ``FIBSERVER["QUEUE_SECONDS"]`` and the daily digests due every
    ``NOTIFICATIONS["DIGEST_SECONDS"]``."""
    from django.conf import settings

    sender.add_periodic_task(
        settings.FIBSERVER["SWEEP_SECONDS"], sender.signature("games.tasks.sweep"), name="sweep"
    )
    sender.add_periodic_task(
        settings.FIBSERVER["PURGE_SECONDS"], sender.signature("games.tasks.purge"), name="purge"
    )
    sender.add_periodic_task(
        settings.FIBSERVER["QUEUE_SECONDS"],
        sender.signature("matchmaking.tasks.queue_match"),
        name="queue",
    )
    sender.add_periodic_task(
        settings.NOTIFICATIONS["DIGEST_SECONDS"],
        sender.signature("notifications.tasks.digests"),
        name="digests",
    )
