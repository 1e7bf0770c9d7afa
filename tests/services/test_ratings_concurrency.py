"""The end-of-match work under concurrency, on real PostgreSQL: the same match recorded by many
workers at once counts once; matches sharing players recorded at once neither deadlock nor
lose an update, and the rebuild (in record order) gives the very same numbers."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from games import services
from games.models import Career, RatingPoint, RecordedMatch

from .finished import BOT, finished_match, people

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]


def in_threads(calls: list, workers: int) -> list:
    """Every call on its own connection, ``workers`` at a time, each round released at once."""
    assert len(calls) % workers == 0, "the barrier releases full rounds"
    barrier = threading.Barrier(workers, timeout=60)

    def run(call):
        try:
            barrier.wait()
            return call()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(run, calls))


def test_many_workers_recording_one_match_at_once_apply_it_exactly_once():
    a, b, c = people(3)
    match = finished_match("fabfib", [a, b, c], [1, 2, 3])
    results = in_threads([lambda: services.match_record_results(match_id=match.pk)] * 6, 6)
    assert sorted(results) == [False] * 5 + [True]
    assert Career.objects.get(user=a, game="fabfib").matches == 1
    assert RatingPoint.objects.filter(match=match).count() == 3
    assert RecordedMatch.objects.filter(match=match).count() == 1


def test_matches_sharing_players_recorded_at_once_lose_nothing_and_rebuild_the_same():
    players = people(5)
    matches = [
        finished_match(
            "fabfib",
            [players[i % 5], players[(i + 1) % 5], players[(i + 3) % 5], BOT],
            [1 + (i % 3), 1 + ((i + 1) % 3), 1 + ((i + 2) % 3), 4],
        )
        for i in range(12)
    ]
    results = in_threads(
        [lambda m=m: services.match_record_results(match_id=m.pk) for m in matches], 4
    )
    assert results == [True] * 12
    assert sum(c.matches for c in Career.objects.all()) == 12 * 3, "no update lost"
    assert RatingPoint.objects.count() == 12 * 3
    check = services.stats_rebuild(write=False)
    assert check["differences"] == [], "the record order is the order ratings were applied"
