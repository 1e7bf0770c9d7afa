"""A player's move: applied exactly once, in one transaction, or refused with nothing changed.

``expected_version`` guards against acting on a stale view (409) and an ``Idempotency-Key``
makes a retried request return the stored answer instead of applying twice."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from django.db import IntegrityError, transaction

from accounts.models import User
from kernel.errors import (
    Conflict,
    Forbidden,
    IdempotencyKeyReused,
    IllegalActionError,
    NotAuthenticated,
    StaleVersion,
)

from ..engine.core import IllegalAction, Rules, Step, canonical_json
from ..models import IdempotencyRecord, Match, Seat
from ..reads import views
from .common import MatchId, engine_state, locked, require_seat, rules_for, seats_of
from .sink import ORM, Sink
from .step import commit_step


def request_hash(match_id: MatchId, action: Any, expected_version: int | None) -> str:
    text = canonical_json({"match": str(match_id), "action": action, "expected": expected_version})
    return hashlib.sha256(text.encode()).hexdigest()


def action_submit(
    *,
    match_id: MatchId,
    user: User,
    action: Any,
    expected_version: int | None = None,
    seat: int | None = None,
    idempotency_key: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """Apply a player's action exactly once. Returns ``(status, body)``: the body is the
    caller's new view (:func:`games.reads.views.render_view`), rendered from the match and its
    seats as the transaction left them.

    With an ``Idempotency-Key`` the body is rendered inside the transaction and stored with
    the move (a retry gets it back byte for byte). Without one it is rendered after the commit,
    without the row lock, from what the transaction held: the answer is still sent only after
    the move is committed."""
    with transaction.atomic():
        match = locked(match_id, clock=True)
        digest = request_hash(match_id, action, expected_version) if idempotency_key else ""
        if idempotency_key:
            stored = _stored_answer(user, idempotency_key, digest)
            if stored is not None:
                return stored
        seats = seats_of(match)
        rules = rules_for(match)
        own, state, step = check_and_apply(
            match, seats, rules, user, seat, expected_version, action
        )
        commit_move(match, rules, step, own, state, seats, action)
        if idempotency_key:
            body = _answer(match, user, own.position, seats)
            _store_answer(user, idempotency_key, digest, match, 200, body)
            return 200, body
    return 200, _answer(match, user, own.position, seats)


def commit_move(
    match: Match,
    rules: Rules[Any],
    step: Step,
    own: Seat,
    before: Any,
    seats: list[Seat],
    action: Any,
    sink: Sink = ORM,
) -> None:
    """Store a player's own move (:func:`.step.commit_step`, through ``sink`` if given): the
    player is back, so their seat's away flag and time-out count are cleared too."""
    commit_step(
        match,
        rules,
        step,
        actor=own.position,
        action=action,
        by_bot=False,
        before=before,
        seats=seats,
        seat_changes=player_back(own),
        sink=sink,
    )


def player_back(own: Seat) -> dict[int, set[str]]:
    """A player who acts is back: their seat's away flag and time-out count cleared, and the
    seat changes to write (for ``commit_step``'s ``seat_changes``)."""
    if not (own.away or own.timeouts):
        return {}
    own.away, own.timeouts = False, 0
    return {own.position: {"away", "timeouts"}}


def check_and_apply(
    match: Match,
    seats: list[Seat],
    rules: Rules[Any],
    user: User,
    seat: int | None,
    expected_version: int | None,
    action: Any,
) -> tuple[Seat, Any, Step]:
    """The caller's acting seat, the engine state and the step the action makes of it, or the
    error that refuses it (:func:`_acting_seat`, then the rules). Nothing is written."""
    state = engine_state(match, rules) if match.status == Match.Status.ACTIVE else None
    own = _acting_seat(match, seats, user, seat, expected_version, rules, state)
    try:
        step = rules.apply(state, own.position, action)
    except IllegalAction as error:
        raise IllegalActionError(error.reason) from None
    return own, state, step


def _answer(match: Match, user: User, position: int, seats: list[Seat]) -> dict[str, Any]:
    # the finisher wrote its changes of the seats to ``seats`` too (``match_finish``)
    return views.render_view(match, user, position, seats)


def _acting_seat(
    match: Match,
    seats: list[Seat],
    user: User,
    seat: int | None,
    expected_version: int | None,
    rules: Rules[Any],
    state: Any,
) -> Seat:
    """The caller's seat that acts now, or the error that says why there is none: no seat
    (404 for a private match), not that seat, the match not active, a stale version, not the
    caller's turn — checked in that order, so a refusal never reveals more than a view does."""
    mine = require_seat(match, seats, user, "You have no seat in this match.")
    if any(s.user is not None and not s.user.is_active for s in mine):
        # read with the match: an account deleted since the caller was authenticated
        raise NotAuthenticated("This account has been deleted.", code="authentication_failed")
    if seat is not None:
        mine = [s for s in mine if s.position == seat]
        if not mine:
            raise Forbidden("That seat is not yours.")
    if state is None:
        raise Conflict(f"The match is {match.status}; no actions are taken.", status=match.status)
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(
            f"The match has moved on: version {match.version}, not {expected_version}.",
            version=match.version,
        )
    to_act = set(rules.to_act(state))
    acting = [s for s in mine if s.position in to_act]
    if not acting:
        raise Forbidden("It is not your turn to act.")
    return acting[0]


def _stored_answer(user: User, key: str, digest: str) -> tuple[int, dict[str, Any]] | None:
    """The answer already given to this key, if any (for the same request only)."""
    stored = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if stored is None:
        return None
    return replay_answer(stored.request_hash, digest, stored.status_code, stored.body)


def replay_answer(
    stored_hash: str, digest: str, status: int, body: str
) -> tuple[int, dict[str, Any]]:
    """The stored answer to a key, given again, if the request is the same one; a key used
    for another request is refused."""
    if stored_hash != digest:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used with a different request."
        )
    return status, orjson.loads(body)


def _store_answer(
    user: User, key: str, digest: str, match: Match, status: int, body: dict[str, Any]
) -> None:
    try:
        with transaction.atomic():
            IdempotencyRecord.objects.create(
                user=user,
                key=key,
                match=match,
                request_hash=digest,
                status_code=status,
                body=orjson.dumps(body).decode(),
            )
    except IntegrityError:
        # The same key was used at the same moment for another match: that one won.
        raise Conflict("This Idempotency-Key is being used by another request.") from None
