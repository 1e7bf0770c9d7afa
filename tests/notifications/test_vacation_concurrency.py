"""Vacation under concurrency, on real PostgreSQL: the same player starting vacations at once
gets one; a vacation starting while the opponent moves leaves every deadline exact."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection

from games.models import Seat, Vacation
from games.services.vacation import vacation_end, vacation_start
from kernel.errors import Conflict
from tests.services.test_ratings_concurrency import in_threads

from .helpers import move, table, to_act

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]


def attempt(call):
    def run():
        try:
            call()
        except Conflict:
            return "conflict"
        return "started"

    return run


def test_starting_vacations_at_once_gives_one_and_counts_its_days_once():
    _, users = table(time_control="async")
    me = users[0]
    results = in_threads([attempt(lambda: vacation_start(user=me, days=10))] * 4, 4)
    assert sorted(results) == ["conflict"] * 3 + ["started"]
    assert Vacation.objects.filter(user=me).count() == 1


def test_a_vacation_starting_while_the_opponent_moves_leaves_the_deadline_exact():
    for seed in range(4):
        match, users = table(time_control="async", decision_seconds=3600)
        p = to_act(match)[0]
        away = users[1 - p]
        rng = random.Random(seed)
        in_threads(
            [
                lambda away=away: vacation_start(user=away, days=2),
                lambda m=match, u=users, r=rng, p=p: move(m, u, r, seat=p),
            ],
            2,
        )
        vacation = Vacation.objects.get(user=away)
        seat = Seat.objects.get(match=match, user=away)
        assert seat.vacation_until == vacation.ends_at
        if seat.must_act:
            # the move came first: its hour ran until the vacation began, then waits for its
            # end; or the vacation came first: the full hour from its end
            full = vacation.ends_at + timedelta(seconds=3600)
            assert seat.deadline is not None
            assert full - timedelta(seconds=5) <= seat.deadline <= full
        vacation_end(user=away)
