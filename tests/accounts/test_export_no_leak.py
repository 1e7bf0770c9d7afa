"""No leak through the export: for two matches that differ only in what seat S cannot see,
the export of S's player holds byte-identical entries for them (the view and the whole log
seen through S), in every game, at random points of play."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import export_document
from games.engine import registry
from games.models import Match
from tests.api.test_no_leak_api import played_match, twin_of

pytestmark = pytest.mark.django_db


def entries_of(user, match: Match) -> str:
    doc = json.loads(export_document.build(user)[0])
    mine = [e for e in doc["matches"] if e["match"] == str(match.pk)]
    assert mine, "the match is in its player's export"
    text = json.dumps(mine, sort_keys=True)
    return text.replace(str(match.pk), "MATCH").replace(match.invite_code, "CODE")


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.integers(0, 40), pick=st.randoms(use_true_random=False))
def test_an_export_does_not_depend_on_what_its_players_seat_cannot_see(rules, steps, pick):
    match, users = played_match(rules, steps, random.Random(pick.random()))
    for seat in range(match.seat_count):
        twin = twin_of(match, seat, random.Random(pick.random()))
        assert entries_of(users[seat], twin) == entries_of(users[seat], match)
