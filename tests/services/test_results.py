"""End-of-match work: once per match, queued by the one finisher, caught by the sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.services import guest_create
from games import services
from games.models import Career, Match, Seat

from .test_deadlines import overdue

pytestmark = pytest.mark.django_db


def finish(match: Match) -> Match:
    for _ in range(500):
        match.refresh_from_db()
        if match.status != "active":
            return match
        overdue(match)
        services.deadlines_sweep()
    raise AssertionError("the match did not end")


def test_a_finished_match_adds_to_each_players_career_exactly_once(settings):
    users = [guest_create()[0] for _ in range(3)]
    match = services.match_create(user=users[0], game="fabfib", seats=3, options={"life": 1})
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match = finish(match)
    assert match.status == "finished"
    # on_commit does not run inside a test transaction: do what it would have queued.
    assert services.match_record_results(match_id=match.pk) is True
    assert services.match_record_results(match_id=match.pk) is False, "never twice"
    careers = {c.user_id: c for c in Career.objects.filter(game="fabfib")}
    assert set(careers) == {u.pk for u in users}
    places = {s.user_id: s.place for s in Seat.objects.filter(match=match)}
    for user in users:
        career = careers[user.pk]
        assert career.matches == 1 and career.place_sum == places[user.pk]
        assert career.wins == (places[user.pk] == 1)
        position = Seat.objects.get(match=match, user=user).position
        assert career.stats == {k: v for k, v in match.stats[position].items()}


def test_the_sweep_requeues_end_of_match_work_a_lost_task_left_undone(monkeypatch):
    queued = []
    monkeypatch.setattr("games.services.schedule.results", queued.append)
    user = guest_create()[0]
    match = services.match_create(
        user=user, game="fabfib", seats=3, bots=["random"] * 2, time_control="solo"
    )
    Match.objects.filter(pk=match.pk).update(
        status="finished", finished_at=services.db_now() - timedelta(minutes=1)
    )
    services.deadlines_sweep()
    assert queued == [match.pk]


def test_a_person_with_two_seats_counts_once_with_the_better_place():
    a, b = guest_create()[0], guest_create()[0]
    match = services.match_create(user=a, game="skull", seats=4, options={"two_tribes": True})
    services.match_join(match_id=match.pk, user=b)
    Match.objects.filter(pk=match.pk).update(
        status="finished",
        finished_at=services.db_now(),
        placements=[1, 3, 4, 2],
        stats=[{"bids": 1}, {"bids": 2}, {"bids": 3}, {"bids": 4}],
    )
    for position, place in enumerate([1, 3, 4, 2]):
        Seat.objects.filter(match=match, position=position).update(place=place)
    assert services.match_record_results(match_id=match.pk)
    career_a = Career.objects.get(user=a, game="skull")
    career_b = Career.objects.get(user=b, game="skull")
    assert (career_a.matches, career_a.wins, career_a.place_sum, career_a.stats) == (
        1,
        1,
        1,
        {"bids": 4},
    )
    assert (career_b.matches, career_b.wins, career_b.place_sum, career_b.stats) == (
        1,
        0,
        2,
        {"bids": 6},
    )
