"""Where the commit step's writes go (:func:`.step.commit_step`).

The step decides what changes — the match's columns, the events, the seats' bookkeeping and
the work queued on commit — in one place; a sink only stores it:

- :data:`ORM` writes each part at once through the ORM, inside the caller's transaction (which
  holds the match's row lock), and queues the follow-up work with ``transaction.on_commit``;
- :class:`Batch` (PostgreSQL) collects them and writes the whole step in **one** statement: a
  conditional ``UPDATE`` of the match (``WHERE version = <the version the step was computed
  from>``) and, only when that row was updated, the events ``INSERT`` and the seats
  ``UPDATE`` (and the rows the step's listeners add, :meth:`Sink.rows`: the notifications of
  ``notifications.outbox``), as data-modifying CTEs of that statement. In autocommit that
  statement is its own transaction: all of it or nothing is stored, and a concurrent writer
  (which always bumps the version) makes it store nothing. Follow-up work is queued only once
  it has been stored.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, Protocol

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from psycopg.types.json import Jsonb

from .. import hotsql
from ..models import Event, IdempotencyRecord, Match, Seat


class Sink(Protocol):
    def events(self, rows: list[Event]) -> None: ...

    def seats(self, seats: list[Seat], changes: dict[int, set[str]]) -> None: ...

    def match(self, match: Match, fields: list[str] | None) -> None: ...

    def on_commit(self, work: Callable[[], None]) -> None: ...

    def finishing(self) -> None: ...

    def rows(self, model: type[models.Model], rows: list[Any]) -> None:
        """Rows of any table, from a listener of the step (``games.signals.step_committed``):
        inserted with the step, a row whose unique key is taken skipped (``ON CONFLICT DO
        NOTHING``: a cause retried or replayed writes nothing twice)."""
        ...


class OrmSink:
    """Each write at once, in the caller's transaction."""

    def events(self, rows: list[Event]) -> None:
        Event.objects.bulk_create(rows)

    def seats(self, seats: list[Seat], changes: dict[int, set[str]]) -> None:
        """The changed fields of the changed seats, in one statement."""
        if not changes:
            return
        changed = [s for s in seats if s.position in changes]
        fields = sorted(set().union(*changes.values()))
        if len(changed) == 1:
            changed[0].save(update_fields=fields)
        else:
            Seat.objects.bulk_update(changed, fields)

    def match(self, match: Match, fields: list[str] | None) -> None:
        if fields is None:
            match.save()
        else:
            match.save(update_fields=fields)

    def on_commit(self, work: Callable[[], None]) -> None:
        transaction.on_commit(work)

    def finishing(self) -> None:
        return None

    def rows(self, model: type[models.Model], rows: list[Any]) -> None:
        model._default_manager.bulk_create(rows, ignore_conflicts=True)


ORM = OrmSink()


class NotBatched(Exception):
    """The step needs more than one statement can write (the match ends: the finisher)."""


class Batch:
    """One step's writes, stored by :meth:`store` in one statement if the match is still at
    ``version`` (see the module docstring)."""

    def __init__(self, match: Match) -> None:
        self.pk = match.pk
        self.version = match.version
        self.event_rows: list[Event] = []
        self.seat_rows: list[Seat] = []
        self.seat_fields: list[str] = []
        self.match_fields: list[str] = []
        self.match_obj: Match | None = None
        self.work: list[Callable[[], None]] = []
        self.record: IdempotencyRecord | None = None
        self.added: dict[type[models.Model], list[Any]] = {}

    def events(self, rows: list[Event]) -> None:
        self.event_rows.extend(rows)

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

    def rows(self, model: type[models.Model], rows: list[Any]) -> None:
        if rows:
            self.added.setdefault(model, []).extend(rows)

    def answer(self, record: IdempotencyRecord) -> None:
        """Store this answer to an ``Idempotency-Key`` with the step (in the same statement:
        if another request stored one for the same key first, the statement fails with an
        ``IntegrityError`` and stores nothing)."""
        self.record = record

    def sql(self) -> tuple[str, list[Any]]:
        """The statement (one text per shape, built once) and its parameters."""
        assert self.match_obj is not None, "the step wrote no match row"
        db = connections[DEFAULT_DB_ALIAS]
        record = [self.record] if self.record is not None else []
        text = _statement(
            tuple(self.match_fields),
            len(self.event_rows),
            bool(record),
            tuple(self.seat_fields) if self.seat_rows else (),
            len(self.seat_rows),
            tuple((model, len(rows)) for model, rows in self.added.items()),
        )
        params = _values(Match, tuple(self.match_fields), [self.match_obj], False, db)
        params += [self.pk, self.version, Match.Status.ACTIVE]
        if self.event_rows:
            params += _values(Event, _inserted(Event), self.event_rows, True, db)
        if record:
            params += _values(IdempotencyRecord, _inserted(IdempotencyRecord), record, True, db)
        if self.seat_rows:
            names = ("position", *self.seat_fields)
            params += _values(Seat, names, self.seat_rows, False, db)
        for model, rows in self.added.items():
            params += _values(model, _inserted(model), rows, True, db)
        return text, params

    def store(self) -> bool:
        """Write the step; ``False`` (nothing written) when the match has moved on. Outside a
        transaction the statement commits by itself; inside one (a test's) it is part of it."""
        sql, params = self.sql()
        with hotsql.cursor() as cursor:
            cursor.execute(sql, params)
            stored = cursor.fetchone()[0] == 1
        if stored:
            for work in self.work:
                transaction.on_commit(work)  # outside a transaction: right now
        return stored


@functools.cache
def _inserted(model: type[models.Model]) -> tuple[str, ...]:
    """The columns an ``INSERT`` of a model writes (every concrete one but the key), by name."""
    return tuple(f.name for f in model._meta.concrete_fields if not f.primary_key)


@functools.lru_cache(maxsize=256)
def _statement(
    match_fields: tuple[str, ...],
    events: int,
    record: bool,
    seat_fields: tuple[str, ...],
    seats: int,
    added: tuple[tuple[type[models.Model], int], ...] = (),
) -> str:
    """The text of a step's statement, by its shape: which match columns change, how many
    events and seats it writes, whether it stores an ``Idempotency-Key``'s answer, and how many
    rows of which tables the step's listeners add."""
    sets = [
        f'"{_field(Match, name).column}" = {_param(_field(Match, name))}' for name in match_fields
    ]
    parts = [
        'WITH m AS (UPDATE "games_match" SET ' + ", ".join(sets) + ' WHERE "id" = %s AND '
        '"version" = %s AND "status" = %s RETURNING "id")'
    ]
    if events:
        parts.append(_insert("e", Event, events))
    if record:
        parts.append(_insert("r", IdempotencyRecord, 1))
    if seats:
        fields = [_field(Seat, name) for name in ["position", *seat_fields]]
        names = ", ".join(f'"{f.column}"' for f in fields)
        row = "(" + ", ".join(_param(f) for f in fields) + ")"
        sets = [f'"{f.column}" = v."{f.column}"' for f in fields[1:]]
        parts.append(
            ', s AS (UPDATE "games_seat" AS t SET ' + ", ".join(sets) + " FROM m, "
            f"(VALUES {', '.join([row] * seats)}) AS v({names}) "
            'WHERE t."match_id" = m."id" AND t."position" = v."position")'
        )
    for number, (model, rows) in enumerate(added):  # a cause already written: nothing more
        parts.append(_insert(f"a{number}", model, rows, " ON CONFLICT DO NOTHING"))
    parts.append(" SELECT count(*) FROM m")
    return "".join(parts)


def _insert(alias: str, model: type[models.Model], rows: int, tail: str = "") -> str:
    """A CTE inserting ``rows`` rows of ``model`` if ``m`` updated a row."""
    fields = [_field(model, name) for name in _inserted(model)]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    row = "(" + ", ".join(_param(f) for f in fields) + ")"
    return (
        f', {alias} AS (INSERT INTO "{model._meta.db_table}" ({columns}) SELECT v.* FROM m, '
        f"(VALUES {', '.join([row] * rows)}) AS v({columns}){tail})"
    )


def _values(
    model: type[models.Model], names: tuple[str, ...], objs: list[Any], add: bool, db: Any
) -> list[Any]:
    """The parameters of ``objs``' columns ``names``, as the ORM's save would send them
    (``pre_save`` where a field computes its value, e.g. ``auto_now``)."""
    out = []
    for obj in objs:
        for attname, field, computes, is_json in _preps(model, names):
            value = field.pre_save(obj, add) if computes else getattr(obj, attname)
            if is_json and value is not None:
                out.append(Jsonb(value, dumps=_dumps))
            else:
                out.append(field.get_db_prep_save(value, db))
    return out


@functools.lru_cache(maxsize=64)
def _preps(model: type[models.Model], names: tuple[str, ...]) -> list[tuple[str, Any, bool, bool]]:
    """Per column: its attribute, its field, whether ``pre_save`` computes the value, and
    whether it is JSON (dumped with orjson rather than the standard library's encoder)."""
    out = []
    for name in names:
        field = _field(model, name)
        computes = bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))
        is_json = isinstance(field, models.JSONField) and field.encoder is None
        out.append((field.attname, field, computes, is_json))
    return out


def _dumps(value: Any) -> str:
    """JSON text of a value, as ``json.dumps`` writes it for PostgreSQL's ``jsonb`` (which
    keeps no formatting): orjson, or the standard library for what orjson refuses (an integer
    beyond 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


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
