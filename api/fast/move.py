"""``POST /api/matches/{id}/actions/``: the move, as a plain Django view.

It answers exactly what its documented DRF twin (``api.rest.matches.ActionView``, which the
OpenAPI schema is generated from) answers — the same bodies, statuses, headers and errors,
checked in the same order: authentication, permission, throttle, body, action,
``Idempotency-Key``, ``seat``, then the service — without DRF's per-request machinery (request
wrapping, content negotiation, the authentication and permission class loop). The move itself
is :func:`api.play.moves.submit_move`, as every face's.

It serves the plain case: a ``POST`` with a token (``Authorization: Bearer …`` or ``Token …``)
that is valid, a JSON body (or none), JSON accepted. Everything else — another method, no
token, a session, a token that fails, another content type, an ``Accept`` or ``?format=``
that asks for something else — it hands over (:class:`~api.fast.HandOver`).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from accounts.models import User
from api import leases
from api.authentication import token_key
from api.play.body import json_body
from api.play.moves import THROTTLE_SCOPE, submit_move
from api.throttling import AtomicScopedRateThrottle, redis_client

from . import HandOver
from .answers import ALLOW_MOVE, error_answer, json_answer, known_user, plain

_throttled = SimpleNamespace(throttle_scope=THROTTLE_SCOPE)


def _caller(request: HttpRequest) -> User:
    """The active user of the request's token (no token, a malformed header, a token that is
    not valid: handed over, for DRF's own 401s): from this process's memory when it has it
    (:mod:`api.localtokens`)."""
    key = token_key(get_authorization_header(request))
    if key is None:
        raise HandOver
    return known_user(key, request)


def _allowed(user: User, request: HttpRequest) -> None:
    """Count the move against the user's rate limit (:mod:`api.leases` with Redis; DRF's
    throttle in local memory without), or refuse it as the twin does."""
    client = redis_client()
    if client is None:
        throttle = AtomicScopedRateThrottle()
        if not throttle.allow_request(request, _throttled):
            raise exceptions.Throttled(wait=throttle.wait())
        return
    verdict = leases.allow(client, THROTTLE_SCOPE, user.pk)
    if not verdict.allowed:
        raise exceptions.Throttled(wait=verdict.wait)


def _is_json(request: HttpRequest) -> bool:
    media = request.META.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
    return media == "application/json"


def _body(request: HttpRequest) -> Any:
    """``request.data`` as DRF reads it: no stream without a ``Content-Length`` (``{}``)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length == 0:
        return {}
    return json_body(request, request.META.get("CONTENT_LENGTH"))


def move(request: HttpRequest, match_id: str) -> HttpResponse:
    """The move as the fast lane serves it (see the module docstring); nothing has been read
    from the body or counted against a rate limit when it hands over."""
    if not (plain(request, "POST") and _is_json(request)):
        raise HandOver
    user = _caller(request)
    request.user = user
    try:
        _allowed(user, request)
        code, payload = submit_move(
            user=user,
            match_id=match_id,
            body=_body(request),
            key=request.headers.get("Idempotency-Key"),
            params=request.GET,
        )
    except Exception as exc:
        return error_answer(exc, request, ALLOW_MOVE)
    return json_answer(payload, code, ALLOW_MOVE)
