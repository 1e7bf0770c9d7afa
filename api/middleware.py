"""Everything under ``/api/`` answers hostile input with a clear 4xx in the one JSON error shape.

Two middlewares, because they belong at two places in ``settings.MIDDLEWARE``:

- :class:`JsonErrorsMiddleware` comes **first**, so it sees every response, including those made
  by Django itself before or around a view (its middleware, URL resolution, CSRF, an unhandled
  exception: HTML pages, in ``DEBUG`` too). An error response under ``/api/`` that is not JSON
  gets the JSON shape (``api.errors.status_error_json``), keeping its status and headers; a 500
  says nothing more than "Internal Server Error." (the traceback goes to the log as before).
- :class:`InputGuardMiddleware` comes right **after CORS** (so its refusals carry the CORS headers
  a browser needs to read them) and refuses, before any view or query runs:

  - a ``Host`` that ``ALLOWED_HOSTS`` does not allow (400 ``invalid``);
  - NUL or a lone surrogate in the path, a query parameter (name or value) or any header (400
    ``invalid``): PostgreSQL text cannot hold them (the JSON parser checks bodies the same way,
    ``api.play.body.check_tree``); more query parameters than
    ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` (400);
  - a declared ``Content-Length`` over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413) or not a number
    (400), or both ``Content-Length`` and ``Transfer-Encoding`` (400);
  - a path without its trailing slash that matches nothing (404 ``not_found``, naming the path
    with the slash when that one exists; never Django's redirect, which drops a POST body).

  A ``Transfer-Encoding: chunked`` body is **read** when the server hands the application the
  decoded body and says where it ends (gunicorn and other servers set ``wsgi.input_terminated``;
  under ASGI the body is always complete), up to ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413 beyond);
  a server that does not (``runserver``, plain wsgiref) leaves its length unknown: 411
  ``length_required``, send a ``Content-Length``. Once read, the request (and under WSGI its
  environ, which the door's full handler may get next) looks like one sent with a
  ``Content-Length``.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import DisallowedHost, TooManyFieldsSent
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve

from api.errors import app_error_json, outage_json, status_error_json
from api.play.body import refuse_unstorable, unstorable
from kernel.errors import AppError, Invalid, LengthRequired, NotFound, TooLarge

API_PREFIX = "/api/"

#: The request headers, as WSGI names them in ``request.META``.
_HEADERS = ("HTTP_", "CONTENT_")

#: Headers of the original response that the JSON version must not copy.
_BODY_HEADERS = {"content-type", "content-length"}


def _under_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _is_json(response: HttpResponseBase) -> bool:
    media = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


class _Hybrid:
    """A middleware that runs in the sync (WSGI) and the async (ASGI) stack without a thread
    hop: it does its own work inline and awaits the next layer only under ASGI."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        if not _under_api(request):
            return self.get_response(request)
        early = self.before(request)
        if early is not None:
            return early
        return self.after(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        if not _under_api(request):
            return await get_response(request)
        early = self.before(request)
        if early is not None:
            return early
        return self.after(request, await get_response(request))

    def before(self, request: HttpRequest) -> HttpResponseBase | None:
        return None

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return response


class JsonErrorsMiddleware(_Hybrid):
    """Gives every non-JSON error response under ``/api/`` the one JSON error shape, and a
    view's outage (the database or Redis does not answer) 503 ``unavailable`` with
    ``Retry-After`` wherever it happens (``DEBUG`` too; ``handler500`` does the same for the
    rest)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return outage_json(exception)

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code < 400 or _is_json(response):
            return response
        message = None
        if response.status_code == 404 and getattr(request, "resolver_match", None) is None:
            message = "There is no API endpoint at this path."
        shaped = status_error_json(response.status_code, message)
        for name, value in response.items():
            if name.lower() not in _BODY_HEADERS:
                shaped[name] = value
        shaped.cookies = response.cookies
        shaped["Content-Length"] = str(len(shaped.content))
        return shaped


class InputGuardMiddleware(_Hybrid):
    """Refuses hostile input under ``/api/`` before any view runs (see the module docstring)."""

    def before(self, request: HttpRequest) -> HttpResponse | None:
        try:
            self.check(request)
        except AppError as error:
            return app_error_json(error)
        return None

    def check(self, request: HttpRequest) -> None:
        try:
            request.get_host()
        except DisallowedHost:
            raise Invalid("The Host header names a host this server does not serve.") from None
        refuse_unstorable(request.path_info, "The path")
        for name, value in request.META.items():
            if isinstance(value, str) and unstorable(value) and name.startswith(_HEADERS):
                header = name.removeprefix("HTTP_").replace("_", "-").title()
                refuse_unstorable(value, f"The {header} header", field=header)
        try:
            params = request.GET
        except TooManyFieldsSent:
            raise Invalid(
                f"Too many query parameters (at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS})."
            ) from None
        for key, values in params.lists():
            refuse_unstorable(key, "A query parameter name")
            for value in values:
                refuse_unstorable(value, f"Query parameter '{key}'", field=key)
        self.check_body_length(request)
        if not request.path_info.endswith("/"):
            self.check_route(request.path_info)

    def check_body_length(self, request: HttpRequest) -> None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        declared = request.META.get("CONTENT_LENGTH") or ""
        chunked = request.META.get("HTTP_TRANSFER_ENCODING", "")
        if declared and chunked:
            raise Invalid("Send Content-Length or Transfer-Encoding, not both.")
        if declared:
            if not declared.isdigit():
                raise Invalid("Content-Length must be a number of bytes.")
            if limit is not None and int(declared) > limit:
                raise TooLarge(f"The request body exceeds {limit} bytes.")
        elif chunked:
            self.read_chunked(request, chunked, limit)

    def read_chunked(self, request: HttpRequest, coding: str, limit: int | None) -> None:
        """Read a chunked body where the server has decoded it and marks its end; then the
        request looks like one sent with a ``Content-Length`` to everything after us."""
        source: Any
        if isinstance(request, ASGIRequest):
            source = request._stream  # the complete body, read by Django's ASGI handler
        elif request.META.get("wsgi.input_terminated"):
            source = request.META["wsgi.input"]
        else:
            source = None
        if source is None or coding.split(",")[-1].strip().lower() != "chunked":
            raise LengthRequired(
                "This server cannot read a body without its length: send a Content-Length."
            )
        most = limit if limit is not None else 2**62
        chunks: list[bytes] = []
        size = 0
        while size <= most:
            chunk = source.read(most + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > most:
            raise TooLarge(f"The request body exceeds {limit} bytes.")
        body = b"".join(chunks)
        request._stream = io.BytesIO(body)  # type: ignore[attr-defined]
        request.META["CONTENT_LENGTH"] = str(size)
        if "wsgi.input" in request.META:
            # META is the WSGI environ: a handler that gets it after us (the door's full
            # handler, for a request the short one hands over) must find the same request,
            # a body of known length, not a spent stream beside a Transfer-Encoding.
            request.META["wsgi.input"] = io.BytesIO(body)
            del request.META["HTTP_TRANSFER_ENCODING"]

    def check_route(self, path: str) -> None:
        try:
            resolve(path)
        except Resolver404:
            pass
        else:
            return
        try:
            resolve(path + "/")
        except Resolver404:
            raise NotFound("There is no API endpoint at this path.") from None
        raise NotFound(f"There is no API endpoint at this path; did you mean {path}/ ?")
