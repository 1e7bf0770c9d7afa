"""Celery application. Configuration comes from Django settings (``CELERY_*`` names)."""

import os

from celery import Celery, signals

from fibserver.healing import guard_kombu

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

# A worker (and beat) survives a Redis restart and reconnects within a second of its return
# (fibserver/healing.py): patched when a worker or beat starts, not
# at import (kombu's Redis transport imports redis-py, which imports OpenTelemetry: a web
# process that never traces must not load it).
signals.worker_init.connect(lambda **_: guard_kombu(), weak=False)
signals.beat_init.connect(lambda **_: guard_kombu(), weak=False)
# Every task runs again, once, on a fresh database connection if it met a dead one.
app = Celery("fibserver", task_cls="fibserver.healing:HealingTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

from kernel.ops import worker as _ops  # noqa: E402, F401  (request ids, task metrics, logs)


@app.on_after_finalize.connect
def _schedule_periodic(sender: Celery, **_: object) -> None:
    """Beat runs the one table of periodic jobs (``fibserver.periodic``): the deadline sweep
    and the notification relay every ``FIBSERVER["SWEEP_SECONDS"]``, the purges every
    ``FIBSERVER["PURGE_SECONDS"]``, the quick-play matcher every ``FIBSERVER["QUEUE_SECONDS"]``
    and the daily digests due every ``NOTIFICATIONS["DIGEST_SECONDS"]``."""
    from fibserver.periodic import PERIODIC

    for job in PERIODIC:
        sender.add_periodic_task(job.seconds(), sender.signature(job.task), name=job.name)
