"""The API's WSGI entry: the two hottest requests outside Django's request cycle.

A client that plays polls its view (``GET /api/matches/{id}/``, mostly answered ``304``) and
sends its moves (``POST /api/matches/{id}/actions/``). Through Django's handler each of these
pays the middleware chain, URL resolution and the handler's own machinery — more CPU than a
whole ``304`` costs otherwise.

:class:`Entry` serves exactly those requests itself when they are plain (:func:`plain_environ`:
the method and the path, no cookie, no ``Origin``, no chunked body, a sane length, nothing a
PostgreSQL text cannot hold): it makes Django's own request object of the environ, asks
Django's own code what Django would refuse or redirect (the ``Host``, the HTTPS redirect:
:mod:`.probe`), calls the plain view (:func:`api.fast.move.move`, :func:`api.fast.view.view`)
and adds the headers the site's middleware adds, by that same middleware's code
(``SecurityMiddleware``, django-cors-headers, the clickjacking middleware, ``CommonMiddleware``'s
length). It binds and counts the request as the first middleware does
(:class:`kernel.ops.middleware.OpsMiddleware`: request id, metrics by route, the log line), and
sends Django's ``request_started`` and ``request_finished`` signals, so database connections
are checked and recycled as Django's handler does.

A request one of the views hands over (:class:`~api.fast.HandOver`: a token that fails,
another content type, …) goes, untouched (nothing read from its body, nothing counted), to the
full handler, which answers it as it always has; so does everything else. tests/api/test_door.py
holds the two to the same answers, headers included.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest, get_script_name
from django.http import HttpRequest, HttpResponse
from django.middleware.common import CommonMiddleware
from django.urls import set_script_prefix
from django.utils.log import log_response

from api.errors import outage_json, status_error_json
from api.play.body import unstorable
from kernel.ops import context
from kernel.ops.middleware import OpsMiddleware

from . import HandOver
from .probe import middleware

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

#: The requests served here: ``(method, path)`` -> the route Django's metrics name them by.
_MOVE = re.compile(r"/api/matches/([^/]+)/actions/")
_VIEW = re.compile(r"/api/matches/([^/]+)/")
MOVE_ROUTE = "api/matches/<str:match_id>/actions/"
VIEW_ROUTE = "api/matches/<str:match_id>/"
#: Paths beside a match id that are routes of their own (``/api/matches/join/``).
_FIXED = frozenset({"join"})
#: Request headers that make a request the full handler's: a session, CORS, a chunked body.
_NOT_PLAIN = ("HTTP_COOKIE", "HTTP_ORIGIN", "HTTP_TRANSFER_ENCODING")

log = logging.getLogger("django.request")

#: Every middleware of the site, and what the entry does in its place (a middleware added to
#: ``settings.MIDDLEWARE`` fails tests/api/test_door.py until it is accounted for here).
ACCOUNTED = {
    "kernel.ops.middleware.OpsMiddleware": "its begin and finish: request id, metrics, log",
    "api.middleware.JsonErrorsMiddleware": "errors answered in the one shape, 503 for outages",
    "django.middleware.security.SecurityMiddleware": "its HTTPS redirect (handed over), headers",
    "whitenoise.middleware.WhiteNoiseMiddleware": "static files: other paths",
    "corsheaders.middleware.CorsMiddleware": "an Origin is handed over; its headers added",
    "api.middleware.InputGuardMiddleware": "plain_environ and the Host: else handed over",
    "django.contrib.sessions.middleware.SessionMiddleware": "a cookie is handed over",
    "django.middleware.common.CommonMiddleware": "its answer's Content-Length",
    "django.middleware.csrf.CsrfViewMiddleware": "no cookie, no session: nothing to check",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "the views read the token",
    "django.contrib.messages.middleware.MessageMiddleware": "the API sends no messages",
    "django.middleware.clickjacking.XFrameOptionsMiddleware": "its header",
}


def takes_fast_lane(environ: dict[str, Any]) -> bool:
    """A move or a view (by method and path) with no cookie."""
    return _route(environ) is not None and "HTTP_COOKIE" not in environ


def _route(environ: dict[str, Any]) -> tuple[Callable[..., HttpResponse], str, str] | None:
    method = environ.get("REQUEST_METHOD")
    path = environ.get("PATH_INFO", "")
    if method == "POST":
        found = _MOVE.fullmatch(path)
        if found is not None:
            from .move import move

            return move, found.group(1), MOVE_ROUTE
    elif method == "GET":
        found = _VIEW.fullmatch(path)
        if found is not None and found.group(1) not in _FIXED:
            from .view import view

            return view, found.group(1), VIEW_ROUTE
    return None


def plain_environ(environ: dict[str, Any]) -> bool:
    """Nothing in the request that the site's middleware would refuse or treat apart: no
    cookie, ``Origin`` or ``Transfer-Encoding``; a ``Content-Length`` that is a number within
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``; ASCII in the path; no character PostgreSQL text cannot
    hold in a header or the query string."""
    if any(name in environ for name in _NOT_PLAIN):
        return False
    declared = environ.get("CONTENT_LENGTH") or ""
    if declared and not (declared.isdigit() and int(declared) <= _body_limit()):
        return False
    if not environ.get("PATH_INFO", "").isascii():
        return False
    for name, value in environ.items():
        if (
            name.startswith(("HTTP_", "CONTENT_"))
            and isinstance(value, str)
            and (unstorable(value) or "%00" in value)
        ):
            return False
    query = environ.get("QUERY_STRING", "")
    return not (query and (unstorable(query) or "%" in query or query.count("&") > 20))


def _body_limit() -> int:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return int(limit) if limit is not None else 2**62


class Entry:
    """The WSGI application: plain moves and views served here, the rest (and what they hand
    over) by ``full``."""

    def __init__(self, full: WSGIApp) -> None:
        self.full = full
        self.ops = OpsMiddleware(_never_routed)
        self.common = CommonMiddleware(_never_routed)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        found = _route(environ)
        if found is None or not plain_environ(environ):
            return self.full(environ, start_response)
        plain_view, match_id, route = found
        # Django's request writes its decoded path back into the environ (``META`` is the
        # environ), where WSGI holds the raw bytes as Latin-1 text: the full handler must find
        # the server's original to decode it again.
        sent_path = environ.get("PATH_INFO"), environ.get("SCRIPT_NAME")
        set_script_prefix(get_script_name(environ))
        signals.request_started.send(sender=self.__class__, environ=environ)
        try:
            response = self.serve(environ, plain_view, match_id, route)
        except HandOver:
            signals.request_finished.send(sender=self.__class__)
            environ["PATH_INFO"], environ["SCRIPT_NAME"] = sent_path
            if environ["SCRIPT_NAME"] is None:
                del environ["SCRIPT_NAME"]
            return self.full(environ, start_response)
        response._handler_class = self.__class__  # type: ignore[attr-defined]  # its signal
        headers = [*response.items()]
        start_response(f"{response.status_code} {response.reason_phrase}", headers)
        return response  # its close() sends request_finished, as Django's own answers do

    def serve(
        self,
        environ: dict[str, Any],
        plain_view: Callable[..., HttpResponse],
        match_id: str,
        route: str,
    ) -> HttpResponse:
        started = time.perf_counter()
        request = WSGIRequest(environ)
        security, cors, frames = middleware()
        try:
            request.get_host()
        except DisallowedHost:
            raise HandOver from None
        if security.process_request(request) is not None:
            raise HandOver  # the redirect to HTTPS
        sent = self.ops.begin(request)
        request.resolver_match = SimpleNamespace(route=route)  # type: ignore[assignment]
        context.match_id.set(match_id)
        try:
            response = plain_view(request, match_id)
        except HandOver:
            raise
        except Exception as exc:
            signals.got_request_exception.send(sender=None, request=request)
            response = outage_json(exc) or status_error_json(500)
            log_response(
                "%s: %s", response.reason_phrase, request.path, response=response,
                request=request, exception=exc,
            )  # fmt: skip
        # innermost first, as the site's middleware (settings.MIDDLEWARE, reversed)
        frames.process_response(request, response)
        self.common.process_response(request, response)
        cors.add_response_headers(request, response)
        security.process_response(request, response)
        self.ops.finish(request, response, sent, started)
        return response


def _never_routed(_request: HttpRequest) -> HttpResponse:
    raise AssertionError("the entry's middleware is only asked for its judgement")
