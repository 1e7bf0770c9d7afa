"""The moves' rate limit in one Redis round trip.

DRF's ``ScopedRateThrottle`` keeps a client's request history as one pickled list in the cache:
a ``GET`` and a ``SET`` per request (two round trips, and between them another process can read
the same history, so two racing requests may both pass), and the whole list is unpickled and
pickled again each time (up to the rate's number of entries). :class:`AtomicScopedRateThrottle`
keeps the same history — the times of the requests let through within the rate's duration —
as a Redis list that one Lua script trims, counts and appends to, atomically, in one round trip.
Same rates (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``), same keys of who is counted (the
user, else the client's address), the same ``wait()``. Without Redis (the embedded default:
one process, local memory) it is DRF's throttle unchanged.

The ``actions`` scope uses it, from REST's DRF twin and GraphQL, and the fast lane's move
takes the same history's entries a few at a time (:mod:`api.leases`), so every face shares one
budget. Its history lives under its own key, never one
DRF's format uses.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from rest_framework.throttling import ScopedRateThrottle

from api import rediscache

#: KEYS[1] the history; ARGV: now, duration (s), allowed requests. Drops the entries older than
#: the duration (the oldest are at the tail), refuses when as many as allowed remain, else
#: records now. Returns {allowed (0/1), entries after, the oldest entry}.
#: The start of every script on a history (KEYS[1]; ARGV[1] now, ARGV[2] the duration): drop
#: the entries older than the duration (the oldest are at the tail), leave their count in ``n``.
TRIM = """
local horizon = tonumber(ARGV[1]) - tonumber(ARGV[2])
while true do
  local last = redis.call('LINDEX', KEYS[1], -1)
  if not last or tonumber(last) > horizon then break end
  redis.call('RPOP', KEYS[1])
end
local n = redis.call('LLEN', KEYS[1])
"""

SCRIPT = (
    TRIM
    + """
if n >= tonumber(ARGV[3]) then
  return {0, n, redis.call('LINDEX', KEYS[1], -1)}
end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])))
return {1, n + 1, redis.call('LINDEX', KEYS[1], -1)}
"""
)

_scripts: dict[tuple[int, str], Any] = {}


def _script(client: Any, text: str = SCRIPT) -> Any:
    script = _scripts.get((id(client), text))
    if script is None:
        script = _scripts[(id(client), text)] = client.register_script(text)
    return script


def redis_client() -> Any:
    """The default cache's Redis client, or ``None`` when the cache is not Redis."""
    return rediscache.client()


class AtomicScopedRateThrottle(ScopedRateThrottle):
    """``ScopedRateThrottle`` with its history in a Redis list (module docstring)."""

    cache_format = "throttle-log_%(scope)s_%(ident)s"

    def allow_request(self, request: Any, view: Any) -> bool:
        client = redis_client()
        if client is None:
            return super().allow_request(request, view)
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        allowed, self.count, oldest = _script(client)(
            keys=[cache.make_key(self.key)], args=[repr(self.now), self.duration, self.num_requests]
        )
        self.oldest = float(oldest) if oldest is not None else None
        return bool(allowed)

    def wait(self) -> float | None:
        if not hasattr(self, "count"):
            return super().wait()  # type: ignore[no-any-return]
        return wait_of(self.num_requests, self.duration, self.now, self.count, self.oldest)


def wait_of(
    num: int, duration: float, now: float, count: int, oldest: float | None
) -> float | None:
    """DRF's ``wait()`` for a history of ``count`` entries within ``duration``, the oldest at
    ``oldest``: the seconds until one more request of ``num`` would be let through."""
    remaining = float(duration)
    if count and oldest is not None:
        remaining = duration - (now - oldest)
    available = num - count + 1
    if available <= 0:
        return None
    return remaining / float(available)
