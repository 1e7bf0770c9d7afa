"""The moves' rate limit counted in process (api.leases): never above the limit with any number
of workers, at most ``(N - 1) × lease`` below it, one round trip per lease."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from rest_framework.throttling import ScopedRateThrottle

from api import leases
from api.throttling import AtomicScopedRateThrottle, redis_client

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="leases are taken from Redis")


@pytest.fixture
def rate(monkeypatch, clear_cache):
    def set_rate(value: str) -> None:
        monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"actions": value})

    clear_cache()
    yield set_rate
    clear_cache()


@pytest.fixture
def round_trips(monkeypatch) -> list[int]:
    """One entry per lease script run against Redis from now on."""
    calls: list[int] = []
    real = leases._script

    def counted(client, text):
        script = real(client, text)
        return lambda **kw: (calls.append(1), script(**kw))[1]

    monkeypatch.setattr(leases, "_script", counted)
    return calls


def hammer(workers: int, user_id: int, tries: int) -> list[int]:
    """``workers`` workers (each with its own leases, as processes have) each asking ``tries``
    times at once for one user; how many each let through."""
    client = redis_client()
    passed = [0] * workers
    start = threading.Barrier(workers)

    def work(i: int) -> None:
        mine = leases.Leases()
        start.wait()
        for _ in range(tries):
            if mine.allow(client, "actions", user_id).allowed:
                passed[i] += 1

    threads = [threading.Thread(target=work, args=(i,)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return passed


@pytest.mark.parametrize("workers", [1, 3, 5])
@pytest.mark.parametrize("limit", [10, 200, 1200])
def test_several_workers_never_let_more_through_than_the_limit(rate, workers, limit):
    rate(f"{limit}/min")
    passed = hammer(workers, user_id=7000 + workers, tries=limit)
    size = leases.lease_size(limit)
    assert sum(passed) <= limit
    assert sum(passed) >= limit - (workers - 1) * size, (passed, size)
    if workers == 1:
        assert sum(passed) == limit


def test_a_worker_asks_redis_once_per_lease(rate, round_trips):
    rate("1200/min")
    mine = leases.Leases()
    client = redis_client()
    for _ in range(64):
        assert mine.allow(client, "actions", 8001).allowed
    assert len(round_trips) == 64 // leases.lease_size(1200) == 4


def test_small_rates_ask_for_every_move(rate):
    rate("16/min")
    assert leases.lease_size(16) == 1
    assert sum(hammer(3, user_id=8002, tries=20)) == 16


def test_a_lease_counts_in_the_budget_the_twin_and_graphql_read(rate):
    rate("20/min")
    client = redis_client()
    mine = leases.Leases()
    assert mine.allow(client, "actions", 8003).allowed  # takes a lease of one (20 // 16)
    for _ in range(19):
        assert mine.allow(client, "actions", 8003).allowed
    verdict = mine.allow(client, "actions", 8003)
    assert not verdict.allowed
    assert verdict.wait is not None and 0 < verdict.wait <= 60
    throttle = AtomicScopedRateThrottle()
    request = type("R", (), {"user": type("U", (), {"pk": 8003, "is_authenticated": True})()})()
    view = type("V", (), {"throttle_scope": "actions"})()
    assert not throttle.allow_request(request, view)  # the twin sees the same 20


def test_an_expired_lease_is_not_used(rate, monkeypatch, round_trips):
    rate("1200/min")
    client = redis_client()
    mine = leases.Leases()
    assert mine.allow(client, "actions", 8004).allowed
    round_trips.clear()  # counted from here
    real = leases.time.time
    monkeypatch.setattr(leases.time, "time", lambda: real() + 61)  # its entries have expired
    assert mine.allow(client, "actions", 8004).allowed
    assert round_trips == [1]  # a new lease, recorded now


def test_a_lease_is_not_used_in_its_last_second_whatever_the_other_clocks_say(
    rate, monkeypatch, round_trips
):
    rate("1200/min")
    client = redis_client()
    mine = leases.Leases()
    assert mine.allow(client, "actions", 8005).allowed
    round_trips.clear()  # counted from here
    real = leases.time.time
    monkeypatch.setattr(leases.time, "time", lambda: real() + 58.5)
    assert mine.allow(client, "actions", 8005).allowed
    assert round_trips == []  # still well inside: from the lease
    monkeypatch.setattr(leases.time, "time", lambda: real() + 59.5)
    assert mine.allow(client, "actions", 8005).allowed
    assert round_trips == [1]  # within CLOCK_SKEW of its entries' expiry: a new lease
