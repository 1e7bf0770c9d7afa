"""Response shapes of named sessions (docs/accounts.md)."""

from __future__ import annotations

from .builders import DATETIME, UUID, arr, boolean, define, described, nullable, obj, string

SESSION_FIELDS = {
    "id": UUID,
    "label": string("The device's name: the `device` given at sign-in, else its User-Agent."),
    "created": DATETIME,
    "last_used": described(DATETIME, "When its token was last used, to within five minutes."),
    "client_address": nullable(
        string("The address it was last used from (as the server's proxies report it).")
    ),
}
SESSION = define(
    "SessionOut",
    obj(
        {**SESSION_FIELDS, "current": boolean()},
        description="A signed-in device of yours; `current`: the one making this request.",
    ),
)
define(
    "SessionListOut",
    obj({"results": arr(SESSION)}, description="Your sessions, the most recently used first."),
)
