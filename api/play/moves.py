"""A move as every face takes it: the body checked against the action shapes, the
``Idempotency-Key`` and the ``seat`` checked in that order, then the one service that applies
it, answering ``(status, the caller's new view)``.

REST (``api.rest.matches.ActionView``), the fast lane (``api.fast.move``) and GraphQL's ``act``
call :func:`submit_move`; they differ only in where the body, the key and the seat come from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accounts.models import User
from games import services
from kernel.errors import AppError
from kernel.ops import metrics

from .actions import idempotency_key, validate_action
from .queries import seat_of

#: The rate limit every move counts against, whichever face it came through.
THROTTLE_SCOPE = "actions"


def submit_move(
    *, user: User, match_id: str, body: Any, key: str | None, params: Mapping[str, str]
) -> tuple[int, dict[str, Any]]:
    """Apply ``body`` (an action, with an optional ``expected_version``) for ``user`` in
    ``match_id``, once: ``key`` is the ``Idempotency-Key`` (``None``: none), ``params`` the
    query parameters (``seat``)."""
    try:
        action, expected = validate_action(body)
        checked_key = idempotency_key(key)
        return services.action_submit_optimistic(
            match_id=match_id,
            user=user,
            action=action,
            expected_version=expected,
            seat=seat_of(params),
            idempotency_key=checked_key,
        )
    except AppError as error:
        metrics.move_refused(error.code)
        raise
