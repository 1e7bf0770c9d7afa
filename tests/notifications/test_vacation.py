"""Vacation: a player's async clocks wait while they are away; live matches never do."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import override_settings

from games import services
from games.models import Match, Seat, Vacation
from games.reads.vacation import vacation_status
from games.services.vacation import vacation_end, vacation_start
from kernel.errors import Conflict, NotFound
from tests.api.helpers import assert_error
from tests.notifications.helpers import move, table, to_act

pytestmark = pytest.mark.django_db

HOUR = 3600
DAY = timedelta(days=1)


def async_table(seconds: int = HOUR):
    return table("fibber", 2, time_control="async", decision_seconds=seconds)


def seat_of(match: Match, position: int) -> Seat:
    return Seat.objects.get(match=match, position=position)


def travel(days: float, *matches: Match) -> None:
    """As if ``days`` had passed: every stored time of the vacations and the matches is moved
    that far into the past."""
    shift = timedelta(days=days)
    for v in Vacation.objects.all():
        v.started_at -= shift
        v.ends_at -= shift
        if v.ended_at:
            v.ended_at -= shift
        v.save()
    for match in matches:
        for seat in Seat.objects.filter(match=match):
            seat.deadline = seat.deadline - shift if seat.deadline else None
            seat.vacation_until = seat.vacation_until - shift if seat.vacation_until else None
            seat.save()
        m = Match.objects.get(pk=match.pk)
        m.deadline = m.deadline - shift if m.deadline else None
        m.save(update_fields=["deadline"])


def waiting_seat(match: Match) -> int:
    [position] = to_act(match)
    return position


def test_a_deadline_that_would_fire_during_the_vacation_does_not_and_keeps_its_time_after():
    match, users = async_table()
    p = waiting_seat(match)
    before = seat_of(match, p).deadline
    left = before - services.db_now()
    vacation_start(user=users[p], days=3)
    seat = seat_of(match, p)
    assert seat.vacation_until is not None
    assert seat.deadline == before + (seat.vacation_until - Vacation.objects.get().started_at)
    travel(2, match)  # the hour was up long ago
    assert services.deadlines_sweep() == 0
    assert services.deadline_expire(match_id=match.pk) == 0
    assert seat_of(match, p).timeouts == 0 and to_act(match) == [p]
    vacation_end(user=users[p])
    seat = seat_of(match, p)
    remaining = seat.deadline - services.db_now()
    assert abs((remaining - left).total_seconds()) < 5, "the clock stood still meanwhile"
    assert seat.vacation_until is None
    assert Match.objects.get(pk=match.pk).deadline == seat.deadline


def test_after_the_vacation_runs_out_the_pushed_deadline_fires_in_its_time():
    match, users = async_table()
    p = waiting_seat(match)
    vacation_start(user=users[p], days=2)
    travel(2, match)  # the vacation is over, the hour left is not
    assert services.deadlines_sweep() == 0
    travel(1 / 24 + 1 / 1440, match)
    assert services.deadlines_sweep() == 1
    assert seat_of(match, p).timeouts == 1


def test_a_decision_that_comes_during_the_vacation_has_its_full_time_from_its_end():
    match, users = async_table()
    p = waiting_seat(match)
    other = 1 - p
    vacation_start(user=users[other], days=5)
    rng = random.Random(3)
    move(match, users, rng, seat=p)
    if to_act(match) == [other]:
        seat = seat_of(match, other)
        assert seat.deadline == seat.vacation_until + timedelta(seconds=HOUR)


def test_even_an_overdue_deadline_is_not_taken_over_while_its_player_is_on_vacation():
    match, users = async_table()
    p = waiting_seat(match)
    vacation_start(user=users[p], days=1)
    past = services.db_now() - timedelta(minutes=1)
    Seat.objects.filter(match=match, position=p).update(deadline=past)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    assert services.deadlines_sweep() == 0
    assert to_act(match) == [p]


def test_a_bot_playing_for_an_away_seat_stops_for_the_vacation():
    match, users = async_table()
    p = waiting_seat(match)
    Seat.objects.filter(match=match, position=p).update(away=True)
    vacation_start(user=users[p], days=1)
    assert not seat_of(match, p).away
    version = Match.objects.get(pk=match.pk).version
    assert services.bot_act(match_id=match.pk, expected_version=version) is False


def test_live_matches_are_never_paused():
    match, users = table("fibber", 2, time_control="live", decision_seconds=60)
    p = waiting_seat(match)
    before = seat_of(match, p).deadline
    vacation_start(user=users[p], days=3)
    seat = seat_of(match, p)
    assert seat.deadline == before and seat.vacation_until is None
    past = services.db_now() - timedelta(minutes=1)
    Seat.objects.filter(pk=seat.pk).update(deadline=past)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    assert services.deadlines_sweep() == 1


def test_a_match_that_starts_during_the_vacation_waits_for_its_end():
    from accounts.services import guest_create

    host, guest = guest_create()[0], guest_create()[0]
    vacation_start(user=guest, days=2)
    match = services.match_create(
        user=host, game="fibber", seats=2, time_control="async", decision_seconds=HOUR
    )
    services.match_join(match_id=match.pk, user=guest)
    seat = Seat.objects.get(match=match, user=guest)
    assert seat.vacation_until == Vacation.objects.get(user=guest).ends_at
    if seat.must_act:
        assert seat.deadline == seat.vacation_until + timedelta(seconds=HOUR)


@override_settings(NOTIFICATIONS={"VACATION_DAYS_PER_YEAR": 10})
def test_the_yearly_allowance_counts_planned_days_and_days_begun_when_ended_early():
    _, users = async_table()
    me = users[0]
    vacation_start(user=me, days=4)
    with pytest.raises(Conflict):
        vacation_start(user=me, days=1)  # one at a time
    vacation_end(user=me)  # after a few seconds: one day begun
    assert vacation_status(me)["days_used"] == 1
    vacation_start(user=me, days=9)
    travel(9.5)
    assert vacation_status(me) | {"vacation": None} == {
        "on_vacation": False,
        "vacation": None,
        "days_per_year": 10,
        "days_used": 10,
        "days_left": 0,
    }
    with pytest.raises(Conflict) as refused:
        vacation_start(user=me, days=1)
    assert refused.value.details["days_left"] == 0
    with pytest.raises(NotFound):
        vacation_end(user=me)
    with pytest.raises(Conflict) as over:  # more than the allowance: as many as are left
        vacation_start(user=users[1], days=11)
    assert over.value.details["days_left"] == 10
    assert Vacation.objects.filter(user=users[1]).count() == 0


def test_opponents_see_the_seat_on_vacation_in_the_match_view():
    from tests.api.helpers import Player

    a, b = Player(), Player()
    made = a.create(game="fibber", seats=2, time_control="async", decision_seconds=HOUR)
    assert b.post(f"/api/matches/{made['id']}/join/").status_code == 200
    response = b.client.post("/api/me/vacation/", {"days": 3}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["on_vacation"] and body["vacation"]["days"] == 3 and body["days_used"] == 3
    view = a.view(made["id"])
    mine, theirs = sorted(view["seats"], key=lambda s: s["user"]["id"] != a.user.pk)
    assert mine["vacation_until"] is None
    assert theirs["vacation_until"] == body["vacation"]["ends_at"].replace("+00:00", "Z") or (
        theirs["vacation_until"] == body["vacation"]["ends_at"]
    )
    ended = b.client.delete("/api/me/vacation/")
    assert ended.status_code == 200 and not ended.json()["on_vacation"]
    assert ended.json()["vacation"]["ended_at"] is not None
    assert all(s["vacation_until"] is None for s in a.view(made["id"])["seats"])


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"days": 0},
        {"days": -1},
        {"days": "3"},
        {"days": 2.5},
        {"days": True},
        {"days": 367},
        {"days": 3, "extra": 1},
        [],
        "3",
        {"days": None},
    ],
)
def test_bad_input_is_a_400_and_changes_nothing(body):
    from tests.api.helpers import Player

    me = Player()
    response = me.client.post("/api/me/vacation/", body, format="json")
    assert_error(response, 400)
    assert not Vacation.objects.exists()


def test_more_days_than_the_allowance_or_than_are_left_is_a_409():
    from tests.api.helpers import Player

    me = Player()
    over = me.client.post("/api/me/vacation/", {"days": 31}, format="json")
    assert_error(over, 409)
    assert over.json()["error"]["days_left"] == 30
    assert me.client.post("/api/me/vacation/", {"days": 20}, format="json").status_code == 201
    assert_error(me.client.post("/api/me/vacation/", {"days": 1}, format="json"), 409)
    me.client.delete("/api/me/vacation/")
    refused = me.client.post("/api/me/vacation/", {"days": 30}, format="json")
    assert_error(refused, 409)
    assert refused.json()["error"]["days_left"] == 29
    assert_error(me.client.delete("/api/me/vacation/"), 404)
    assert Vacation.objects.count() == 1


def test_without_an_account_it_is_a_401():
    from rest_framework.test import APIClient

    client = APIClient()
    assert_error(client.get("/api/me/vacation/"), 401)
    assert_error(client.post("/api/me/vacation/", {"days": 1}, format="json"), 401)
    assert_error(client.delete("/api/me/vacation/"), 401)
