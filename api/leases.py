"""The moves' rate limit counted in process: a worker takes a user's moves from Redis a few at
a time (a *lease*) and lets them through from memory.

The budget is the one :class:`api.throttling.AtomicScopedRateThrottle` keeps — a Redis list of
the times of the requests let through within the rate's duration, shared by every worker and
by GraphQL — and a lease is entries of that same list: :data:`SCRIPT` trims the list, and
records up to ``want`` entries at once if the budget has room for them. The worker then lets
that many moves of the user through without asking again, for as long as those entries count
against the budget (the rate's duration after they were recorded, less :data:`CLOCK_SKEW`).

**The bounds.** Entries are recorded before the moves they stand for are let through, so the
limit is never exceeded, with any number of workers (whose clocks agree within
:data:`CLOCK_SKEW`). A lease a worker does not use up still
counts until it expires, so a user moving through several workers at once may be refused up to
``(N - 1) × want`` moves early within a window, ``N`` the workers serving them and ``want``
:func:`lease_size` of the rate (16 for the default 1,200 a minute: at most 64 of 1,200 with
five workers; at most ``N - 1`` for rates under 32 a minute, where a lease is one move).
A worker asks Redis once every ``want`` moves of a user (one round trip per 16 moves by
default), and never for a user whose lease is not used up. ``tests/api/test_leases.py``
holds it to both bounds with several workers at once.

Without Redis (the embedded default) it is not used: the throttle is DRF's, in local memory.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from api.throttling import TRIM, AtomicScopedRateThrottle, _script, wait_of

#: The most entries one lease takes.
LEASE = 16
#: A lease is used until this long (seconds) before its entries leave the shared history: each
#: worker trims that history by its own clock, so this much disagreement between the workers'
#: clocks never lets a worker use a lease whose entries another already dropped.
CLOCK_SKEW = 1.0

#: KEYS[1] the history; ARGV: now, duration (s), allowed requests, entries wanted. Drops the
#: entries older than the duration (``TRIM``), then records as many of the wanted as there is
#: room for.
#: Returns {entries recorded, entries after, the oldest entry}.
SCRIPT = (
    TRIM
    + """
local grant = math.min(tonumber(ARGV[4]), tonumber(ARGV[3]) - n)
if grant <= 0 then
  return {0, n, redis.call('LINDEX', KEYS[1], -1)}
end
for i = 1, grant do
  redis.call('LPUSH', KEYS[1], ARGV[1])
end
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])))
return {grant, n + grant, redis.call('LINDEX', KEYS[1], -1)}
"""
)


def lease_size(num_requests: int) -> int:
    """Entries one lease takes for a rate of ``num_requests``: a sixteenth of it, at most
    :data:`LEASE`, at least one."""
    return max(1, min(LEASE, num_requests // 16))


@dataclass
class Verdict:
    allowed: bool
    #: Seconds until a move would be let through again (``Retry-After``), when refused.
    wait: float | None = None


_rates: dict[str, tuple[Any, Any]] = {}


def _rate(scope: str) -> tuple[int | None, int | None]:
    rate = AtomicScopedRateThrottle.THROTTLE_RATES.get(scope)  # DRF's (settings, or patched)
    found = _rates.get(scope)
    if found is None or found[0] != rate:
        found = _rates[scope] = (rate, AtomicScopedRateThrottle().parse_rate(rate))
    return found[1]  # type: ignore[no-any-return]


class Leases:
    """A worker's leases (one per process: :data:`LEASES`)."""

    def __init__(self) -> None:
        self._held: dict[str, list[float]] = {}  # history key -> [moves left, valid until]
        self._lock = threading.Lock()

    def allow(self, client: Any, scope: str, user_id: int) -> Verdict:
        """Whether ``user_id`` may make one more request of ``scope`` (counted if so), from
        this worker's lease, else from a new one. ``client``: the cache's Redis."""
        num, duration = _rate(scope)
        if num is None or duration is None:
            return Verdict(True)
        key = cache.make_key(
            AtomicScopedRateThrottle.cache_format % {"scope": scope, "ident": user_id}
        )
        now = time.time()
        with self._lock:
            lease = self._held.get(key)
            if lease is not None and lease[0] >= 1 and now < lease[1]:
                lease[0] -= 1
                return Verdict(True)
        granted, count, oldest = _script(client, SCRIPT)(
            keys=[key], args=[repr(now), duration, num, lease_size(num)]
        )
        if not granted:
            oldest_at = float(oldest) if oldest is not None else None
            return Verdict(False, wait_of(num, duration, now, int(count), oldest_at))
        with self._lock:
            if len(self._held) > 100_000:
                self._held.clear()
            self._held[key] = [granted - 1, now + duration - CLOCK_SKEW]
        return Verdict(True)

    def clear(self) -> None:
        with self._lock:
            self._held.clear()


#: This process's leases.
LEASES = Leases()


def allow(client: Any, scope: str, user_id: int) -> Verdict:
    """:meth:`Leases.allow` with this process's leases."""
    return LEASES.allow(client, scope, user_id)
