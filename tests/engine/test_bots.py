"""Every bot level of every game: legal actions only, no crash, and decisions that depend on
the seat's view alone (never on hidden state)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import registry
from games.engine.bots import bot_levels, make_bot
from games.engine.rng import seed_from_int
from games.engine.simulate import simulate

from .helpers import play_random, tables

BOTS = [(rules, level) for rules in registry.all_rules() for level in bot_levels(rules.game_id)]


def bot_id(case) -> str:
    rules, level = case
    return f"{rules.game_id}-{level}"


@pytest.mark.slow
@pytest.mark.parametrize("case", BOTS, ids=[bot_id(c) for c in BOTS])
def test_bots_play_whole_matches_without_a_crash_or_an_illegal_action(case):
    rules, level = case
    for seats, options in tables(rules):
        # The expert's opponents are the other levels; the other levels do not meet the
        # expert here (it is slow, and has its matches below).
        others = [lv for lv in bot_levels(rules.game_id) if lv not in (level, "expert")]
        levels = [level if s % 2 == 0 else others[s % len(others)] for s in range(seats)]
        # The search bot thinks for milliseconds per decision: fewer matches (its own tests,
        # tests/engine/test_expert.py, play more on a small budget).
        matches = 3 if level == "expert" else 40
        summary = simulate(
            rules,
            matches=matches,
            seats=seats,
            seed=f"bots-{level}",
            options=options,
            levels=levels,
        )
        assert summary["errors"] == 0, summary["error_samples"]


@pytest.mark.parametrize("case", BOTS, ids=[bot_id(c) for c in BOTS])
def test_a_bot_decides_from_the_view_alone(case):
    """Same view, same bot seed → same action, whatever the hidden state; and the view it
    was given is left as it was."""
    rules, level = case
    rng = random.Random(level)
    for seats, options in tables(rules):
        for game in range(6):
            state = play_random(rules, seats, options, seed_from_int(game), rng.randrange(60), rng)
            if rules.is_over(state):
                continue
            seat = rng.choice(rules.to_act(state))
            twin = rules.hidden_variant(state, seat, random.Random(game))
            view, twin_view = rules.view(state, seat), rules.view(twin, seat)
            assert json.dumps(view, sort_keys=True) == json.dumps(twin_view, sort_keys=True)
            untouched = copy.deepcopy(view)
            first = make_bot(rules.game_id, level, random.Random(99)).choose(view)
            second = make_bot(rules.game_id, level, random.Random(99)).choose(twin_view)
            assert first == second
            assert view == untouched, "a bot must not change the view it is given"
            rules.apply(state, seat, first)  # legal
