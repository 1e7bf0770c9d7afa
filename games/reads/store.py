"""The one seam between the readers and the database vendor: every read that PostgreSQL does
differently lives here, behind a function that answers the same on every database.

- :func:`snapshot`: several tables read as of one moment (PostgreSQL: a ``REPEATABLE READ``
  transaction; SQLite's read transactions are snapshots already);
- :func:`match_rows`: one match as a view or a move needs it — the match row, the database
  clock (PostgreSQL), the seats with their players and the recent events. On PostgreSQL in
  **one** statement: a single statement sees a single snapshot, so these never mix versions,
  without the transaction (``BEGIN``, ``SET TRANSACTION``, three reads, ``COMMIT``) the ORM
  needs for the same guarantee; the seats and events come back as JSON arrays built by
  PostgreSQL and are turned into model instances (seats, their players) and plain rows
  (events) here. Elsewhere through the ORM, in a snapshot;
- :func:`match_rows_answered` (PostgreSQL only: the optimistic move of
  ``games.services.optimistic``): the same, with a user's stored ``Idempotency-Key`` answer;
- :func:`tag_rows`: what a view's ETag depends on, in one indexed statement.

The statements PostgreSQL runs again and again are prepared once per connection
(``games.hotsql``). Used by ``games.reads`` and ``games.services.optimistic``; it imports
neither.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.db import connection, transaction

from accounts.models import User

from .. import hotsql
from ..models import Event, Match, Seat

_MATCH_FIELDS = [f for f in Match._meta.concrete_fields]
_SEAT_FIELDS = [f for f in Seat._meta.concrete_fields]
#: A seat's player, as far as a view and the checks read it (the model's field order, which
#: ``Model.from_db`` expects of a partial row); the rest is deferred.
_USER_FIELDS = [
    f.attname
    for f in User._meta.concrete_fields
    if f.attname in {"id", "username", "display_name", "is_guest", "is_active"}
]
_EVENT_FIELDS = ["seq", "version", "type", "public", "private", "by_bot"]


def _read_sql() -> str:
    columns = ", ".join(f'm."{f.column}"' for f in _MATCH_FIELDS)
    seat = ", ".join(f's."{f.column}"' for f in _SEAT_FIELDS)
    user = ", ".join(f'u."{name}"' for name in _USER_FIELDS)
    event = ", ".join(f'e."{name}"' for name in _EVENT_FIELDS)
    return (
        f"SELECT {columns}, clock_timestamp(), "
        f'(SELECT json_agg(json_build_array({seat}, {user}) ORDER BY s."position")::text '
        'FROM "games_seat" s LEFT JOIN "accounts_user" u ON u."id" = s."user_id" '
        'WHERE s."match_id" = m."id"), '
        f'(SELECT json_agg(json_build_array({event}) ORDER BY e."seq")::text '
        'FROM "games_event" e WHERE e."match_id" = m."id" AND e."seq" > m."last_seq" - %s) '
        'FROM "games_match" m WHERE m."id" = %s'
    )


READ_SQL = _read_sql()
#: :data:`READ_SQL` with the answer stored for a user's ``Idempotency-Key``, if any.
READ_ANSWERED_SQL = READ_SQL.replace(
    ' FROM "games_match" m WHERE',
    ', (SELECT json_build_array(r."request_hash", r."status_code", r."body")::text '
    'FROM "games_idempotencyrecord" r WHERE r."user_id" = %s AND r."key" = %s) '
    'FROM "games_match" m WHERE',
)


@dataclass(slots=True)
class Recent:
    """A recent log row, as a view reads it (``redaction.EventRow``): no model instance."""

    seq: int
    version: int
    type: str
    public: Any
    private: Any
    by_bot: bool


def _datetime(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


@contextmanager
def snapshot() -> Iterator[None]:
    """Read several tables as of one moment: a match, its seats and its events must never
    mix versions. On PostgreSQL a REPEATABLE READ transaction (one snapshot for every
    statement, and it never blocks a writer); SQLite's read transactions are snapshots."""
    if connection.in_atomic_block:  # already inside a transaction: it decides
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


Rows = tuple[Match, list[Seat], list[Recent]]


def match_rows(pk: Any) -> Rows | None:
    """The match, its seats with their players and its recent events (the last
    ``RECENT_EVENTS``) as of one moment; ``None`` if there is no match. On PostgreSQL from one
    statement, with the match's ``db_clock`` set (as ``services.common.locked`` sets it)."""
    if connection.vendor != "postgresql":
        return _orm_rows(pk)
    with hotsql.cursor() as cursor:
        cursor.execute(READ_SQL, [settings.FIBSERVER["RECENT_EVENTS"], pk])
        row = cursor.fetchone()
    return None if row is None else _rows(row)


def match_rows_answered(
    pk: Any, user_id: int, key: str
) -> tuple[tuple[Match, list[Seat], list[Recent]] | None, tuple[str, int, str] | None]:
    """:func:`match_rows`, and in the same statement the answer stored for ``user_id``'s
    ``Idempotency-Key`` ``key``: ``(request hash, status, body)``, or ``None``."""
    with hotsql.cursor() as cursor:
        cursor.execute(READ_ANSWERED_SQL, [settings.FIBSERVER["RECENT_EVENTS"], user_id, key, pk])
        row = cursor.fetchone()
    if row is None:
        return None, None
    stored = orjson.loads(row[-1]) if row[-1] is not None else None
    return _rows(row), (tuple(stored) if stored else None)  # type: ignore[return-value]


def _orm_rows(pk: Any) -> Rows | None:
    with snapshot():
        match = Match.objects.filter(pk=pk).first()
        if match is None:
            return None
        seats = list(match.seats.select_related("user").order_by("position"))
        recent = settings.FIBSERVER["RECENT_EVENTS"]
        rows = Event.objects.filter(match=match, seq__gt=match.last_seq - recent).order_by("seq")
        events = [Recent(e.seq, e.version, e.type, e.public, e.private, e.by_bot) for e in rows]
    return match, seats, events


#: What :func:`tag_rows` reads on PostgreSQL: the match by its key, its seats and their
#: players — the ORM's query for it, without compiling it again on every conditional GET.
TAG_SQL = (
    'SELECT "games_match"."version", "games_match"."updated_at", "games_match"."visibility", '
    '"games_match"."created_by_id", "games_seat"."user_id", "games_seat"."position", '
    '"accounts_user"."display_name", "accounts_user"."username" FROM "games_match" '
    'LEFT OUTER JOIN "games_seat" ON ("games_match"."id" = "games_seat"."match_id") '
    'LEFT OUTER JOIN "accounts_user" ON ("games_seat"."user_id" = "accounts_user"."id") '
    'WHERE "games_match"."id" = %s ORDER BY "games_seat"."position" ASC'
)


def tag_rows(pk: Any) -> list[Any]:
    """What a view's ETag depends on, one row per seat (a match without seats: one row):
    ``(version, updated_at, visibility, created_by_id, seat user_id, seat position, display
    name, username)``, in seat order, in **one** indexed statement (the match by its primary
    key, its seats by ``(match, position)`` and their users by key); no row: no match."""
    if connection.vendor == "postgresql":
        with hotsql.cursor() as cursor:  # the statement the ORM builds, built once
            cursor.execute(TAG_SQL, [pk])
            return list(cursor.fetchall())
    return list(
        Match.objects.filter(pk=pk)
        .order_by("seats__position")
        .values_list(
            "version",
            "updated_at",
            "visibility",
            "created_by_id",
            "seats__user_id",
            "seats__position",
            "seats__user__display_name",
            "seats__user__username",
        )
    )


def _rows(row: Any) -> Rows:
    n = len(_MATCH_FIELDS)
    values = list(row[:n])
    for i, field in enumerate(_MATCH_FIELDS):
        if field.get_internal_type() == "JSONField" and values[i] is not None:
            values[i] = orjson.loads(values[i])
    match = Match.from_db("default", [f.attname for f in _MATCH_FIELDS], values)
    match.__dict__["db_clock"] = row[n]
    seats = []
    k = len(_SEAT_FIELDS)
    for entry in orjson.loads(row[n + 1] or "[]"):
        seat_values = entry[:k]
        for i, field in enumerate(_SEAT_FIELDS):
            if field.get_internal_type() == "DateTimeField":
                seat_values[i] = _datetime(seat_values[i])
        seat = Seat.from_db("default", [f.attname for f in _SEAT_FIELDS], seat_values)
        if seat.user_id is not None:
            seat.user = User.from_db("default", _USER_FIELDS, entry[k:])
        else:
            seat.user = None
        seat.match = match
        seats.append(seat)
    events = [Recent(*e) for e in orjson.loads(row[n + 2] or "[]")]
    return match, seats, events
