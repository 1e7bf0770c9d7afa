"""What the logs say about the work at hand: the request id, the match id and the user id,
in context variables (a thread's or an asyncio task's own), set by the request middleware
(:mod:`.middleware`), the follower's fast lane and the Celery task hooks (:mod:`.worker`)."""

from __future__ import annotations

import os
import re
from contextvars import ContextVar
from typing import Any

from django.utils.functional import empty

#: The id of the request (or of the request that started the task) being served.
request_id: ContextVar[str | None] = ContextVar("fibserver_request_id", default=None)
#: The match the request or task is about, when its URL or arguments name one.
match_id: ContextVar[str | None] = ContextVar("fibserver_match_id", default=None)
#: The Django request being served (its user is read when a line is logged: it is known only
#: once the view has authenticated the caller).
request: ContextVar[Any] = ContextVar("fibserver_request", default=None)
#: A Celery task being run: ``(name, id)``.
task: ContextVar[tuple[str, str] | None] = ContextVar("fibserver_task", default=None)

#: A request id we take from a proxy or a client: short, and nothing a log reader could trip on.
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")

#: Where the id made for a request is kept in its WSGI environ / ASGI scope, so the fast lane's
#: short handler and the full handler it hands a request over to log the same id.
ENVIRON_KEY = "fibserver.request_id"


def valid_request_id(value: str | None) -> str | None:
    """``value`` if it is a request id we accept from outside (``X-Request-ID``), else ``None``."""
    if value and _VALID.fullmatch(value):
        return value
    return None


def new_request_id() -> str:
    """32 random hex digits."""
    return os.urandom(16).hex()


def user_id_of(req: Any) -> int | None:
    """The id of the request's user, if the view has authenticated one (never forces Django's
    lazy session user: that would cost a query of its own)."""
    user = getattr(req, "__dict__", {}).get("user")
    if user is None:
        return None
    wrapped = user.__dict__.get("_wrapped", user) if hasattr(user, "__dict__") else user
    if wrapped is None or wrapped is empty:  # Django's lazy session user, not looked up yet
        return None
    if not getattr(wrapped, "is_authenticated", False):
        return None
    pk = getattr(wrapped, "pk", None)
    return pk if isinstance(pk, int) else None
