"""``replayStep(matchId, n)`` mirrors REST's ``GET /api/matches/{id}/replay/steps/{n}/``: the
same selector, the same values, the same refusals (REST's code in ``errors[].extensions``)."""

from __future__ import annotations

import pytest

from games.reads import replays
from tests.api.helpers import Player

from .helpers import GqlPlayer

pytestmark = pytest.mark.django_db(transaction=True)  # bots play after each commit

STEP = (
    "query S($id: ID!, $n: Int!) { replayStep(matchId: $id, n: $n) { match game n last matched "
    "differences step view public private toAct legalActions { type label params } } }"
)


@pytest.fixture(autouse=True)
def _fresh_reruns() -> None:
    replays._reruns.clear()


@pytest.mark.parametrize("game", ["fibber", "skull"])
def test_replay_step_equals_rest(game):
    host = Player()
    match_id = host.create(game=game, seats=3, bots=["random"] * 3, join=False)["id"]
    last = len(host.get(f"/api/matches/{match_id}/replay/").json()["steps"])
    gql = GqlPlayer(anonymous=True)
    for n in sorted({0, 1, last // 2, last}):
        rest = host.get(f"/api/matches/{match_id}/replay/steps/{n}/").json()
        got = gql.data(STEP, id=match_id, n=n)["replayStep"]
        legal = got.pop("legalActions")
        assert got.pop("public") == rest["view"]["public"]
        assert got.pop("toAct") == rest["view"]["to_act"]
        assert legal == rest["legal_actions"]
        assert {k: got[k] for k in ("match", "n", "last", "matched", "differences")} == {
            k: rest[k] for k in ("match", "n", "last", "matched", "differences")
        }
        assert got["game"] == rest["game"]  # enum values are the REST strings
        assert (got["step"], got["view"], got["private"]) == (
            rest["step"],
            rest["view"],
            rest["private"],
        )


def test_replay_step_refuses_what_rest_refuses():
    host = Player()
    finished = host.create(game="fabfib", seats=3, bots=["random"] * 3, join=False)["id"]
    active = host.create(game="fabfib", seats=3, bots=["random"] * 2, time_control="solo")["id"]
    private = host.create(
        game="fabfib", seats=3, bots=["random"] * 3, join=False, visibility="private"
    )["id"]
    last = len(host.get(f"/api/matches/{finished}/replay/").json()["steps"])
    anyone = GqlPlayer(anonymous=True)
    cases = [
        (finished, -1, "invalid", f"{finished}/replay/steps/-1/"),
        (finished, last + 1, "not_found", f"{finished}/replay/steps/{last + 1}/"),
        (active, 0, "not_found", f"{active}/replay/steps/0/"),
        (private, 0, "not_found", f"{private}/replay/steps/0/"),
        ("8c1f8a5e-0000-4000-8000-000000000000", 0, "not_found", None),
    ]
    for match_id, n, code, rest_path in cases:
        error = anyone.error(STEP, id=match_id, n=n)
        assert error["extensions"]["code"] == code, (match_id, n, error)
        if rest_path is not None:
            rest = Player().get(f"/api/matches/{rest_path}").json()["error"]
            assert (error["message"], rest["code"]) == (rest["message"], code)
