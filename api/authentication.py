"""Token authentication: ``Authorization: Bearer <token>``.

DRF's own ``Authorization: Token <token>`` keeps working too (settings list both classes); the
token is the same DRF ``authtoken`` key either way.
"""

import hashlib
from typing import Any

from django.core.cache import cache
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework.authentication import TokenAuthentication

from api import rediscache

#: How long a token's user is kept in the shared cache (seconds). Every change that could
#: make a cached entry wrong — the token deleted (logout, ``token_revoke``, an account deleted)
#: or its user saved (deactivated, renamed, upgraded) — deletes the entry at once
#: (:func:`connect_invalidation`); the expiry only bounds what a change made behind the ORM's
#: back (a raw UPDATE) could leave.
TOKEN_CACHE_SECONDS = 60


def token_cache_key(key: str) -> str:
    """The cache key of a token (its hash: the cache never holds a usable token)."""
    return "auth-token:" + hashlib.sha256(key.encode()).hexdigest()[:40]


def token_user_key(key: str) -> str:
    """The cache key of a cached token's user id, kept beside :func:`token_cache_key` (a plain
    number, which a Redis script can read: the fast lane's move checks the token and counts
    the move against the user's rate limit in one round trip)."""
    return "auth-token-user:" + hashlib.sha256(key.encode()).hexdigest()[:40]


def remember_token(key: str, user: Any, token: Any) -> None:
    """Cache a valid token's user (both keys, one round trip)."""
    cache.set_many(
        {token_cache_key(key): (user, token), token_user_key(key): int(user.pk)},
        TOKEN_CACHE_SECONDS,
    )


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <token>``, its user looked up once per
    :data:`TOKEN_CACHE_SECONDS` in the shared cache (Redis when set) instead of one database
    query per request. A token that is not valid (or a user who is not active) is never
    cached: each such request is checked against the database."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        name = token_cache_key(key)
        found = rediscache.get(name)
        if found is not None:
            return found  # type: ignore[no-any-return]
        user, token = super().authenticate_credentials(key)
        remember_token(key, user, token)
        return user, token


class BearerTokenAuthentication(CachedTokenAuthentication):
    keyword = "Bearer"


def forget_token(key: str) -> None:
    cache.delete_many([token_cache_key(key), token_user_key(key)])


def connect_invalidation() -> None:
    """Drop a token's cached user when the token is deleted or its user saved or deleted."""
    from django.db.models.signals import post_delete, post_save
    from rest_framework.authtoken.models import Token

    from accounts.models import User

    def token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
        forget_token(instance.key)

    def user_changed(sender: Any, instance: User, **kwargs: Any) -> None:
        for key in Token.objects.filter(user_id=instance.pk).values_list("key", flat=True):
            forget_token(key)

    post_delete.connect(token_deleted, sender=Token, dispatch_uid="auth-token-deleted", weak=False)
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
    for scheme in (BearerTokenAuthentication(), CachedTokenAuthentication()):
        found = scheme.authenticate(request)
        if found is not None:
            return found[0]
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
