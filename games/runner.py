"""The embedded runner: deadlines enforced without Redis or Celery (the README's one command).

A daemon thread in the server process calls the same sweep that Celery beat runs in
production, once a second. Bot turns need no runner in this mode: they are taken in-process
right after the commit that made them due (``games.tasks.schedule_bots``). Why a thread and
not an embedded broker: Celery's in-memory broker cannot be shared between processes, and a
second process would need its own start command; the sweep alone is enough, because every
deadline is stored in the database.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)
_lock = threading.Lock()
_thread: threading.Thread | None = None
_stop = threading.Event()


def _loop() -> None:
    from django.db import connections

    from .services import deadlines_sweep

    interval = settings.FIBSERVER["SWEEP_SECONDS"]
    try:
        while not _stop.is_set():
            try:
                close_old_connections()
                taken = deadlines_sweep()
                if taken:
                    log.info("embedded runner: %d overdue decision(s) taken by bots", taken)
            except Exception:  # keep sweeping: a failed pass is retried a second later
                log.exception("embedded runner: sweep failed")
            _stop.wait(interval)
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
    if thread is not None:
        thread.join(timeout)
