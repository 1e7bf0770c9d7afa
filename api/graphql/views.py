"""``/graphql/`` over HTTP: Strawberry's Django view, served by the API (WSGI) like REST.

- Tokens as REST: ``Authorization: Bearer <token>`` (or ``Token <token>``); no cookies, so no
  CSRF token is needed (the view is exempt, as DRF's views are).
- GraphiQL (a browser ``GET``) only with ``DEBUG`` on, its scripts served from the repository
  (``api/static/graphiql/``), never a CDN.
- A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (64 KiB) is refused before it is read: 413.
- Requests that are not GraphQL at all (not JSON, no query, a batch) get the GraphQL error
  shape with ``malformed_request`` and their HTTP status (400, 405 …), never a bare text.
- Mutations only by ``POST``; queries also by ``GET``.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from cross_web import HTTPException
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from strawberry.django.views import GraphQLView

from api.play.body import check_tree
from kernel.errors import AppError

from .context import Context
from .schema import schema


def error_response(status: int, code: str, message: str) -> HttpResponse:
    body = {"data": None, "errors": [{"message": message, "extensions": {"code": code}}]}
    return HttpResponse(orjson.dumps(body), status=status, content_type="application/json")


def too_large() -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return error_response(413, "payload_too_large", f"The request body exceeds {limit} bytes.")


@method_decorator(csrf_exempt, name="dispatch")
class FibGraphQLView(GraphQLView[Context, None]):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.graphql_ide = "graphiql" if settings.DEBUG else None
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared.isdigit() and int(declared) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return too_large()
        try:
            return self.run(request=request)
        except HTTPException as error:
            return error_response(error.status_code, "malformed_request", error.reason)
        except RequestDataTooBig:
            return too_large()

    def get_context(self, request: HttpRequest, response: HttpResponse) -> Context:
        return Context(meta=request.META, request=request)

    def encode_json(self, data: object) -> bytes:
        return orjson.dumps(data)

    def decode_json(self, data: str | bytes) -> object:
        return decode_json(data, top_level=True)


def decode_json(data: str | bytes, top_level: bool = False) -> object:
    """A request body (or websocket message) as JSON, refused (``JSONDecodeError``, which the
    views answer 400 ``malformed_request`` and the websocket closes with 4400) when it is not
    JSON, nests deeper than REST allows, holds text PostgreSQL cannot store or an integer
    beyond 64 bits, or (``top_level``) is not an object: a number or a string is not a
    GraphQL request."""
    try:
        value = orjson.loads(data)
        check_tree(value)
    except AppError as error:
        raise json.JSONDecodeError(error.message, "", 0) from None
    if top_level and not isinstance(value, dict | list):
        raise json.JSONDecodeError("A GraphQL request is a JSON object.", "", 0)
    return value


graphql_view = FibGraphQLView.as_view(schema=schema)
