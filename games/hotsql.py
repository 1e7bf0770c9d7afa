"""The cursor of the hot statements (issue 16): a move's read and write, a view's read and a
conditional GET's tag — each sent again and again with the same text.

Django's PostgreSQL cursors bind parameters on the client (psycopg's ``ClientCursor``): each
execution quotes every parameter into the text in Python, and PostgreSQL parses and plans the
whole text again. :func:`cursor` gives a cursor with server-side binding on the same
connection (the same transaction, Django's error mapping and query logging): the text goes
with ``$n`` placeholders and the parameters apart, dumped by psycopg's C adapters, and after
``prepare_threshold`` executions on a connection (psycopg's default, 5) the statement is
prepared once and only executed from then on.

``DB_PREPARED_STATEMENTS=false`` turns it off (the ORM's cursor everywhere), for a
connection pooler in transaction mode that cannot keep a prepared statement on a connection.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.conf import settings
from django.db import connection


def cursor() -> Any:
    """A cursor for one of the hot statements (use it as ``with cursor() as c:``)."""
    if connection.vendor != "postgresql" or not settings.FIBSERVER["PREPARED_STATEMENTS"]:
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = psycopg.Cursor(connection.connection)
    connection.validate_thread_sharing()
    if connection.queries_logged:  # counted and logged as the ORM's are
        return connection.make_debug_cursor(raw)  # type: ignore[arg-type]
    return connection.make_cursor(raw)  # type: ignore[arg-type]
