"""gunicorn's configuration for the API (docker-compose.yml: ``gunicorn -c
deploy/gunicorn.conf.py fibserver.wsgi:application``; the bind address and worker count stay
on the command line).

- Metrics across workers: the master empties ``PROMETHEUS_MULTIPROC_DIR`` before the first
  worker starts, and a worker that exits stops counting in the live gauges.
- Logs: with ``LOG_FORMAT=json`` gunicorn's own lines (start-up, worker restarts, errors) are
  JSON lines too, in the same format as the application's.
"""

from __future__ import annotations

import os
from typing import Any


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
