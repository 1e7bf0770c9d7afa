"""Celery's side of operations, connected when the Celery app loads (``fibserver.celery``):

- the request id of the request (or task) that sends a task travels in the task's headers
  (``request_id``) and is the request id of the task's log lines, with the task's name and id
  and, for the match tasks, the match id;
- ``fibserver_celery_tasks_total`` and ``fibserver_celery_task_duration_seconds``;
- ``worker_init`` (the worker's main process, before its pool starts): empties
  ``PROMETHEUS_MULTIPROC_DIR`` and, with ``METRICS_PORT``, serves ``/metrics`` (the same answer
  as the API's, behind the same ``METRICS_TOKEN``) for every process of the worker;
- each pool process starts tracing for itself when the ``OTEL_*`` variables ask for it;
- with ``LOG_FORMAT=json`` Celery leaves logging to Django's configuration (JSON lines).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from celery import signals
from django.conf import settings

from . import context, metrics, scrape, tracing

log = logging.getLogger("fibserver.task")

#: Tasks whose first argument is a match id.
MATCH_TASKS = frozenset(
    {
        "games.tasks.run_bot_turn",
        "games.tasks.enforce_deadline",
        "games.tasks.record_results",
        "games.tasks.tournament_round_ended",
        "games.tasks.event_round_ended",
        "tournaments.tasks.round_ended",
    }
)
HEADER = "request_id"

_running: dict[str, tuple[float, tuple[Any, ...]]] = {}


@signals.before_task_publish.connect
def _pass_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    rid = context.request_id.get()
    if rid is not None and headers is not None:
        headers[HEADER] = rid


@signals.task_prerun.connect
def _task_begins(task_id: str | None = None, task: Any = None, args: Any = None, **_: Any) -> None:
    if task is None or task_id is None:
        return
    rid = context.valid_request_id(getattr(task.request, HEADER, None)) or task_id
    match = str(args[0]) if task.name in MATCH_TASKS and args else None
    _running[task_id] = (
        time.perf_counter(),
        (
            context.request_id.set(rid),
            context.match_id.set(match),
            context.task.set((task.name, task_id)),
        ),
    )


@signals.task_postrun.connect
def _task_ends(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    begun = _running.pop(task_id or "", None)
    seconds = time.perf_counter() - begun[0] if begun is not None else None
    name = getattr(task, "name", "unknown")
    outcome = (state or "unknown").lower()
    metrics.task_done(name, outcome, seconds)
    log.debug("task %s: %s", name, outcome, extra={"outcome": outcome})
    if begun is not None:
        rid, match, running = begun[1]
        context.task.reset(running)
        context.match_id.reset(match)
        context.request_id.reset(rid)


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def metrics_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """``/metrics`` of a Celery worker (any other path: 404), as :func:`.scrape.answer` says."""
    path = environ.get("PATH_INFO", "")
    token = settings.METRICS_TOKEN if path in ("/metrics", "/metrics/") else None
    status, headers, body = scrape.answer(
        environ.get("REQUEST_METHOD", "GET"), environ.get("HTTP_AUTHORIZATION"), token
    )
    reason = {200: "OK", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed"}
    start_response(f"{status} {reason.get(status, '')}", headers)
    return [body]


def serve_metrics(port: int, host: str = "0.0.0.0") -> _Server:
    server = make_server(host, port, metrics_app, _Server, handler_class=_QuietHandler)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    return server  # type: ignore[return-value]


@signals.worker_init.connect
def _worker_starts(**_: Any) -> None:
    metrics.clean_multiproc_dir()
    port = os.environ.get("METRICS_PORT", "").strip()
    if port:
        serve_metrics(int(port), os.environ.get("METRICS_HOST", "0.0.0.0"))
        log.info("metrics on port %s", port)


@signals.worker_process_init.connect
def _pool_process_starts(**_: Any) -> None:
    tracing.setup("worker")


@signals.worker_process_shutdown.connect
def _pool_process_ends(pid: int | None = None, **_: Any) -> None:
    metrics.process_gone(pid or os.getpid())


def _leave_logging_to_django(**_: Any) -> None:
    """Connected to ``setup_logging`` with ``LOG_FORMAT=json``: Celery then configures no
    logging of its own, and Django's ``LOGGING`` (JSON lines) applies."""


if getattr(settings, "LOG_FORMAT", "text") == "json":
    signals.setup_logging.connect(_leave_logging_to_django, weak=False)
