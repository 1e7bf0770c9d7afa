"""Who is calling, and the throttles: the same tokens and the same throttle budgets as REST.

A request's context carries the ``META`` the REST authentication and throttle classes read
(``HTTP_AUTHORIZATION``, ``REMOTE_ADDR``, ``X-Forwarded-For``). Over HTTP that is the Django
request's; over a websocket it is built from the handshake and the ``connection_init`` payload
(``{"Authorization": "Bearer <token>"}``). The caller is authenticated lazily, by the first
resolver that needs one, so a stale token never blocks ``guest`` or ``login`` (as in REST, whose
sign-in views authenticate nobody).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http.request import HttpHeaders
from rest_framework import exceptions
from rest_framework.throttling import ScopedRateThrottle
from strawberry.types import Info

from api.authentication import token_auth
from api.throttling import AtomicScopedRateThrottle

_UNKNOWN = object()


def meta_request(meta: dict[str, Any], **attributes: Any) -> Any:
    """What DRF's authentication and throttle classes read of a request: ``META``, ``headers``."""
    return SimpleNamespace(META=meta, headers=HttpHeaders(meta), **attributes)


@dataclass
class Context:
    """What every resolver sees as ``info.context``."""

    meta: dict[str, Any]
    request: Any = None  # the Django request (HTTP); None over a websocket
    websocket: bool = False
    connection_params: dict[str, Any] | None = None  # set by the websocket handler
    _user: Any = field(default=_UNKNOWN, repr=False)
    session: Any = field(default=None, repr=False)  # the token's (accounts.models.Session)

    def authenticate(self) -> Any:
        """The token's user, or ``None`` without a token (``AuthenticationFailed``: not valid)."""
        if self._user is _UNKNOWN:
            found = token_auth(meta_request(self.meta))
            self._user, self.session = (None, None) if found is None else found
        return self._user

    def set_user(self, user: Any, session: Any = None) -> None:
        self._user, self.session = user, session


def context_of(info: Info) -> Context:
    context = info.context
    assert isinstance(context, Context)
    return context


def caller(info: Info) -> Any:
    """The calling user, or ``None`` for an anonymous caller."""
    return context_of(info).authenticate()


def require_user(info: Info) -> Any:
    """The calling user; without one, REST's 401 ``not_authenticated``."""
    user = caller(info)
    if user is None:
        raise exceptions.NotAuthenticated()
    return user


def throttle(info: Info, scope: str, user: Any = None) -> None:
    """Count this call against REST's throttle ``scope`` (DRF's ``ScopedRateThrottle``, the same
    cache keys): one budget per user (``user``) or client address, whichever API is used."""
    rate = AtomicScopedRateThrottle() if scope == "actions" else ScopedRateThrottle()
    request = meta_request(context_of(info).meta, user=user or AnonymousUser())
    if not rate.allow_request(request, SimpleNamespace(throttle_scope=scope)):  # type: ignore[arg-type]
        raise exceptions.Throttled(wait=rate.wait())
