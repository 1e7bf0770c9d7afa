"""Errors the service layer raises. The API maps each to one status and the one error shape."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class StaleVersion(Conflict):
    code = "stale_version"


class Invalid(ServiceError):
    """Well-formed but unacceptable input (bad options, an illegal action): 422."""

    status = 422
    code = "invalid"


class IdempotencyKeyReused(Invalid):
    code = "idempotency_key_reused"


class IllegalActionError(Invalid):
    code = "illegal_action"


class BadRequest(ServiceError):
    status = 400
    code = "bad_request"
