"""Days per move: an async match may give 1 to 14 days per decision (hours stay possible)."""

from __future__ import annotations

import pytest

from tests.api.helpers import Player, assert_error

pytestmark = pytest.mark.django_db

DAY = 86400


@pytest.mark.parametrize("seconds", [3600, DAY, 7 * DAY, 14 * DAY])
def test_an_async_match_takes_hours_or_one_to_fourteen_days_per_decision(seconds):
    me = Player()
    made = me.create(game="fibber", seats=2, time_control="async", decision_seconds=seconds)
    assert made["decision_seconds"] == seconds


@pytest.mark.parametrize("seconds", [14 * DAY + 1, 15 * DAY, 3599])
def test_more_than_fourteen_days_or_less_than_an_hour_is_refused(seconds):
    me = Player()
    body = {"game": "fibber", "seats": 2, "time_control": "async", "decision_seconds": seconds}
    response = me.post("/api/matches/", body)
    assert response.status_code in (400, 422), response.content
    assert_error(response, response.status_code)


def test_a_live_match_stays_within_ten_minutes():
    me = Player()
    body = {"game": "fibber", "seats": 2, "time_control": "live", "decision_seconds": DAY}
    assert me.post("/api/matches/", body).status_code in (400, 422)
