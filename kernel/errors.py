"""The one application error type, raised by services, readers and request parsing alike.

An :class:`AppError` carries a stable machine-readable ``code``, a human-readable ``message``
and optional details (``fields``, ``version``, ``status`` …). It knows nothing of HTTP or
GraphQL: ``api.errors`` maps each kind to an HTTP status in one table (and GraphQL puts the
same ``code`` in ``errors[].extensions``). The kinds follow one rule (docs/api.md):

- :class:`Invalid` — the request does not fit its documented shape (a missing or mistyped
  field, a number out of range, a malformed parameter): HTTP 400, code ``invalid``;
- :class:`Refused` — it fits, but the game's rules refuse it (an illegal action, options or
  bots a game does not allow): HTTP 422;
- :class:`Conflict` — the match (or account) is not in a state that allows it: HTTP 409;
- :class:`NotFound`, :class:`Forbidden`, :class:`NotAuthenticated`, :class:`TooLarge`,
  :class:`LengthRequired`, :class:`Unavailable` as their names say.
"""

from __future__ import annotations

from typing import Any


class AppError(Exception):
    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details


class Invalid(AppError):
    """The request does not fit its documented shape."""

    code = "invalid"


class MalformedRequest(Invalid):
    """The body is not JSON (or nests too deeply to be read)."""

    code = "malformed_request"


class InvalidCredentials(Invalid):
    code = "invalid_credentials"


class Refused(AppError):
    """Well-formed, but the game's rules refuse it."""

    code = "refused"


class IllegalActionError(Refused):
    code = "illegal_action"


class InvalidOptions(Refused):
    """Options, seats, bots or a time control the game does not allow."""

    code = "invalid_options"


class IdempotencyKeyReused(Refused):
    code = "idempotency_key_reused"


class NotAuthenticated(AppError):
    code = "not_authenticated"


class Forbidden(AppError):
    code = "forbidden"


class NotFound(AppError):
    code = "not_found"


class Conflict(AppError):
    code = "conflict"


class StaleVersion(Conflict):
    code = "stale_version"


class TooLarge(AppError):
    code = "payload_too_large"


class LengthRequired(AppError):
    """A request body whose length is not known and cannot be read (HTTP 411)."""

    code = "length_required"


class Unavailable(AppError):
    code = "unavailable"
