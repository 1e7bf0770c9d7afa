"""The one error shape as named components: one per error status, with that status's codes."""

from __future__ import annotations

from games.models import Match
from matchmaking.models import Challenge, Rematch, Ticket

from .builders import (
    NAT,
    Schema,
    arr,
    define,
    described,
    integer,
    obj,
    string,
)

#: A conflict's ``status`` is that of what the request was about: a match, a queue ticket, a
#: challenge or a rematch offer.
CONFLICT_STATUSES = sorted(
    set(Match.Status.values)
    | set(Ticket.Status.values)
    | set(Challenge.Status.values)
    | set(Rematch.Status.values)
)

# --- Errors ----------------------------------------------------------------------------------

#: status -> (component, codes, extra detail properties, description)
ERRORS: dict[int, tuple[str, list[str], dict[str, Schema], str]] = {
    400: (
        "InvalidError",
        ["invalid", "malformed_request", "invalid_credentials"],
        {
            "fields": {
                "type": "object",
                "additionalProperties": arr(string()),
                "description": "Field path (`options.life`, `bots.0`) -> what is wrong.",
            },
            "field": string("The query parameter that is wrong."),
        },
        "The request does not fit its documented shape (`invalid`), is not JSON "
        "(`malformed_request`), or the credentials are wrong (`invalid_credentials`).",
    ),
    401: (
        "NotAuthenticatedError",
        ["not_authenticated", "authentication_failed"],
        {},
        "No token (`not_authenticated`) or a token that is not valid (`authentication_failed`).",
    ),
    403: (
        "ForbiddenError",
        ["forbidden"],
        {},
        "Not yours to do: not your seat or turn, not the host.",
    ),
    404: ("NotFoundError", ["not_found"], {}, "No such match (or not one you may see)."),
    409: (
        "ConflictError",
        ["conflict", "stale_version", "username_taken", "not_a_guest", "no_password"],
        {
            "version": described(NAT, "With `stale_version`: the match's current version."),
            "status": {
                "type": "string",
                "enum": CONFLICT_STATUSES,
                "description": "The current status of what the request was about: the match's "
                "(`MatchStatus`), the queue ticket's, the challenge's or the rematch offer's.",
            },
        },
        "The match or account is not in a state that allows it; `stale_version` when "
        "`expected_version` is behind.",
    ),
    413: ("PayloadTooLargeError", ["payload_too_large"], {}, "The body is over 64 KiB."),
    415: (
        "UnsupportedMediaTypeError",
        ["unsupported_media_type"],
        {},
        "The body is not `application/json`.",
    ),
    422: (
        "RefusedError",
        ["illegal_action", "invalid_options", "idempotency_key_reused"],
        {"field": string("The request field the refusal is about.")},
        "Well-formed, but the game's rules refuse it: an illegal action (the message says "
        "why), options, seats or bots the game does not allow, an Idempotency-Key reused for "
        "another request. Nothing was changed.",
    ),
    429: (
        "ThrottledError",
        ["throttled"],
        {"retry_after": integer(1, description="Seconds to wait (also `Retry-After`).")},
        "Too many requests; try again after `Retry-After` seconds.",
    ),
    503: ("UnavailableError", ["unavailable"], {}, "Try again."),
}
for status, (name, codes, details, description) in ERRORS.items():
    detail = obj(
        {"code": {"type": "string", "enum": codes}, "message": string("Human-readable.")},
        details,
        open=True,
    )
    if status == 429:
        detail["required"].append("retry_after")
    define(name, obj({"error": detail}, description=description))
