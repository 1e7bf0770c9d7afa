"""gunicorn's configuration for the API (docker-compose.yml: ``gunicorn -c
deploy/gunicorn.conf.py fibserver.wsgi:application``; the bind address and worker count stay
on the command line).

- Metrics across workers: the master empties ``PROMETHEUS_MULTIPROC_DIR`` before the first
  worker starts, and a worker that exits stops counting in the live gauges.
- Logs: with ``LOG_FORMAT=json`` gunicorn's own lines (start-up, worker restarts, errors) are
  JSON lines too, in the same format as the application's.
- Errors: what gunicorn answers itself (a request line over ``limit_request_line``: 414; too
  many or too long headers: 431 or 400; a malformed request: 400; a worker that failed before
  the application answered: 500) is in the API's one JSON error shape, not gunicorn's HTML page.
"""

from __future__ import annotations

import json
import os
from typing import Any

from gunicorn import util

#: The API's error codes (docs/api.md) for the statuses gunicorn answers by itself.
_CODES = {
    400: "invalid",
    403: "forbidden",
    413: "payload_too_large",
    414: "uri_too_long",
    431: "headers_too_large",
    500: "server_error",
    503: "unavailable",
}
_MESSAGES = {
    414: "The request line is too long.",
    431: "The request headers are too large.",
    500: "Internal Server Error.",
}


def write_json_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's ``util.write_error``, in the one JSON error shape."""
    code = _CODES.get(status_int, "invalid" if status_int < 500 else "server_error")
    message = _MESSAGES.get(status_int) or f"{reason}."
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin1") + body)


util.write_error = write_json_error


def on_starting(server: Any) -> None:
    from kernel.ops.metrics import clean_multiproc_dir

    clean_multiproc_dir()


def child_exit(server: Any, worker: Any) -> None:
    from kernel.ops.metrics import process_gone

    process_gone(worker.pid)


if os.environ.get("LOG_FORMAT", "").strip().lower() == "json" or (
    not os.environ.get("LOG_FORMAT")
    and os.environ.get("DJANGO_SETTINGS_MODULE") == "fibserver.settings.production"
):
    _handler = {
        "class": "logging.StreamHandler",
        "formatter": "json",
        "filters": ["context"],
        "stream": "ext://sys.stderr",
    }
    _own = {
        "handlers": ["console"],
        "level": os.environ.get("LOG_LEVEL", "INFO"),
        "propagate": False,
    }
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "kernel.ops.logs.ContextFilter"}},
        "formatters": {"json": {"()": "kernel.ops.logs.JsonFormatter"}},
        "handlers": {"console": _handler},
        "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
        "loggers": {"gunicorn.error": _own, "gunicorn.access": _own},
    }
