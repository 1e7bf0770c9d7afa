"""The rebuild replays the match history to exactly the aggregates the end-of-match work kept."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.models import Career, Match, RatingPoint, RecordedMatch

from .finished import BOT, finished_match, people
from .test_deadlines import live_match
from .test_results import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_thresholds(settings):
    settings.FIBSERVER = {
        **settings.FIBSERVER,
        "PROVISIONAL_MATCHES": 2,
        "BOARD_MIN_MATCHES": 2,
        "BOARD_MIN_ATTEMPTS": 1,
    }


def stored() -> tuple[list[dict], list[dict]]:
    careers = list(
        Career.objects.order_by("user_id", "game").values(
            *(
                f.attname
                for f in Career._meta.concrete_fields
                if f.attname not in ("id", "updated_at")
            )
        )
    )
    points = list(
        RatingPoint.objects.order_by("match_id", "user_id").values(
            *(f.attname for f in RatingPoint._meta.concrete_fields if f.attname != "id")
        )
    )
    return careers, points


def varied_history() -> None:
    """Ties, bots, a solo match, two_tribes, a takeover and real played matches, shared
    players, recorded in an order that is not the order they ended in."""
    a, b, c, d = people(4)
    matches = [
        finished_match("fabfib", [a, b, c], [1, 2, 2], stats=None),
        finished_match("fabfib", [b, BOT, c, d], [2, 1, 4, 3]),
        finished_match("fabfib", [d, BOT, BOT], [1, 2, 3]),
        finished_match("fibber", [a, d], [1, 2], decisions={0: (1, 6), 1: (7, 0)}),
        finished_match("fibber", [a, d], [2, 1]),
        finished_match(
            "skull",
            [a, b, c, a, b, c],
            [2, 2, 1, 5, 3, 6],
            stats=[{"bids": n, "bids_with_own_skull": n % 2} for n in range(6)],
            options={"two_tribes": True},
        ),
    ]
    for match in reversed(matches):
        assert services.match_record_results(match_id=match.pk)
    played, _ = live_match(3)
    finish(played)  # every decision taken by bots after deadlines: assisted for everyone
    assert services.match_record_results(match_id=played.pk)
    played, _ = live_match(3, game="fibbers_dice")
    finish(played)
    assert services.match_record_results(match_id=played.pk)


def test_the_rebuild_gives_the_same_numbers_as_the_incremental_work(low_thresholds):
    varied_history()
    incremental = stored()
    assert any(c["board_rating"] is not None for c in incremental[0]), "boards are filled"
    assert services.stats_rebuild(write=False)["differences"] == []
    summary = services.stats_rebuild()
    assert summary["matches"] == RecordedMatch.objects.count() == 8
    assert stored() == incremental


def test_the_rebuild_finds_a_difference_and_mends_it(low_thresholds):
    varied_history()
    incremental = stored()
    Career.objects.filter(game="fabfib").update(wins=99, mu=1.0)
    assert services.stats_rebuild(write=False)["differences"]
    services.stats_rebuild()
    assert stored() == incremental


def test_the_rebuild_command_checks_and_rebuilds(low_thresholds):
    varied_history()
    out = io.StringIO()
    call_command("stats_rebuild", "--check", stdout=out)
    assert "no differences" in out.getvalue()
    Career.objects.update(matches=0)
    with pytest.raises(CommandError, match="difference"):
        call_command("stats_rebuild", "--check", stdout=io.StringIO())
    call_command("stats_rebuild", stdout=out)
    assert services.stats_rebuild(write=False)["differences"] == []


def test_a_threshold_change_takes_effect_with_the_rebuild(settings, low_thresholds):
    varied_history()
    on_board = Career.objects.filter(board_wins__isnull=False).count()
    assert on_board > 0
    settings.FIBSERVER = {**settings.FIBSERVER, "BOARD_MIN_MATCHES": 50}
    services.stats_rebuild()
    assert not Career.objects.filter(board_wins__isnull=False).exists()


def test_matches_recorded_before_ratings_existed_are_rated_by_the_rebuild():
    a, b = people(2)
    old = finished_match("fabfib", [a, b, BOT], [1, 2, 3])
    Match.objects.filter(pk=old.pk).update(results_recorded=True)  # careers only, long ago
    services.stats_rebuild()
    assert RecordedMatch.objects.filter(match=old).exists()
    assert Career.objects.get(user=a, game="fabfib").rated_matches == 1
