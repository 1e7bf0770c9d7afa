"""What the fast lane's plain views share: who is calling, and answers with exactly the bytes
and headers their DRF twins give.

A twin's answer carries ``Allow`` (its methods, as ``APIView.allowed_methods`` lists them) and,
with more than one renderer configured, ``Vary: Accept`` (DRF's ``finalize_response``); errors
are the one error shape of :mod:`api.errors`. ``tests/api/test_door.py`` holds every answer of
the fast lane to the full path's, headers included.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.models import User
from accounts.sessions import digest_of
from api import localtokens
from api.authentication import CachedTokenAuthentication, token_key
from api.errors import exception_handler
from api.render import json_bytes

from . import HandOver

#: What DRF's content negotiation answers with the JSON renderer without looking further.
PLAIN_ACCEPT = {None, "", "*/*", "application/json"}
#: The ``Allow`` of the twins (``ActionView``, ``MatchDetailView``).
ALLOW_MOVE = "POST, OPTIONS"
ALLOW_VIEW = "GET, HEAD, OPTIONS"
#: DRF's twins vary by ``Accept`` when they could render more than JSON.
_VARY = len(api_settings.DEFAULT_RENDERER_CLASSES) > 1

tokens = CachedTokenAuthentication()


def plain(request: HttpRequest, method: str) -> bool:
    """A request a plain view may answer: ``method``, JSON accepted, no ``?format=``."""
    return (
        request.method == method
        and "format" not in request.GET
        and request.META.get("HTTP_ACCEPT") in PLAIN_ACCEPT
    )


def caller(request: HttpRequest) -> User | None:
    """The active user of the request's token, ``None`` without credentials (a spectator);
    a session cookie, a malformed header or a token that is not valid is the full path's to
    judge (its own 401s)."""
    header = get_authorization_header(request)
    if not header.split():
        if "HTTP_COOKIE" in request.META:
            raise HandOver  # a session is DRF's to read
        return None
    key = token_key(header)
    if key is None:
        raise HandOver
    return known_user(key, request)


def known_user(key: str, request: HttpRequest) -> User:
    """The active user of a token: from this process's memory (:mod:`api.localtokens`), else
    looked up (and kept); a token that is not valid is handed over (DRF's own 401s)."""
    digest = digest_of(key)
    found = localtokens.get(digest)
    if found is not None:
        return found[0]  # type: ignore[no-any-return]
    seen = localtokens.mark()
    try:
        user, session = tokens.authenticate_credentials(key, request)
    except exceptions.AuthenticationFailed:
        raise HandOver from None
    localtokens.keep(digest, user, session, seen)
    return user  # type: ignore[no-any-return]


def json_answer(data: object, status: int, allow: str) -> HttpResponse:
    """``data`` rendered as a twin renders it, with the headers DRF gives every answer."""
    response = HttpResponse(json_bytes(data), status=status, content_type="application/json")
    response["Allow"] = allow
    if _VARY:
        response["Vary"] = "Accept"
    return response


def empty_answer(status: int, allow: str) -> HttpResponse:
    """A body-less answer with the headers a twin gives it (DRF drops the content type of an
    empty rendering)."""
    response = json_answer(None, status, allow)
    del response["Content-Type"]
    return response


def error_answer(exc: Exception, request: HttpRequest, allow: str) -> HttpResponse:
    """What a twin answers to ``exc`` (re-raised when DRF would not handle it)."""
    answer = exception_handler(exc, {"request": request, "view": None})
    if answer is None:
        raise exc
    response = json_answer(answer.data, answer.status_code, allow)
    for name, value in answer.items():
        if name.lower() != "content-type":
            response[name] = value
    return response


Plain = Callable[[HttpRequest, str], HttpResponse]


def fast_or_full(fast: Plain, twin: type[APIView]) -> Plain:
    """The route's view in the full URL conf: the plain view ``fast`` answers, or, where it
    hands over, its DRF twin."""
    twin_view = twin.as_view()

    @csrf_exempt
    def view(request: HttpRequest, match_id: str) -> HttpResponse:
        try:
            return fast(request, match_id)
        except HandOver:
            return twin_view(request, match_id=match_id)  # type: ignore[no-any-return]

    # the twin documents the route (api.rest.schema_urls)
    view.schema_twin = twin  # type: ignore[attr-defined]
    return view
