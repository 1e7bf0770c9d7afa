"""Where the commit step's writes go (:func:`.step.commit_step`).

The step decides what changes — the match's columns, the events, the seats' bookkeeping and
the work queued on commit — in one place; a sink only stores it:

- :data:`ORM` writes each part at once through the ORM, inside the caller's transaction (which
  holds the match's row lock), and queues the follow-up work with ``transaction.on_commit``;
- :class:`Batch` (PostgreSQL) collects them and writes the whole step in **one** statement: a
  conditional ``UPDATE`` of the match (``WHERE version = <the version the step was computed
  from>``) and, only when that row was updated, the events ``INSERT`` and the seats
  ``UPDATE``, as data-modifying CTEs of that statement. In autocommit that statement is its own
  transaction: all of it or nothing is stored, and a concurrent writer (which always bumps the
  version) makes it store nothing. Follow-up work is queued only once it has been stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.db import connection, models, transaction

from ..models import Event, IdempotencyRecord, Match, Seat


class Sink(Protocol):
    def events(self, rows: list[Event]) -> None: ...

    def seats(self, seats: list[Seat], changes: dict[int, set[str]]) -> None: ...

    def match(self, match: Match, fields: list[str] | None) -> None: ...

    def on_commit(self, work: Callable[[], None]) -> None: ...

    def finishing(self) -> None: ...


class OrmSink:
    """Each write at once, in the caller's transaction."""

    def events(self, rows: list[Event]) -> None:
        Event.objects.bulk_create(rows)

    def seats(self, seats: list[Seat], changes: dict[int, set[str]]) -> None:
        from .step import save_seats

        save_seats(seats, changes)

    def match(self, match: Match, fields: list[str] | None) -> None:
        if fields is None:
            match.save()
        else:
            match.save(update_fields=fields)

    def on_commit(self, work: Callable[[], None]) -> None:
        transaction.on_commit(work)

    def finishing(self) -> None:
        return None


ORM = OrmSink()


class NotBatched(Exception):
    """The step needs more than one statement can write (the match ends: the finisher)."""


class Batch:
    """One step's writes, stored by :meth:`store` in one statement if the match is still at
    ``version`` (see the module docstring)."""

    def __init__(self, match: Match) -> None:
        self.pk = match.pk
        self.version = match.version
        self.rows: list[Event] = []
        self.seat_rows: list[Seat] = []
        self.seat_fields: list[str] = []
        self.match_fields: list[str] = []
        self.match_obj: Match | None = None
        self.work: list[Callable[[], None]] = []
        self.record: IdempotencyRecord | None = None

    def events(self, rows: list[Event]) -> None:
        self.rows.extend(rows)

    def seats(self, seats: list[Seat], changes: dict[int, set[str]]) -> None:
        if changes:
            self.seat_rows = [s for s in seats if s.position in changes]
            self.seat_fields = sorted(set().union(*changes.values()))

    def match(self, match: Match, fields: list[str] | None) -> None:
        if fields is None:
            raise NotBatched("the whole row changes")
        self.match_obj, self.match_fields = match, list(fields)

    def on_commit(self, work: Callable[[], None]) -> None:
        self.work.append(work)

    def finishing(self) -> None:
        raise NotBatched("the match ends")

    def answer(self, record: IdempotencyRecord) -> None:
        """Store this answer to an ``Idempotency-Key`` with the step (in the same statement:
        if another request stored one for the same key first, the statement fails with an
        ``IntegrityError`` and stores nothing)."""
        self.record = record

    def sql(self) -> tuple[str, list[Any]]:
        """The statement and its parameters."""
        assert self.match_obj is not None, "the step wrote no match row"
        match, params = self.match_obj, []
        sets = []
        for name in self.match_fields:
            field = _field(Match, name)
            value = field.pre_save(match, False)
            sets.append(f'"{field.column}" = {_param(field)}')
            params.append(field.get_db_prep_save(value, connection))
        parts = [
            'WITH m AS (UPDATE "games_match" SET ' + ", ".join(sets) + ' WHERE "id" = %s AND '
            '"version" = %s AND "status" = %s RETURNING "id")'
        ]
        params += [self.pk, self.version, Match.Status.ACTIVE]
        if self.rows:
            parts.append(_insert("e", self.rows, params))
        if self.record is not None:
            parts.append(_insert("r", [self.record], params))
        if self.seat_rows:
            fields = [_field(Seat, name) for name in ["position", *self.seat_fields]]
            names = ", ".join(f'"{f.column}"' for f in fields)
            row = "(" + ", ".join(_param(f) for f in fields) + ")"
            sets = [f'"{f.column}" = v."{f.column}"' for f in fields[1:]]
            parts.append(
                ', s AS (UPDATE "games_seat" AS t SET ' + ", ".join(sets) + " FROM m, "
                f"(VALUES {', '.join([row] * len(self.seat_rows))}) AS v({names}) "
                'WHERE t."match_id" = m."id" AND t."position" = v."position")'
            )
            for seat in self.seat_rows:
                for f in fields:
                    params.append(f.get_db_prep_save(getattr(seat, f.attname), connection))
        parts.append(" SELECT count(*) FROM m")
        return "".join(parts), params

    def store(self) -> bool:
        """Write the step; ``False`` (nothing written) when the match has moved on. Outside a
        transaction the statement commits by itself; inside one (a test's) it is part of it."""
        sql, params = self.sql()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            stored = cursor.fetchone()[0] == 1
        if stored:
            for work in self.work:
                transaction.on_commit(work)  # outside a transaction: right now
        return stored


def _insert(alias: str, rows: list[Any], params: list[Any]) -> str:
    """A CTE inserting ``rows`` (unsaved instances of one model) if ``m`` updated a row."""
    model = type(rows[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    row = "(" + ", ".join(_param(f) for f in fields) + ")"
    for obj in rows:
        for f in fields:
            params.append(f.get_db_prep_save(f.pre_save(obj, True), connection))
    return (
        f', {alias} AS (INSERT INTO "{model._meta.db_table}" ({columns}) SELECT v.* FROM m, '
        f"(VALUES {', '.join([row] * len(rows))}) AS v({columns}))"
    )


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


_casts: dict[Any, str] = {}


def _param(field: Any) -> str:
    """A placeholder with the column's type, so a ``VALUES`` list knows what it holds."""
    found = _casts.get(field)
    if found is None:
        found = _casts[field] = f"%s::{field.cast_db_type(connection)}"
    return found
