"""Token authentication: ``Authorization: Bearer <token>``.

DRF's own ``Authorization: Token <token>`` keeps working too (settings list both classes); the
token is the key of one of the user's named sessions (:mod:`accounts.sessions`) either way.
"""

from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.models import Session
from accounts.sessions import address_of, digest_of, session_of, touch
from api import localtokens, rediscache

#: How long a token's user is kept in the shared cache (seconds). Every change that could
#: make a cached entry wrong — the session deleted (logout, a revocation, a password change, an
#: account deleted) or its user saved (deactivated, renamed, upgraded) — deletes the entry at once
#: (:func:`connect_invalidation`); the expiry only bounds what a change made behind the ORM's
#: back (a raw UPDATE) could leave.
TOKEN_CACHE_SECONDS = 60


def token_cache_key(key: str) -> str:
    """The cache key of a token (its hash: the cache never holds a usable token)."""
    return _cache_key(digest_of(key))


def _cache_key(digest: str) -> str:
    return "auth-token:" + digest[:40]


def remember_token(key: str, user: Any, token: Any) -> None:
    """Cache a valid token's user."""
    cache.set(token_cache_key(key), (user, token), TOKEN_CACHE_SECONDS)


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <token>``, the token's session and user looked up once per
    :data:`TOKEN_CACHE_SECONDS` in the shared cache (Redis when set) instead of one database
    query per request; that lookup also refreshes the session's ``last_used`` when it is stale
    (:func:`accounts.sessions.touch`). A token that is not valid (or a user who is not active)
    is never cached: each such request is checked against the database. ``request.auth`` is the
    :class:`accounts.models.Session`."""

    model = Session

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        self._request = request  # DRF makes one authenticator per request
        return super().authenticate(request)

    def authenticate_credentials(self, key: str, request: Any = None) -> tuple[Any, Any]:
        """The token's user and session; ``request`` (or the one :meth:`authenticate` was
        given) supplies the client's address when the session's record is refreshed."""
        name = token_cache_key(key)
        found = rediscache.get(name)
        if found is not None:
            return found  # type: ignore[no-any-return]
        session = session_of(key)
        if session is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not session.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        touch(session, address_of(request or getattr(self, "_request", None)))
        remember_token(key, session.user, session)
        return session.user, session


class BearerTokenAuthentication(CachedTokenAuthentication):
    keyword = "Bearer"


def forget_token(key: str) -> None:
    forget_digest(digest_of(key))


def forget_digest(digest: str) -> None:
    """Drop a session's cached entry: now, and again when the transaction commits (a request
    that read the session before the deletion committed may have cached it meanwhile)."""
    names = [_cache_key(digest)]
    cache.delete_many(names)
    localtokens.forget([digest])

    def again() -> None:
        cache.delete_many(names)
        localtokens.forget([digest])

    transaction.on_commit(again)


def connect_invalidation() -> None:
    """Drop a token's cached user when its session is deleted or its user saved or deleted."""
    from django.db.models.signals import post_delete, post_save

    from accounts.models import User

    def session_deleted(sender: Any, instance: Session, **kwargs: Any) -> None:
        forget_digest(instance.digest)

    def user_changed(sender: Any, instance: User, **kwargs: Any) -> None:
        for digest in Session.objects.filter(user_id=instance.pk).values_list("digest", flat=True):
            forget_digest(digest)

    post_delete.connect(
        session_deleted, sender=Session, dispatch_uid="auth-session-deleted", weak=False
    )
    post_save.connect(user_changed, sender=User, dispatch_uid="auth-user-saved", weak=False)
    post_delete.connect(user_changed, sender=User, dispatch_uid="auth-user-deleted", weak=False)


def token_key(header: bytes | str) -> str | None:
    """The key of a well-formed ``Authorization: Bearer <key>`` (or ``Token <key>``) header
    value, as DRF's token authentication splits it; ``None`` for anything else (DRF's own
    401s)."""
    try:
        auth = (header.encode("latin-1") if isinstance(header, str) else header).split()
    except UnicodeError:
        return None
    if len(auth) != 2 or auth[0].lower() not in (b"bearer", b"token"):
        return None
    try:
        return auth[1].decode()
    except UnicodeError:
        return None


def token_user(request: Any) -> Any:
    """The user of the request's token, the same way as the REST views (``Bearer`` or DRF
    ``Token``), or ``None`` without one; a token that is not valid raises DRF's
    ``AuthenticationFailed``. ``request`` needs only ``META`` (the follower's plain Django
    requests, and the GraphQL websocket's ``connection_init`` payload)."""
    found = token_auth(request)
    return None if found is None else found[0]


def token_auth(request: Any) -> tuple[Any, Session] | None:
    """The user and session of the request's token (as :func:`token_user`)."""
    for scheme in (BearerTokenAuthentication(), CachedTokenAuthentication()):
        found = scheme.authenticate(request)
        if found is not None:
            return found
    return None


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """OpenAPI: document the Bearer scheme apart from DRF's ``Token`` scheme."""

    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"
    priority = 1

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.keyword
        )
