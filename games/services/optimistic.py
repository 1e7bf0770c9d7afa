"""A player's move in two statements (PostgreSQL): the optimistic path of
:func:`.actions.action_submit`, with the same answers and the same guarantees.

1. **One read**: the match row, the database clock, the seats with their players and the
   recent events, in one ``SELECT`` (one statement sees one snapshot, so they never mix
   versions). No transaction, no row lock.
2. The checks, the engine and the commit step's bookkeeping run exactly as on the locked path
   (:func:`.actions.check_and_apply`, :func:`.step.commit_step`), into a :class:`.sink.Batch`.
3. **One write**: the batch's statement, a conditional ``UPDATE … WHERE version = <read>``
   with the events ``INSERT`` and the seats ``UPDATE`` hanging on it. It commits by itself
   (autocommit) before anything is answered or queued. If another writer got there first (every
   writer bumps the version under the row lock), it stores nothing and the move is tried
   again from a fresh read; after :data:`TRIES` such races the locked path takes over.

What one statement cannot hold goes through the locked path unchanged: a move that ends the
match (the finisher), a request with an ``Idempotency-Key`` (its stored answer must commit with
the move), and any database but PostgreSQL. The answer is rendered from what the write stored
— the same rows the locked path renders from after its commit — without reading them again.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.db import connection

from accounts.models import User
from fibserver.errors import NotFound

from ..engine.core import Rules
from ..models import Match, Seat
from .actions import Render, action_submit, check_and_apply
from .common import MatchId, match_pk, rules_for
from .sink import Batch, NotBatched
from .step import commit_step

#: Reads and writes tried before a move that keeps losing races takes the row lock instead.
TRIES = 3

#: ``render(match, seat, seats, events, state)``: the answer to an applied move, from the rows
#: the move stored (``events``: the recent events a view shows) and the new engine state.
RenderStored = Callable[[Match, int, list[Seat], list[Any], Any], dict[str, Any]]

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


def _read(pk: Any) -> tuple[Match, list[Seat], list[Recent]] | None:
    """The match (its ``db_clock`` set, as :func:`.common.locked` sets it), its seats with
    their users and its recent events, from one statement; ``None`` if there is no match."""
    with connection.cursor() as cursor:
        cursor.execute(READ_SQL, [settings.FIBSERVER["RECENT_EVENTS"], pk])
        row = cursor.fetchone()
    if row is None:
        return None
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


def action_submit_optimistic(
    *,
    match_id: MatchId,
    user: User,
    action: Any,
    expected_version: int | None = None,
    seat: int | None = None,
    idempotency_key: str | None = None,
    render: Render | None = None,
    render_stored: RenderStored | None = None,
) -> tuple[int, dict[str, Any]]:
    """:func:`.actions.action_submit`, in one read and one write where it can (see the module
    docstring): the same ``(status, body)`` and the same errors. ``render_stored`` renders the
    answer of a move applied here, ``render`` one applied by the locked path."""

    def locked_path() -> tuple[int, dict[str, Any]]:
        return action_submit(
            match_id=match_id,
            user=user,
            action=action,
            expected_version=expected_version,
            seat=seat,
            idempotency_key=idempotency_key,
            render=render,
        )

    if idempotency_key is not None or connection.vendor != "postgresql":
        return locked_path()
    pk = match_pk(match_id)
    for _ in range(TRIES):
        read = _read(pk)
        if read is None:
            raise NotFound("No such match.")
        match, seats, recent = read
        rules = rules_for(match)
        own, state, step = check_and_apply(
            match, seats, rules, user, seat, expected_version, action
        )
        if rules.is_over(step.state):
            return locked_path()  # the finisher writes more than one statement holds
        batch = Batch(match)
        back: dict[int, set[str]] = {}
        if own.away or own.timeouts:
            own.away, own.timeouts = False, 0  # the player is back
            back[own.position] = {"away", "timeouts"}
        try:
            commit_step(
                match,
                rules,
                step,
                actor=own.position,
                action=action,
                by_bot=False,
                before=state,
                seats=seats,
                seat_changes=back,
                sink=batch,
            )
        except NotBatched:
            return locked_path()
        if batch.store():
            return 200, _answer(
                match, own.position, seats, recent, batch, rules, step.state, render_stored
            )
    return locked_path()


def _answer(
    match: Match,
    position: int,
    seats: list[Seat],
    recent: list[Recent],
    batch: Batch,
    rules: Rules[Any],
    state: Any,
    render_stored: RenderStored | None,
) -> dict[str, Any]:
    if render_stored is None:
        return {"version": match.version}
    first = match.last_seq - settings.FIBSERVER["RECENT_EVENTS"]
    events: list[Any] = [e for e in recent if e.seq > first]
    events += [e for e in batch.rows if e.seq > first]
    return render_stored(match, position, seats, events, state)
