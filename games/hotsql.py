"""The cursor of the hot statements: a move's read and write, a view's read and a
conditional GET's tag — each sent again and again with the same text.

Django's PostgreSQL cursors bind parameters on the client (psycopg's ``ClientCursor``): each
execution quotes every parameter into the text in Python, and PostgreSQL parses and plans the
whole text again. :func:`cursor` gives a cursor with server-side binding on the same
connection (the same transaction, Django's error mapping and query logging): the text goes
with ``$n`` placeholders and the parameters apart, dumped by psycopg's C adapters, and the
statement is prepared on its first execution on a connection and only executed from then on
(psycopg keeps the last 100 per connection; Django turns psycopg's automatic preparing off,
so these cursors ask for it).

``DB_PREPARED_STATEMENTS=false`` turns it off (the ORM's cursor everywhere), for a
connection pooler in transaction mode that cannot keep a prepared statement on a connection.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper

#: A ``prepare_threshold`` no statement reaches by repetition.
ONLY_WHEN_ASKED = 2**31


class PreparingCursor(psycopg.Cursor[Any]):
    """A server-side binding cursor whose statements are prepared (``prepare=True``)."""

    def execute(  # type: ignore[override]
        self,
        query: Any,
        params: Any = None,
        *,
        prepare: bool | None = None,
        binary: bool | None = None,
    ) -> Any:
        return super().execute(
            query, params, prepare=True if prepare is None else prepare, binary=binary
        )


class _DebugCursor(CursorDebugWrapper):
    """Django's logging cursor, logging the statement's text (Django asks psycopg for the
    text it last sent, which a prepared statement's execution does not keep)."""

    @contextmanager
    def debug_sql(
        self,
        sql: Any = None,
        params: Any = None,
        use_last_executed_query: bool = False,
        many: bool = False,
    ) -> Iterator[None]:
        with super().debug_sql(sql, params, use_last_executed_query=False, many=many):
            yield


def cursor() -> Any:
    """A cursor for one of the hot statements (use it as ``with cursor() as c:``)."""
    if connection.vendor != "postgresql" or not settings.FIBSERVER["PREPARED_STATEMENTS"]:
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = PreparingCursor(connection.connection)
    if connection.connection.prepare_threshold is None:
        # Django turns preparing off on every connection (psycopg then ignores ``prepare``);
        # this leaves it off for every statement that does not ask for it.
        connection.connection.prepare_threshold = ONLY_WHEN_ASKED
    connection.validate_thread_sharing()
    if connection.queries_logged:  # counted and logged as the ORM's are
        return _DebugCursor(raw, connection)
    return connection.make_cursor(raw)  # type: ignore[arg-type]
