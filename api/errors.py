"""One error type, one error shape (STYLE.md).

Every API error answers ``{"error": {"code": "...", "message": "...", ...details}}`` with the
right status. Views raise :class:`ApiError` (or let DRF raise its own exceptions, which the
handler maps onto the same shape); no 500 should ever come from bad input.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import ServiceError


class ApiError(exceptions.APIException):
    """An error with a stable machine-readable ``code`` and a human-readable message."""

    def __init__(self, status_code: int, code: str, message: str, **details: Any) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.details = details


def error_body(code: str, message: str, **details: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **details}}


def _code_for(exc: exceptions.APIException) -> str:
    mapping = {
        exceptions.ParseError: "malformed_request",
        exceptions.ValidationError: "invalid",
        exceptions.NotAuthenticated: "not_authenticated",
        exceptions.AuthenticationFailed: "authentication_failed",
        exceptions.PermissionDenied: "forbidden",
        exceptions.NotFound: "not_found",
        exceptions.MethodNotAllowed: "method_not_allowed",
        exceptions.NotAcceptable: "not_acceptable",
        exceptions.UnsupportedMediaType: "unsupported_media_type",
        exceptions.Throttled: "throttled",
    }
    for kind, code in mapping.items():
        if isinstance(exc, kind):
            return code
    return "error"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: map every known exception onto the one error shape."""
    if isinstance(exc, ApiError):
        return Response(error_body(exc.code, exc.message, **exc.details), status=exc.status_code)
    if isinstance(exc, ServiceError):
        return Response(error_body(exc.code, exc.message, **exc.details), status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        return Response(
            error_body("payload_too_large", "The request body is too large."),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    code = _code_for(exc)
    if isinstance(exc, exceptions.ValidationError):
        body = error_body(code, "The request is not valid.", fields=response.data)
    elif isinstance(exc, exceptions.Throttled):
        wait = int(exc.wait or 1)
        body = error_body(code, f"Too many requests; try again in {wait} s.", retry_after=wait)
    else:
        detail = response.data.get("detail", str(exc)) if isinstance(response.data, dict) else exc
        body = error_body(code, str(detail))
    response.data = body
    return response
