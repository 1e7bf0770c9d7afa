"""The ``expert`` level (games/engine/search.py): legal, reproducible, bounded, view-only.

The contract tests of every level (tests/engine/test_bots.py) include ``expert``; these add
what is particular to a search bot, on a small budget so that they stay quick.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engine import registry
from games.engine.bots import bot_levels, make_bot
from games.engine.rng import seed_from_int
from games.engine.search import Budget, SearchBot, enumerate_actions
from games.engine.simulate import play_match

from .helpers import play_random, tables

GAMES = registry.game_ids()
SMALL = Budget(samples=3, candidates=3, depth=12, steps=60)


def small_expert(game: str, rng: random.Random) -> SearchBot:
    bot = make_bot(game, "expert", rng)
    assert isinstance(bot, SearchBot)
    bot.budget = dataclasses.replace(bot.budget, **dataclasses.asdict(SMALL))
    return bot


def play(
    rules, seats, options, seed: str, experts: set[int], bot_seed: int
) -> list[tuple[int, dict]]:
    """A whole match, experts (small budget) in ``experts``, strong bots elsewhere; every
    action goes through ``rules.apply``, which refuses an illegal one."""
    bots = [
        small_expert(rules.game_id, random.Random(f"{bot_seed}:{s}"))
        if s in experts
        else make_bot(rules.game_id, "strong", random.Random(f"{bot_seed}:{s}"))
        for s in range(seats)
    ]
    scheduler = random.Random(seed)
    state = rules.new_game(seats, options, seed).state
    actions: list[tuple[int, dict]] = []
    for _ in range(20_000):
        if rules.is_over(state):
            return actions
        to_act = rules.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else scheduler.choice(to_act)
        action = bots[seat].choose(rules.view(state, seat))
        state = rules.apply(state, seat, action).state
        assert rules.invariants(state) == []
        actions.append((seat, action))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("game", GAMES)
def test_an_expert_plays_a_whole_match_legally_and_reproducibly(game):
    """Same seeds, same match: the search draws only from the bot's own random stream and
    stops on counts, never on the clock."""
    rules = registry.get(game)
    seats, options = 4, {}
    seed = seed_from_int(11)
    first = play(rules, seats, options, seed, {0, 2}, 5)
    assert first == play(rules, seats, options, seed, {0, 2}, 5)


@pytest.mark.parametrize("game", GAMES)
def test_an_expert_plays_every_table_and_variant(game):
    rules = registry.get(game)
    for seats, options in tables(rules):
        play(rules, seats, options, seed_from_int(seats), {0}, seats)


@pytest.mark.parametrize("game", GAMES)
def test_the_search_really_runs_and_sometimes_overrules_the_prior(game):
    """Over a few matches the expert searches decisions, and at some it plays a candidate
    other than the strong bot's choice (otherwise it would be the strong bot)."""
    rules = registry.get(game)
    searched = deviations = 0
    for index in range(4):
        expert = small_expert(game, random.Random(index))
        expert.budget = dataclasses.replace(expert.budget, margin=0.0)
        others = [make_bot(game, "strong", random.Random(100 + s)) for s in range(3)]
        bots = [expert, *others]
        state = rules.new_game(4, {}, seed_from_int(100 + index)).state
        while not rules.is_over(state):
            seat = rules.to_act(state)[0]
            state = rules.apply(state, seat, bots[seat].choose(rules.view(state, seat))).state
        searched += expert.searched
        deviations += expert.deviations
        assert expert.safety_stops == 0
        # The step budget holds, give or take the one sample that crossed it.
        per_sample = expert.budget.candidates * expert.budget.depth
        assert expert.steps_used <= expert.searched * (expert.budget.steps + per_sample)
    assert searched > 0
    assert deviations > 0


def test_enumerate_actions_lists_small_decisions_and_refuses_large_ones():
    specs = [
        {"type": "call", "label": "", "params": {}},
        {"type": "bid", "label": "", "params": {"count": {"range": [2, 4]}}},
    ]
    assert enumerate_actions(specs, 6) == [
        {"type": "call"},
        {"type": "bid", "count": 2},
        {"type": "bid", "count": 3},
        {"type": "bid", "count": 4},
    ]
    assert enumerate_actions(specs, 3) is None
    cards = [
        {
            "type": "play",
            "label": "",
            "params": {"cards": {"subset_of": [0, 1], "min": 1, "max": 2}},
        }
    ]
    assert enumerate_actions(cards, 6) == [
        {"type": "play", "cards": [0]},
        {"type": "play", "cards": [1]},
        {"type": "play", "cards": [0, 1]},
    ]


@pytest.mark.parametrize("game", GAMES)
def test_an_expert_in_simulate_finishes_matches_without_errors(game):
    rules = registry.get(game)
    result = play_match(
        rules, 4, {}, seed_from_int(3), ["expert", "strong", "basic", "random"], bot_seed=1
    )
    assert result.finished and result.errors == []


def test_the_expert_sees_only_the_view():
    """A sample is drawn from the view: two states the seat cannot tell apart lead to the
    same decision (the contract test does this for one decision per position; here along a
    playthrough of each game)."""
    for game in GAMES:
        rules = registry.get(game)
        rng = random.Random(game)
        for position in range(4):
            state = play_random(rules, 4, {}, seed_from_int(position), rng.randrange(40), rng)
            if rules.is_over(state):
                continue
            seat = rules.to_act(state)[0]
            twin = rules.hidden_variant(state, seat, random.Random(position))
            a = small_expert(game, random.Random(position)).choose(rules.view(state, seat))
            b = small_expert(game, random.Random(position)).choose(rules.view(twin, seat))
            assert a == b


@pytest.mark.parametrize("game", GAMES)
def test_the_expert_level_is_registered_on_import_of_the_game(game):
    assert "expert" in bot_levels(game)
    assert isinstance(make_bot(game, "expert", random.Random(1)), SearchBot)
