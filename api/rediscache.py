"""The default cache's Redis, reached without building a Redis client per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache call, and
redis-py's constructor is not cheap (it copies its table of a few hundred response callbacks
into a new dictionary each time): on the move path it cost more CPU than the token
lookup's round trip itself. A ``redis.Redis`` is safe to share between threads (each command
takes a connection from the pool), so the hot paths keep one per connection pool of the
default cache, and read and write the very keys and values ``django.core.cache.cache`` does.
Without Redis (the embedded default) they use ``cache`` itself."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

_clients: dict[int, Any] = {}


def client() -> Any:
    """A Redis client of the default cache's pool, or ``None`` when the cache is not Redis."""
    inner = getattr(cache, "_cache", None)
    if inner is None or not hasattr(inner, "_get_connection_pool"):
        return None
    pool = inner._get_connection_pool(True)
    found = _clients.get(id(pool))
    if found is None or found.connection_pool is not pool:
        found = _clients[id(pool)] = inner._client(connection_pool=pool)
    return found


def get(name: str) -> Any:
    """``cache.get(name)``."""
    redis = client()
    if redis is None:
        return cache.get(name)
    raw = redis.get(cache.make_and_validate_key(name))
    return None if raw is None else cache._cache._serializer.loads(raw)  # type: ignore[attr-defined]
