"""seed_demo fills the database with finished matches the engines really played, and the
aggregates it leaves are the ones the rebuild (and so the end-of-match work) gives."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games import services
from games.engine import registry
from games.models import Career, Match, RatingPoint, RecordedMatch, Seat

pytestmark = pytest.mark.django_db


def test_seed_demo_plays_real_matches_and_leaves_consistent_aggregates(client, settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "PROVISIONAL_MATCHES": 2, "BOARD_MIN_MATCHES": 2}
    out = io.StringIO()
    call_command("seed_demo", "--players", "12", "--matches", "40", "--workers", "1", stdout=out)
    assert "rebuilt" in out.getvalue()
    matches = list(Match.objects.all())
    assert len(matches) == 40 and {m.status for m in matches} == {"finished"}
    assert RecordedMatch.objects.count() == 40
    for match in matches:
        rules = registry.get(match.game)
        assert len(match.placements) == match.seat_count and min(match.placements) == 1
        assert sorted(match.stats[0]) == sorted(
            rules.stats(rules.new_game(match.seat_count, match.options, match.seed).state)[0]
        ), "the engine's own statistics"
        seats = Seat.objects.filter(match=match)
        assert all(s.user_id or s.bot_level for s in seats)
    assert Career.objects.exists() and RatingPoint.objects.exists()
    assert services.stats_rebuild(write=False)["differences"] == []
    board = client.get("/api/leaderboards/fabfib/?board=rating").json()
    assert board["count"] > 0
    seeded = matches[0]
    assert client.get(f"/api/matches/{seeded.pk}/replay/").status_code == 404, "no log kept"
    assert client.get(f"/api/matches/{seeded.pk}/stats/").status_code == 200
