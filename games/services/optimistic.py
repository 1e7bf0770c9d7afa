"""A player's move in two statements (PostgreSQL): the optimistic path of
:func:`.actions.action_submit`, with the same answers and the same guarantees.

1. **One read** (:func:`games.reads.store.match_rows`): the match row, the database clock, the seats
   with their players and the recent events, in one ``SELECT`` (one statement sees one
   snapshot, so they never mix versions). No transaction, no row lock.
2. The checks, the engine and the commit step's bookkeeping run exactly as on the locked path
   (:func:`.actions.check_and_apply`, :func:`.step.commit_step`), into a :class:`.sink.Batch`.
3. **One write**: the batch's statement, a conditional ``UPDATE … WHERE version = <read>``
   with the events ``INSERT`` and the seats ``UPDATE`` hanging on it. It commits by itself
   (autocommit) before anything is answered or queued. If another writer got there first (every
   writer bumps the version under the row lock), it stores nothing and the move is tried
   again from a fresh read; after :data:`TRIES` such races the locked path takes over.

An ``Idempotency-Key``'s stored answer is read with the match and, for a new move, rendered
before the write and inserted by the same statement (:meth:`.sink.Batch.answer`): it commits
with the move or not at all, and a request that finds the key taken meanwhile (the statement
fails on the key's unique constraint, storing nothing) reads again and gets the stored answer.
What one statement cannot hold goes through the locked path unchanged: a move that ends the
match (the finisher), and any database but PostgreSQL. The answer is rendered from what the
write stores — the same rows the locked path renders from after its commit — without reading
them again.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, transaction

from accounts.models import User
from kernel.errors import NotFound

from ..models import IdempotencyRecord, Match, Seat
from ..reads import views
from ..reads.store import Recent, match_rows, match_rows_answered
from .actions import (
    action_submit,
    check_and_apply,
    commit_move,
    replay_answer,
    request_hash,
)
from .common import MatchId, match_pk, rules_for
from .sink import Batch, NotBatched

#: Reads and writes tried before a move that keeps losing races takes the row lock instead.
TRIES = 3


def action_submit_optimistic(
    *,
    match_id: MatchId,
    user: User,
    action: Any,
    expected_version: int | None = None,
    seat: int | None = None,
    idempotency_key: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """:func:`.actions.action_submit`, in one read and one write where it can (see the module
    docstring): the same ``(status, body)`` and the same errors. The answer to a move applied
    here is rendered from the rows it stored and its new engine state."""

    def locked_path() -> tuple[int, dict[str, Any]]:
        return action_submit(
            match_id=match_id,
            user=user,
            action=action,
            expected_version=expected_version,
            seat=seat,
            idempotency_key=idempotency_key,
        )

    if connection.vendor != "postgresql":
        return locked_path()
    pk = match_pk(match_id)
    key = idempotency_key
    digest = request_hash(match_id, action, expected_version) if key is not None else ""
    for _ in range(TRIES):
        if key is None:
            read = match_rows(pk)
        else:
            read, stored = match_rows_answered(pk, user.pk, key)
        if read is None:
            raise NotFound("No such match.")
        if key is not None and stored is not None:
            return replay_answer(stored[0], digest, stored[1], stored[2])
        match, seats, recent = read
        rules = rules_for(match)
        own, state, step = check_and_apply(
            match, seats, rules, user, seat, expected_version, action
        )
        if rules.is_over(step.state):
            return locked_path()  # the finisher writes more than one statement holds
        batch = Batch(match)
        try:
            commit_move(match, rules, step, own, state, seats, action, sink=batch)
        except NotBatched:
            return locked_path()
        body = None
        if key is not None:  # rendered before the write, stored with it (as the locked path)
            body = _answer(match, user, own.position, seats, recent, batch, step.state)
            batch.answer(
                IdempotencyRecord(
                    user=user,
                    key=key,
                    match=match,
                    request_hash=digest,
                    status_code=200,
                    body=orjson.dumps(body).decode(),
                )
            )
        try:
            # In a caller's transaction (a test's), a savepoint keeps it usable after a refusal.
            with transaction.atomic() if connection.in_atomic_block else nullcontext():
                stored_now = batch.store()
        except IntegrityError:
            if key is None:
                raise
            continue  # another request stored an answer for this key first: read it
        if stored_now:
            if body is None:
                body = _answer(match, user, own.position, seats, recent, batch, step.state)
            return 200, body
    return locked_path()


def _answer(
    match: Match,
    user: User,
    position: int,
    seats: list[Seat],
    recent: list[Recent],
    batch: Batch,
    state: Any,
) -> dict[str, Any]:
    """The caller's new view, from the rows the move stored (the recent events a view shows:
    the last ``RECENT_EVENTS`` up to the move's) and its new engine state: no query."""
    first = match.last_seq - settings.FIBSERVER["RECENT_EVENTS"]
    events: list[Any] = [e for e in recent if e.seq > first]
    events += [e for e in batch.event_rows if e.seq > first]
    return views.render_view(match, user, position, seats, events, state)
