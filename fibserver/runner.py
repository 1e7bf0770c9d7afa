"""The embedded runner: bots and deadlines without Redis or Celery (the README's one command).

A daemon thread in the server process does what Celery workers and beat do in production, with
the same task functions and the same pacing:

- bot turns queued by the services (``kernel.tasks.local_queue``) run after the bot
  pause (``FIBSERVER_BOT_DELAY``), one transaction each, so a client sees a bot exhibition
  unfold, and a player marked away can act between the bot's moves;
- the one table of periodic jobs Celery beat runs (``fibserver.periodic``): every
  ``SWEEP_SECONDS`` the sweep (overdue deadlines, bot turns left waiting — after a restart the
  in-memory queue is empty, the sweep refills it — and lost end-of-match work) and the
  notification relay; every ``PURGE_SECONDS`` the purges; every ``QUEUE_SECONDS`` a pass of
  the quick-play matcher; every ``DIGEST_SECONDS`` the daily digests due.

Why a thread and not an embedded broker: Celery's in-memory broker cannot be shared between
processes and a second process would need its own start command; everything the runner needs
to know is in the database, the queue only saves it from polling.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections, connections

from kernel.tasks import local_queue, task

from .periodic import PERIODIC

log = logging.getLogger(__name__)
_lock = threading.Lock()
_thread: threading.Thread | None = None
_stop = threading.Event()


def _run(name: str, *args: object) -> None:
    try:
        close_old_connections()
        task(name)(*args)
    except Exception:  # keep running: the sweep retries whatever this left undone
        log.exception("embedded runner: %s%r failed", name, args)


def _periodic(now: float, due: dict[str, float]) -> None:
    for job in PERIODIC:
        name = job.name
        if now >= due.get(name, 0.0):
            due[name] = now + job.seconds()
            try:
                close_old_connections()
                done = task(job.task)()
                if done and name == "sweep":
                    log.info("embedded runner: %d overdue decision(s) taken by bots", done)
            except Exception:  # a failed pass is retried at the next interval
                log.exception("embedded runner: %s failed", name)


def _loop() -> None:
    due: dict[str, float] = {}
    try:
        while not _stop.is_set():
            _periodic(time.monotonic(), due)
            wait = max(0.0, min(due.values()) - time.monotonic())
            item = local_queue.take(timeout=wait)
            if item is not None and not _stop.is_set():
                _run(item[0], *item[1])
    finally:
        connections.close_all()


def start() -> bool:
    """Start the runner thread (once per process). Returns whether this call started it."""
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return False
        _stop.clear()
        _thread = threading.Thread(target=_loop, name="fibserver-embedded-runner", daemon=True)
        _thread.start()
    log.info("embedded runner: deadlines swept every %.1fs", settings.FIBSERVER["SWEEP_SECONDS"])
    return True


def stop(timeout: float = 5.0) -> None:
    """Stop the runner thread and wait for it (tests; the server simply exits)."""
    global _thread
    with _lock:
        thread, _thread = _thread, None
    _stop.set()
    local_queue.put("__wake__", ())  # wake the thread if it is waiting on the queue
    if thread is not None:
        thread.join(timeout)
    local_queue.clear()
