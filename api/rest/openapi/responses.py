"""The documented answers of each operation: its success and the errors it can give, each error
status with its own schema (``{"error": {"code", "message", …}}`` with that status's codes).

Which statuses an operation documents follows from what it does:

- 400 when it takes a body or parameters; 401 when it reads a token (all but guest, register
  and login, which ignore tokens); 403, 404, 409, 422 where its service can refuse so;
- 413 and 415 when it reads a JSON body; 429 when it is throttled.

Undeclared methods answer 405 with the same error shape and an ``Allow`` header; that is not
an answer of any documented operation, so no operation lists it (docs/api.md says so).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from api.play.actions import IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN

from .errors import ERRORS
from .extensions import component

#: Why an operation may answer each error status, unless the operation says better.
REASONS = {status: description for status, (_n, _c, _d, description) in ERRORS.items()}


def error(status: int, description: str = "") -> OpenApiResponse:
    name = ERRORS[status][0]
    return OpenApiResponse(response=component(name), description=description or REASONS[status])


def answers(success: dict[int, Any], *errors: int, **descriptions: str) -> dict[int, Any]:
    """``responses=`` of an operation: its successes, then each error status (described by
    ``descriptions["e403"]`` etc. when given)."""
    out = dict(success)
    for status in sorted(set(errors)):
        out[status] = error(status, descriptions.get(f"e{status}", ""))
    return out


MATCH_ID = OpenApiParameter(
    "match_id",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    description="The match id. Anything that is not the id of a match you may see: 404.",
)
REPLAY_STEP = OpenApiParameter(
    "n",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.PATH,
    description="The step: 0 is the set-up, 1 the first recorded step, … the last is the "
    "record's number of steps (`last`). Not a whole number: 400; past the last step: 404.",
)
ETAG = OpenApiParameter(
    "ETag",
    {"type": "string", "description": "An entity tag of exactly this body for you."},
    OpenApiParameter.HEADER,
    response=[200, 304],
    required=True,
    description="The entity tag of your view; send it back in `If-None-Match`.",
)
CACHE_CONTROL = OpenApiParameter(
    "Cache-Control",
    {"type": "string", "enum": ["private, no-cache"]},
    OpenApiParameter.HEADER,
    response=[200, 304],
    required=True,
    description="Views are private and must be revalidated.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="ETags you already have (comma-separated); the current one answers 304.",
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.HEADER,
    response=[429],
    required=True,
    description="Seconds to wait before trying again.",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {
        "type": "string",
        "minLength": 1,
        "maxLength": IDEMPOTENCY_KEY_MAX,
        "pattern": IDEMPOTENCY_KEY_PATTERN,
    },
    OpenApiParameter.HEADER,
    description="Makes retries safe: a request repeated with the same key returns the stored "
    "answer and applies nothing twice (reusing it for another request: 422). Visible ASCII.",
)
