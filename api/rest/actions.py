"""``POST /api/matches/{id}/actions/``: the move, as a plain Django view (issue 16).

It answers exactly what its documented DRF twin (``matches.ActionView``, which the OpenAPI
schema is generated from) answers — the same bodies, statuses, headers and errors, checked in
the same order: authentication, permission, throttle, body, action, ``Idempotency-Key``,
``seat``, then the service — without DRF's per-request machinery (request wrapping, content
negotiation, the authentication and permission class loop), and the move itself goes through
``services.action_submit_optimistic`` (one read and one conditional write).

It serves the plain case: a ``POST`` with a token (``Authorization: Bearer …`` or ``Token …``)
that is valid, a JSON body (or none), JSON accepted. Everything else — another method, no
token, a session, a token that fails, another content type, an ``Accept`` or ``?format=``
that asks for something else — is handed to the DRF twin, which answers it as it always has.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.views import APIView

from api.authentication import CachedTokenAuthentication, remember_token
from api.errors import exception_handler
from api.throttling import AtomicScopedRateThrottle

from .matches import ActionView, submit_action
from .parsers import LimitedJSONParser
from .renderers import OrjsonRenderer

_renderer = OrjsonRenderer()
_parser = LimitedJSONParser()
_tokens = CachedTokenAuthentication()
_throttled = SimpleNamespace(throttle_scope=ActionView.throttle_scope)

#: What DRF's content negotiation answers with the JSON renderer without looking further.
PLAIN_ACCEPT = {None, "", "*/*", "application/json"}


def token_key(request: HttpRequest) -> str | None:
    """The key of a well-formed ``Authorization: Bearer <key>`` (or ``Token <key>``) header;
    ``None`` without one or for one DRF must judge (its own 401s)."""
    auth = get_authorization_header(request).split()
    if len(auth) != 2 or auth[0].lower() not in (b"bearer", b"token"):
        return None
    try:
        return auth[1].decode()
    except UnicodeError:
        return None


def _caller(request: HttpRequest) -> tuple[Any, AtomicScopedRateThrottle, bool | None]:
    """The active user of the request's token (``None`` when DRF must judge the request: no
    token, a malformed header, a token that is not valid — DRF's own 401s), the throttle, and
    whether it lets the move through: checked with the token in one Redis round trip when the
    token is cached (``None``: still to ask)."""
    throttle = AtomicScopedRateThrottle()
    key = token_key(request)
    if key is None:
        return None, throttle, None
    cached = throttle.allow_token(_throttled.throttle_scope, key)
    if cached is not None:
        (user, _token), allowed = cached
        return user, throttle, allowed
    try:
        user, token = _tokens.authenticate_credentials(key)
    except exceptions.AuthenticationFailed:
        return None, throttle, None
    remember_token(key, user, token)  # both keys, if only the older one was cached
    return user, throttle, None


def _is_plain(request: HttpRequest) -> bool:
    if request.method != "POST" or "format" in request.GET:
        return False
    if request.META.get("HTTP_ACCEPT") not in PLAIN_ACCEPT:
        return False
    media = request.META.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
    return media == "application/json"


def _allowed(view: type[APIView]) -> str:
    found = _ALLOW.get(view)
    if found is None:
        instance = view()
        if hasattr(instance, "get") and not hasattr(instance, "head"):
            instance.head = instance.get  # as View.setup does for every request
        found = _ALLOW[view] = ", ".join(instance.allowed_methods)
    return found


_ALLOW: dict[type[APIView], str] = {}


def json_answer(data: Any, status: int, view: type[APIView] = ActionView) -> HttpResponse:
    """``data`` rendered as the DRF twin ``view`` renders it, with the headers DRF's
    ``finalize_response`` gives every answer of that view."""
    response = HttpResponse(_renderer.render(data), status=status, content_type="application/json")
    response["Allow"] = _allowed(view)
    if len(view.renderer_classes) > 1:
        response["Vary"] = "Accept"
    return response


def _body(request: HttpRequest) -> Any:
    """``request.data`` as DRF reads it: no stream without a ``Content-Length`` (``{}``)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length == 0:
        return {}
    return _parser.parse(request, "application/json", {"request": request})


def lean_move(request: HttpRequest, match_id: str) -> HttpResponse | None:
    """The move as this module serves it, or ``None`` when the DRF twin must answer (see the
    module docstring); nothing has been read from the body or counted against a rate limit
    when it answers ``None``."""
    user, throttle, allowed = _caller(request) if _is_plain(request) else (None, None, None)
    if user is None or throttle is None:
        return None
    request.user = user
    try:
        if allowed is None:
            allowed = throttle.allow_request(request, _throttled)
        if not allowed:
            raise exceptions.Throttled(wait=throttle.wait())
        code, payload = submit_action(request, user, match_id, _body(request))
    except Exception as exc:
        return error_answer(exc, request)
    return json_answer(payload, code)


def error_answer(
    exc: Exception, request: HttpRequest, view: type[APIView] = ActionView
) -> HttpResponse:
    """What the DRF twin ``view`` answers to ``exc`` (re-raised when DRF would not handle it)."""
    answer = exception_handler(exc, {"request": request, "view": None})
    if answer is None:
        raise exc
    response = json_answer(answer.data, answer.status_code, view)
    for name, value in answer.items():
        if name.lower() != "content-type":
            response[name] = value
    return response


Lean = Callable[[HttpRequest, str], HttpResponse | None]


def or_twin(lean: Lean, twin: type[APIView]) -> Callable[[HttpRequest, str], HttpResponse]:
    """The route's view: the plain view ``lean`` answers, or, where it does not, its DRF
    twin."""
    twin_view = twin.as_view()

    @csrf_exempt
    def view(request: HttpRequest, match_id: str) -> HttpResponse:
        response = lean(request, match_id)
        if response is None:
            return twin_view(request, match_id=match_id)  # type: ignore[no-any-return]
        return response

    return view


match_actions = or_twin(lean_move, ActionView)
