"""``GET /api/matches/{id}/``: the caller's view, as a plain Django view (issue 16).

Like the move (``api.rest.actions``), it answers exactly what its documented DRF twin
(``matches.MatchDetailView``, which the OpenAPI schema is generated from) answers — the same
bodies, statuses, headers and errors, checked in the same order: authentication, ``seat``,
``If-None-Match``, then the view — without DRF's per-request machinery. A conditional GET whose
tag is current is one indexed statement (``selectors.view_tag_read``) and a token lookup.

It serves the plain case: a ``GET`` without a token (a spectator) or with a valid one
(``Authorization: Bearer …`` or ``Token …``), JSON accepted. Everything else — another method
(``HEAD``, ``OPTIONS``), a token that fails, a session cookie, an ``Accept`` or ``?format=``
that asks for something else — is handed to the DRF twin, which answers it as it always has.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from api.authentication import CachedTokenAuthentication
from games import selectors

from .actions import PLAIN_ACCEPT, error_answer, json_answer, or_twin, token_key
from .matches import MatchDetailView, seat_param, tag_matches_header, tagged

_tokens = CachedTokenAuthentication()
_ANONYMOUS = AnonymousUser()


def _caller(request: HttpRequest) -> tuple[bool, Any]:
    """``(served, user)``: the token's active user, ``None`` for a request without
    credentials (a spectator), or ``served=False`` when DRF must judge the request (a
    malformed header or a token that is not valid: DRF's own 401s; a session cookie)."""
    if not get_authorization_header(request).split():
        return "HTTP_COOKIE" not in request.META, None  # a session is DRF's to read
    key = token_key(request)
    if key is None:
        return False, None
    try:
        user, _token = _tokens.authenticate_credentials(key)
    except exceptions.AuthenticationFailed:
        return False, None
    return True, user


def _is_plain(request: HttpRequest) -> bool:
    return (
        request.method == "GET"
        and "format" not in request.GET
        and request.META.get("HTTP_ACCEPT") in PLAIN_ACCEPT
    )


def lean_match_view(request: HttpRequest, match_id: str) -> HttpResponse | None:
    """The caller's view as this module serves it, or ``None`` when the DRF twin must answer
    (see the module docstring)."""
    if not _is_plain(request):
        return None
    served, user = _caller(request)
    if not served:
        return None
    request.user = user if user is not None else _ANONYMOUS
    try:
        seat = seat_param(request)
        sent = request.META.get("HTTP_IF_NONE_MATCH")
        if sent:
            tag = selectors.view_tag_read(match_id, user, seat)
            if tag_matches_header(sent, tag):
                return tagged(_empty(304), tag)
        body, tag = selectors.match_read_tagged(match_id, user, seat)
    except Exception as exc:
        return error_answer(exc, request, MatchDetailView)
    return tagged(json_answer(body, 200, MatchDetailView), tag)


def _empty(status: int) -> HttpResponse:
    """A body-less answer with the headers the twin gives it (DRF drops the content type of
    an empty rendering)."""
    response = json_answer(None, status, MatchDetailView)
    response.content = b""
    del response["Content-Type"]
    return response


match_detail = or_twin(lean_match_view, MatchDetailView)
