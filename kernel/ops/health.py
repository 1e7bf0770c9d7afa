"""Liveness and readiness (docs/operations.md, "Health").

- **Liveness** (``/livez/``): the process answers HTTP. It reads nothing, so it fails only
  when the process is stuck or gone; restart it then.
- **Readiness** (``/readyz/``, and ``/healthz/``, its older name): the process can serve —
  the database answers ``SELECT 1`` and, where ``REDIS_URL`` is set, Redis answers ``PING``
  (each within about a second). 503 while either is unreachable: take the process out of
  rotation, but do not restart it for that (it recovers by itself when they are back).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

_redis: Any = None
_redis_url: str | None = None


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any database failure means "not ready"
        log.warning("readiness: the database is unreachable", exc_info=True)
        return False
    return True


def redis_ok() -> bool:
    global _redis, _redis_url
    url = str(settings.REDIS_URL)
    try:
        if _redis is None or _redis_url != url:
            import redis

            _redis = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
            _redis_url = url
        return bool(_redis.ping())
    except Exception:
        log.warning("readiness: Redis is unreachable", exc_info=True)
        return False


def readiness() -> tuple[bool, dict[str, str]]:
    """Whether this process can serve, and each dependency's state."""
    checks = {"database": "ok" if database_ok() else "unavailable"}
    if settings.REDIS_URL:
        checks["redis"] = "ok" if redis_ok() else "unavailable"
    return all(state == "ok" for state in checks.values()), checks
