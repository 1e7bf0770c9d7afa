"""The one error shape, and the one mapping from application errors to HTTP.

Every API error answers ``{"error": {"code": "...", "message": "...", ...details}}``. Services,
readers and request parsing raise :class:`kernel.errors.AppError` (which knows nothing of
HTTP); :data:`HTTP_STATUS` below is the only place that turns a kind of error into a status.
DRF's own exceptions are mapped onto the same shape; no 500 should ever come from bad input.
Plain Django views and the middleware (``api.middleware``) answer the same shape with
:func:`app_error_json` and :func:`status_error_json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from http import HTTPStatus
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from kernel import errors, outage

#: Application error kind -> HTTP status (the most specific class in an error's MRO wins).
HTTP_STATUS: dict[type[errors.AppError], int] = {
    errors.Invalid: 400,
    errors.NotAuthenticated: 401,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.LengthRequired: 411,
    errors.TooLarge: 413,
    errors.Refused: 422,
    errors.Unavailable: 503,
}


def http_status(error: errors.AppError) -> int:
    for kind in type(error).__mro__:
        if kind in HTTP_STATUS:
            return HTTP_STATUS[kind]  # type: ignore[index]
    return 400


def error_body(code: str, message: str, **details: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **details}}


def app_error_response(error: errors.AppError) -> Response:
    response = Response(
        error_body(error.code, error.message, **error.details), status=http_status(error)
    )
    _retry_after(error, response)
    return response


def app_error_json(error: errors.AppError) -> JsonResponse:
    """The same error as :func:`app_error_response`, for plain Django views and middleware."""
    response = JsonResponse(
        error_body(error.code, error.message, **error.details), status=http_status(error)
    )
    _retry_after(error, response)
    return response


def _retry_after(error: errors.AppError, response: Any) -> None:
    seconds = error.details.get("retry_after")
    if isinstance(error, errors.Unavailable) and isinstance(seconds, int):
        response["Retry-After"] = str(seconds)


def outage_json(exc: BaseException | None) -> JsonResponse | None:
    """503 ``unavailable`` with ``Retry-After`` when ``exc`` is an outage (the database or
    Redis does not answer), else ``None``."""
    return app_error_json(outage.unavailable()) if outage.is_outage(exc) else None


def server_error(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """``handler500`` of the URL confs: an unhandled exception answers in the one error shape,
    503 ``unavailable`` for an outage, else 500 ``server_error`` (the traceback is logged)."""
    import sys

    return outage_json(sys.exc_info()[1]) or status_error_json(500)


#: The code of a response known only by its status: one that Django (its middleware, URL
#: resolution, an unhandled exception) made outside the API's own error handling.
STATUS_CODE: dict[int, str] = {
    400: "invalid",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    408: "request_timeout",
    409: "conflict",
    411: "length_required",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    422: "refused",
    429: "throttled",
    431: "headers_too_large",
    503: "unavailable",
}


def status_error_json(status_code: int, message: str | None = None) -> JsonResponse:
    """The one error shape for a bare HTTP status (``server_error`` for any other 5xx)."""
    code = STATUS_CODE.get(status_code, "server_error" if status_code >= 500 else "error")
    if message is None:
        try:
            message = HTTPStatus(status_code).phrase + "."
        except ValueError:
            message = f"HTTP {status_code}."
    return JsonResponse(error_body(code, message), status=status_code)


def method_not_allowed_json(allowed: Iterable[str]) -> JsonResponse:
    """405 with the ``Allow`` header every 405 must carry."""
    methods = list(allowed)
    response = JsonResponse(
        error_body("method_not_allowed", f"Use {' or '.join(methods)}."), status=405
    )
    response["Allow"] = ", ".join(methods)
    return response


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
    if isinstance(exc, errors.AppError):
        return app_error_response(exc)
    if outage.is_outage(exc):
        return app_error_response(outage.unavailable())
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
