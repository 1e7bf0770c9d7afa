"""GraphQL errors carry REST's error: the same ``code``, message and details.

Convention (docs/graphql.md): a failed field is ``null`` and its error is in ``errors[]`` with
``extensions.code`` — exactly the ``code`` REST answers (``not_found``, ``forbidden``,
``illegal_action``, ``stale_version`` …) and REST's other details beside it (``fields``,
``version``, ``retry_after`` …). The mapping is REST's own (:func:`api.errors.exception_handler`),
so the two APIs cannot drift apart. Documents the server refuses before running anything get
``malformed_request`` (not GraphQL), ``invalid`` (not valid against the schema),
``query_too_complex`` (over a depth, alias or cost limit) or ``query_too_large`` (too many
tokens); while the database or Redis does not answer, ``unavailable`` (with
``retry_after``). Anything else is a bug: logged, and shown as ``internal_error`` without details.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import orjson
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from graphql import GraphQLError, GraphQLSyntaxError
from rest_framework.exceptions import APIException
from strawberry.extensions import SchemaExtension

from api.errors import exception_handler
from kernel import outage
from kernel.errors import AppError

log = logging.getLogger(__name__)

#: Errors REST maps to a 4xx: they carry their REST code.
KNOWN = (AppError, APIException, Http404, PermissionDenied, RequestDataTooBig)

TOO_COMPLEX = "query_too_complex"
TOO_LARGE = "query_too_large"
_LIMITS = [
    (re.compile(r"exceeds maximum operation depth"), TOO_COMPLEX),
    (re.compile(r"aliases found\. Allowed:"), TOO_COMPLEX),
    (re.compile(r"Document contains more than \d+ tokens"), TOO_LARGE),
]


def rest_error(exc: BaseException) -> dict[str, Any]:
    """REST's error object for ``exc`` (``{"code", "message", ...details}``)."""
    response = exception_handler(exc, {})  # type: ignore[arg-type]
    assert response is not None, "every known error maps to a response"
    # As REST renders it: plain JSON, with the list indexes of ``fields`` as text keys.
    body: dict[str, Any] = orjson.loads(
        orjson.dumps(response.data["error"], option=orjson.OPT_NON_STR_KEYS)
    )
    return body


def extensions_of(error: GraphQLError) -> dict[str, Any] | None:
    """The ``extensions`` an error goes out with, or ``None`` if it must be masked."""
    if error.extensions and "code" in error.extensions:
        return dict(error.extensions)
    original = error.original_error
    if isinstance(original, KNOWN):
        body = rest_error(original)
        body.pop("message")
        return body
    if outage.is_outage(original):  # the database or Redis does not answer: try again
        return {"code": "unavailable", "retry_after": outage.RETRY_AFTER_SECONDS}
    if original is not None and not isinstance(original, GraphQLError):
        return None  # an unexpected exception: a bug
    for pattern, code in _LIMITS:
        if pattern.search(error.message):
            return {"code": code}
    if isinstance(error, GraphQLSyntaxError):
        return {"code": "malformed_request"}
    return {"code": "invalid"}


def with_code(error: GraphQLError) -> GraphQLError:
    extensions = extensions_of(error)
    if extensions is None:
        log.error("GraphQL resolver failed", exc_info=error.original_error)
        return GraphQLError(
            "Internal server error.",
            nodes=error.nodes,
            source=error.source,
            positions=error.positions,
            path=error.path,
            extensions={"code": "internal_error"},
        )
    message = error.message
    if isinstance(error.original_error, KNOWN):
        message = rest_error(error.original_error)["message"]
    elif extensions.get("code") == "unavailable":
        message = outage.MESSAGE
    return GraphQLError(
        message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        extensions=extensions,
    )


def is_expected(error: GraphQLError) -> bool:
    return extensions_of(error) is not None


class ErrorCodes(SchemaExtension):
    """Give every error of a result its code (HTTP results and each subscription message)."""

    def _process(self, result: Any) -> None:
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = [with_code(e) for e in errors]

    def on_operation(self) -> Iterator[None]:
        self._streamed = False
        yield
        if not self._streamed:
            self._process(self.execution_context.result)

    def on_stream_result(self, result: Any) -> Iterator[None]:
        self._streamed = True
        self._process(result)
        yield None
