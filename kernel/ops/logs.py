"""Log lines as JSON (``LOG_FORMAT=json``, the production default), one object a line, with
the request id, the match id and the user id of the work at hand (:mod:`.context`).

Fields: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``; then, where known,
``request_id``, ``match_id``, ``user_id``, ``task`` and ``task_id`` (in a Celery task),
``trace_id`` and ``span_id`` (with tracing on); any ``extra`` the call passed (the request
log line's ``method``, ``route``, ``status``, ``duration_ms``); ``exc`` with a traceback.
:class:`ContextFilter` adds the context to every record, so the text format can show the
request id too.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import orjson

from . import context

#: The attributes every LogRecord has: anything else on a record came from ``extra``.
_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}
_CONTEXT = ("request_id", "match_id", "user_id", "task", "task_id", "trace_id", "span_id")


class ContextFilter(logging.Filter):
    """Puts the context of the work at hand on every record (``None`` where unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = context.request_id.get()
        record.match_id = context.match_id.get()
        req = context.request.get()
        record.user_id = context.user_id_of(req) if req is not None else None
        running = context.task.get()
        record.task, record.task_id = running if running is not None else (None, None)
        record.trace_id = record.span_id = None
        from . import tracing

        if tracing.enabled:
            record.trace_id, record.span_id = tracing.current_ids()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in _CONTEXT:
            value = record.__dict__.get(name)
            if value is not None:
                out[name] = value
        for name, value in record.__dict__.items():
            if name not in _STANDARD and name not in _CONTEXT and name not in out:
                out[name] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(out, default=str).decode()
