"""One match as a view or a move needs it, in **one** statement (PostgreSQL): the match row,
the database clock, the seats with their players and the recent events.

A single statement sees a single snapshot, so these never mix versions — without the
``REPEATABLE READ`` transaction (``BEGIN``, ``SET TRANSACTION``, three reads, ``COMMIT``) a
read through the ORM needs for the same guarantee. The seats and events come back as JSON
arrays built by PostgreSQL and are turned into model instances (seats, their players) and
plain rows (events) here. Used by ``games.selectors`` (the caller's view) and
``games.services.optimistic`` (a move's read); it imports neither.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings

from accounts.models import User

from . import hotsql
from .models import Match, Seat

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
    """A recent log row, as a view reads it (``selectors.EventRow``): no model instance."""

    seq: int
    version: int
    type: str
    public: Any
    private: Any
    by_bot: bool


def _datetime(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def match_rows(pk: Any) -> tuple[Match, list[Seat], list[Recent]] | None:
    """The match (its ``db_clock`` set, as ``services.common.locked`` sets it), its seats
    with their players and its recent events (the last ``RECENT_EVENTS``), from one
    statement; ``None`` if there is no match."""
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


def _rows(row: Any) -> tuple[Match, list[Seat], list[Recent]]:
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
