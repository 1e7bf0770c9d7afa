"""Whole matches of every game and variant played through GraphQL by a generic client that
reads nothing but ``legalActions`` (it knows no rule), then the replay and statistics."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.replay import verify
from games.engine.rng import seed_commitment

from .helpers import GqlPlayer, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)  # bots play after each commit

REPLAY = (
    "query R($id: ID!) { replay(matchId: $id) { format game seats seed seedCommitment record } }"
)
STATS = (
    "query S($id: ID!) { matchStats(matchId: $id) { matchId game placements "
    "seats { seat { position user { id } } stats botStats } } }"
)
START = "mutation S($id: ID!) { startMatch(matchId: $id) { status seatCount you { seats } } }"

# (game, seats, options, people, bots): every game and every variant of its rules.
VARIANTS: list[tuple[str, int, dict[str, Any], int, int]] = [
    ("fabfib", 3, {"life": 4}, 3, 0),
    ("fibber", 3, {"variant": "standard"}, 3, 0),
    ("fibber", 3, {"variant": "easy"}, 3, 0),
    ("fibbers_dice", 3, {}, 3, 0),
    ("skull", 3, {}, 3, 0),
    ("skull", 7, {"two_sets": True}, 3, 4),  # 7 to 12 seats: bots fill the table
    ("skull", 6, {"two_tribes": True}, 2, 0),  # each person plays two opposite seats
]


def finish_and_check(match_id: str, players: list[GqlPlayer], seats: int, seed: str) -> None:
    final = play_to_the_end(match_id, players, random.Random(seed))
    assert final["status"] == "finished" and sorted(final["placements"])[0] == 1
    replay = players[0].data(REPLAY, id=match_id)["replay"]
    assert verify(replay["record"]) == []
    # Why it ended, typed: the game's own reason, as in the view and the replay's result.
    reason = replay["record"]["result"]["end_reason"]
    assert final["endReason"] == final["view"]["end_reason"] == reason
    assert seed_commitment(replay["seed"]) == final["seedCommitment"] == replay["seedCommitment"]
    stats = players[-1].data(STATS, id=match_id)["matchStats"]
    assert len(stats["seats"]) == seats and stats["placements"] == final["placements"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "seats", "options", "people", "bots"),
    VARIANTS,
    ids=[
        f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, _, o, *_ in VARIANTS
    ],
)
def test_a_full_match_of_every_game_and_variant_through_graphql(game, seats, options, people, bots):
    players = [GqlPlayer(f"P{i}") for i in range(people)]
    match = players[0].create(game=game, seats=seats, options=options, bots=["random"] * bots)
    assert match["status"] == "lobby" and match["legalActions"] == []
    for p in players[1:]:
        joined = p.join(match["id"])
    if joined["status"] == "lobby":  # two_tribes: 2 people on 4 seats of 6; start with them
        started = players[0].data(START, id=match["id"])["startMatch"]
        assert started["status"] == "active" and started["seatCount"] == 2 * people
    count = 2 * people if options.get("two_tribes") else seats
    finish_and_check(match["id"], players, count, f"{game}{options}")


@pytest.mark.parametrize("game", ["fabfib", "fibber", "fibbers_dice", "skull"])
def test_a_solo_match_against_bots_plays_to_the_end(game):
    human = GqlPlayer()
    match = human.create(game=game, seats=3, bots=["random", "random"], timeControl="solo")
    assert match["status"] == "active" and match["you"] == {"seat": 0, "seats": [0]}
    finish_and_check(match["id"], [human], 3, game)
