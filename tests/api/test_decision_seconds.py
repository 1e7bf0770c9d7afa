"""``decision_seconds`` outside its bounds is refused the same way at both ends, wherever it is
accepted (a match, a challenge, a tournament; REST and GraphQL): 422 ``invalid_options`` naming
the field — below the time control's minimum, above its maximum, and beyond the schema's overall
bounds alike — and the OpenAPI schema states those overall bounds."""

from __future__ import annotations

import pytest

from api.play.matches import SECONDS_MAX
from games.models import Match
from games.timecontrol import TIME_CONTROLS
from tests.api.helpers import Player, assert_error
from tests.api.openapi_validation import document
from tests.graphql.helpers import GqlPlayer

pytestmark = pytest.mark.django_db

LIVE, ASYNC = TIME_CONTROLS["live"], TIME_CONTROLS["async"]
#: (time control, seconds): each out of range, below and above, inside and beyond the schema.
OUT_OF_RANGE = [
    ("live", 0),
    ("live", LIVE.min_seconds - 1),
    ("live", LIVE.max_seconds + 1),
    ("live", SECONDS_MAX + 1),
    ("async", ASYNC.min_seconds - 1),
    ("async", ASYNC.max_seconds + 1),
    ("async", 2**63),
]


@pytest.fixture(autouse=True)
def live_bounds(settings):
    """The live time control's own minimum (the test settings lower it)."""
    settings.FIBSERVER = {**settings.FIBSERVER, "LIVE_MIN_SECONDS": LIVE.min_seconds}


def refused(error: dict) -> None:
    assert error["code"] == "invalid_options" and error["field"] == "decision_seconds", error
    assert "decision_seconds" in error["message"], error


@pytest.mark.parametrize(("control", "seconds"), OUT_OF_RANGE)
def test_out_of_range_is_422_invalid_options_at_both_ends_over_rest(control, seconds):
    me, rival = Player(), Player()
    body = {"time_control": control, "decision_seconds": seconds}
    refused(assert_error(me.post("/api/matches/", {"game": "fibber", "seats": 2, **body}), 422))
    challenge = {"players": [rival.user.pk], "game": "fibber", **body}
    refused(assert_error(me.post("/api/challenges/", challenge), 422))
    refused(assert_error(me.post("/api/tournaments/", {"name": "Cup", **body}), 422))
    assert Match.objects.count() == 0


@pytest.mark.parametrize(("control", "seconds"), OUT_OF_RANGE)
def test_out_of_range_is_invalid_options_at_both_ends_over_graphql(control, seconds):
    me, rival = GqlPlayer("Me"), GqlPlayer("Rival")
    common = {"timeControl": control, "decisionSeconds": seconds}
    if seconds >= 2**31:  # beyond GraphQL's Int: refused before any resolver, as any bad Int
        return
    error = me.error(
        "mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }",
        input={"game": "fibber", "seats": 2, **common},
    )
    assert error["extensions"]["code"] == "invalid_options", error
    error = me.error(
        "mutation($input: ChallengeInput!) { challengePlayers(input: $input) { id } }",
        input={"players": [rival.user.pk], "game": "fibber", **common},
    )
    assert error["extensions"]["code"] == "invalid_options", error
    error = me.error(
        "mutation($input: CreateTournamentInput!) { createTournament(input: $input) { id } }",
        input={"name": "Cup", **common},
    )
    assert error["extensions"]["code"] == "invalid_options", error


def test_the_bounds_themselves_are_accepted():
    me = Player()
    for control in (LIVE, ASYNC):
        for seconds in (control.min_seconds, control.max_seconds):
            body = {"game": "fibber", "seats": 2, "time_control": control.name}
            made = me.create(**body, decision_seconds=seconds)
            assert made["decision_seconds"] == seconds


def test_the_schema_states_the_bounds():
    schemas = document()["components"]["schemas"]
    inputs = [n for n, s in schemas.items() if n.endswith("MatchCreateIn") and "properties" in s]
    for name in [*inputs, "ChallengeCreateIn", "TournamentCreateIn"]:
        field = schemas[name]["properties"]["decision_seconds"]
        assert field["minimum"] == 1 and field["maximum"] == SECONDS_MAX, (name, field)
        about = field["description"]
        assert "422" in about and f"{LIVE.min_seconds}–{LIVE.max_seconds}" in about, (name, about)
