"""``GET /api/matches/{id}/``: the caller's view, as a plain Django view.

Like the move (:mod:`api.fast.move`), it answers exactly what its documented DRF twin
(``api.rest.matches.MatchDetailView``, which the OpenAPI schema is generated from) answers —
the same bodies, statuses, headers and errors, checked in the same order: authentication,
``seat``, ``If-None-Match``, then the view — without DRF's per-request machinery. A conditional
GET whose tag is current is one indexed statement (``games.reads.views.read_tag``) and a token
lookup.

It serves the plain case: a ``GET`` without a token (a spectator) or with a valid one
(``Authorization: Bearer …`` or ``Token …``), JSON accepted. Everything else — another method
(``HEAD``, ``OPTIONS``), a token that fails, a session cookie, an ``Accept`` or ``?format=``
that asks for something else — it hands over (:class:`~api.fast.HandOver`).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse

from api.conditional import tag_matches, tagged
from api.play.queries import seat_of
from games.reads import views

from . import HandOver
from .answers import ALLOW_VIEW, caller, empty_answer, error_answer, json_answer, plain

_ANONYMOUS = AnonymousUser()


def view(request: HttpRequest, match_id: str) -> HttpResponse:
    """The caller's view as the fast lane serves it (see the module docstring)."""
    if not plain(request, "GET"):
        raise HandOver
    user = caller(request)
    request.user = user if user is not None else _ANONYMOUS
    try:
        seat = seat_of(request.GET)
        sent = request.META.get("HTTP_IF_NONE_MATCH")
        if sent:
            tag = views.read_tag(match_id, user, seat)
            if tag_matches(sent, tag):
                return tagged(empty_answer(304, ALLOW_VIEW), tag)
        body, tag = views.read_view(match_id, user, seat)
    except Exception as exc:
        return error_answer(exc, request, ALLOW_VIEW)
    return tagged(json_answer(body, 200, ALLOW_VIEW), tag)
