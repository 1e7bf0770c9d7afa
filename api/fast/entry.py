"""The API's WSGI entry: the two hottest requests through a short handler.

A client that plays polls its view (``GET /api/matches/{id}/``, mostly answered ``304``) and
sends its moves (``POST /api/matches/{id}/actions/``). Through Django's full handler each of
these pays every middleware of the site — static files, sessions, CSRF, the session user,
messages — none of which does anything for a request that carries no cookie: about 0.4 ms of
CPU of a request on the benchmark's machine, more than a whole 304 costs otherwise.

:class:`Entry` sends exactly those requests (the method and the path, no ``Cookie`` header)
to a :class:`ShortHandler`: Django's own WSGI handler (the same request object, signals,
exception handling and response closing) with the middleware that still applies to them —
``settings.MIDDLEWARE`` without :data:`SKIPPED` — and a URL conf of these two routes
(:mod:`api.fast.urls`: the plain views :func:`api.fast.move.move` and
:func:`api.fast.view.view`). A request one of them hands over (a token that fails, another
content type, …) goes, untouched, to the full handler, which answers it as it always has.
Everything else goes to the full handler directly. tests/api/test_door.py holds the two to
the same answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import HttpResponse

#: Middleware that does nothing for a request without a cookie to a JSON API view that
#: neither reads nor writes a session, a CSRF token, a message or ``request.user`` from the
#: session: static files (another path), the session (read only from a cookie, written only
#: when touched), CSRF (the views are exempt; no cookie to renew), the session's user (the
#: views authenticate the token themselves) and messages (none are sent by the API).
SKIPPED = frozenset(
    {
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
    }
)

#: The requests the short handler takes: ``(method, path)``.
_FAST = {
    "POST": re.compile(r"/api/matches/[^/]+/actions/"),
    "GET": re.compile(r"/api/matches/[^/]+/"),
}


class HandedOver(HttpResponse):
    """How a request the short handler's views hand over (:class:`~api.fast.HandOver`) comes
    back out of Django's handler: the full handler answers it."""

    handed_over = True  # not counted by the request metrics: the full handler counts it


class FastRequest(WSGIRequest):
    urlconf = "api.fast.urls"


class ShortHandler(WSGIHandler):
    """Django's WSGI handler with the middleware that applies to a fast-lane request."""

    request_class = FastRequest

    def load_middleware(self, is_async: bool = False) -> None:
        full = settings.MIDDLEWARE
        settings.MIDDLEWARE = [name for name in full if name not in SKIPPED]
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = full


StartResponse = Callable[..., Any]

#: The environ entries Django's request replaces with their decoded values.
_DECODED = ("PATH_INFO", "SCRIPT_NAME")


class Entry:
    """The WSGI application: fast-lane requests through :class:`ShortHandler`, the rest (and
    what it hands over) through ``full``."""

    def __init__(self, full: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.full = full
        self.short = ShortHandler()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        if not takes_fast_lane(environ):
            return self.full(environ, start_response)
        # Django's request writes its decoded path back into the environ (``META`` is the
        # environ), where WSGI holds the raw bytes as Latin-1 text: the full handler must find
        # the server's original to decode it again (a character beyond Latin-1, such as ``٣``
        # in a match id, made its request fail before any middleware: gunicorn's HTML 500).
        sent = {name: environ.get(name) for name in _DECODED}
        head: list[Any] = []
        response = self.short(environ, lambda *args: head.append(args))  # type: ignore[arg-type, func-returns-value]
        if isinstance(response, HandedOver):
            response.close()  # the short handler's request is finished; the full one starts
            for name, value in sent.items():
                if value is None:
                    environ.pop(name, None)
                else:
                    environ[name] = value
            return self.full(environ, start_response)
        start_response(*head[0])
        return response


def takes_fast_lane(environ: dict[str, Any]) -> bool:
    """A move or a view without a cookie (by method and path)."""
    pattern = _FAST.get(environ.get("REQUEST_METHOD", ""))
    return (
        pattern is not None
        and "HTTP_COOKIE" not in environ
        and pattern.fullmatch(environ.get("PATH_INFO", "")) is not None
    )
