"""Heads-up Fibber's Dice solved (games/engine/fibbers_dice/headsup.py and
games/solvers/fibbers_dice.py).

The values are checked three ways: the two linear programs of every stage agree (the solver
refuses otherwise); a best response computed without linear programs gains nothing against the
shipped equilibrium; and the figures agree with an independent sequence-form computation done
outside the project (the starter wins 64.8 % at 1 point, the match's first starter 55.9 % at
3 points; the best response to ``basic`` wins 66.0 % and 78.9 %). The model of the rules the
solver uses is held to the engine by playing it: simulated win rates match the exact ones.
"""

from __future__ import annotations

import random

import pytest

from games.engine import registry
from games.engine.bots import make_bot
from games.engine.fibbers_dice import headsup as H
from games.engine.fibbers_dice import scores as S
from games.engine.fibbers_dice.bots import BasicPolicy
from games.engine.fibbers_dice.expert import DiceExpert
from games.engine.simulate import match_seed, play_match

solver = pytest.importorskip("games.solvers.fibbers_dice")  # SciPy: a dev dependency

RULES = registry.get("fibbers_dice")
SHIPPED = H.shipped()
EQ = H.EquilibriumPolicy(SHIPPED)


def test_the_generator_reproduces_the_shipped_equilibrium_for_a_small_case():
    small = solver.solve(2)
    for point, value in small.values.items():
        assert SHIPPED.values[point] == pytest.approx(value, abs=1e-9)
        for stage, rolls in small.announce[point].items():
            shipped = SHIPPED.announce[point][stage]
            for roll, mix in enumerate(rolls):
                assert mix.keys() == shipped[roll].keys(), (point, stage, roll)
                for m, p in mix.items():
                    assert shipped[roll][m] == pytest.approx(p, abs=1e-6)
        for stage, calls in small.calls[point].items():
            assert calls == pytest.approx(SHIPPED.calls[point][stage], abs=1e-6)


def test_the_shipped_file_holds_every_point_state_a_heads_up_match_may_have():
    assert SHIPPED.points_max == 10
    assert set(SHIPPED.values) == {(s, o) for s in range(1, 11) for o in range(1, 11)}
    for point in SHIPPED.values:
        for (_role, standing), rolls in SHIPPED.announce[point].items():
            assert len(rolls) == H.N
            for mix in rolls:
                assert sum(mix.values()) == pytest.approx(1.0, abs=1e-6)
                assert all(standing < m <= H.TOP for m in mix)


def test_the_values_agree_with_an_independent_computation():
    assert SHIPPED.values[(1, 1)] == pytest.approx(0.648, abs=5e-4)
    assert SHIPPED.values[(3, 3)] == pytest.approx(0.559, abs=5e-4)
    assert H.value(None, BasicPolicy(), 1) == pytest.approx(0.660, abs=5e-4)
    assert H.value(None, BasicPolicy(), 3) == pytest.approx(0.789, abs=5e-4)


@pytest.mark.parametrize("points", [1, 2, 3, 5])
def test_no_strategy_wins_more_than_half_against_the_equilibrium(points):
    assert H.value(EQ, EQ, points) == pytest.approx(0.5, abs=1e-9)
    assert H.value(None, EQ, points) <= 0.5 + 1e-6
    assert H.value(EQ, None, points) >= 0.5 - 1e-6


def test_the_best_response_policy_earns_the_best_response_value():
    basic = BasicPolicy()
    assert H.value(H.BestResponse(basic), basic, 3) == pytest.approx(H.value(None, basic, 3))
    # and it is not vacuous: the equilibrium itself earns less against basic
    assert H.value(EQ, basic, 3) < H.value(None, basic, 3) - 0.2


def test_perfect_play_never_announces_below_its_roll():
    for point, stages in SHIPPED.announce.items():
        for (role, standing), rolls in stages.items():
            for roll, mix in enumerate(rolls):
                if roll > standing:
                    assert min(mix) >= roll, (point, role, standing, S.SCORES[roll], mix)


def _win_rate(bots_of, points: int, matches: int, seed: str) -> float:
    wins = 0.0
    for index in range(matches):
        rng = random.Random(f"{seed}:{index}")
        first, second = bots_of(rng)
        result = play_match(
            RULES,
            2,
            {"points": points},
            match_seed(seed, index),
            [],
            bots=[first, second],
        )
        assert result.errors == []
        assert result.placements is not None
        wins += result.placements[0] == 1
    return wins / matches


@pytest.mark.parametrize(
    ("mine", "points"),
    [("equilibrium", 3), ("best response", 3), ("best response", 1)],
)
def test_the_engine_plays_the_game_the_solver_solved(mine, points):
    """The exact value of a policy pair against the win rate of the real engine, 1,500 matches
    (standard error about 1.2 points: 4 points is over three of them)."""
    basic = BasicPolicy()
    policy = EQ if mine == "equilibrium" else H.BestResponse(basic)
    exact = H.value(policy, basic, points)

    def bots_of(rng: random.Random):
        return H.PolicyBot(policy, rng), H.PolicyBot(basic, rng)

    assert _win_rate(bots_of, points, 1500, f"solver-{mine}-{points}") == pytest.approx(
        exact, abs=0.04
    )


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_strong_and_expert_play_the_equilibrium_in_a_heads_up_match(level):
    state = RULES.new_game(2, {"points": 3}, match_seed("headsup-expert", 0)).state
    checked = 0
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        view = RULES.view(state, seat)
        action = make_bot("fibbers_dice", level, random.Random(checked)).choose(view)
        expected = _support(view)
        assert action["type"] in expected or action.get("score") in expected
        checked += 1
        state = RULES.apply(state, seat, action).state
    assert checked > 5


def test_at_the_end_of_a_larger_match_the_expert_searches(monkeypatch):
    """Two players left of three: the search decides (it won more there against the bots),
    though the equilibrium could answer the view."""
    from games.engine.fibbers_dice import expert as expert_module

    asked = []
    monkeypatch.setattr(expert_module.headsup, "decision", lambda *a, **k: asked.append(a))
    state = RULES.new_game(3, {"points": 1}, match_seed("headsup-expert", 1)).state
    two_left = 0
    while not RULES.is_over(state):
        seat = RULES.to_act(state)[0]
        view = RULES.view(state, seat)
        two_left += sum(not out for out in view["public"]["out"]) == 2
        action = DiceExpert(RULES, _adapter(), random.Random(two_left)).choose(view)
        state = RULES.apply(state, seat, action).state
    assert two_left > 0
    assert asked == []


def _adapter():
    from games.engine.fibbers_dice.expert import ADAPTER

    return ADAPTER


def _support(view) -> set[str]:
    """The actions the equilibrium plays with a positive chance in ``view``."""
    seen = set()
    for k in range(200):
        action = H.decision(view, random.Random(k))
        assert action is not None
        seen.add(str(action.get("score", action["type"])))
    return seen


def test_no_decision_outside_heads_up():
    state = RULES.new_game(3, {"points": 2}, match_seed("headsup-none", 0)).state
    view = RULES.view(state, RULES.to_act(state)[0])
    assert H.decision(view, random.Random(1)) is None
    single = RULES.new_game(
        2, {"points": 2, "tournament": "single"}, match_seed("headsup-late", 0)
    ).state
    view = RULES.view(single, RULES.to_act(single)[0])
    assert view["public"]["late_entry_open"] is True
    assert H.decision(view, random.Random(1)) is None


@pytest.mark.parametrize(("level", "policy"), [("basic", BasicPolicy()), ("random", None)])
def test_the_simple_policies_are_the_bots(level, policy):
    """``BasicPolicy`` is the basic bot at every decision of a heads-up match (asked through a
    real view); ``RandomPolicy`` gives every legal answer a chance, as the random bot does."""
    point = (2, 3)
    asked = 0
    for role in (H.STARTER, H.OTHER):
        for standing in range(H.NONE, H.TOP):
            history = [] if standing == H.NONE else H.history_for(1 - role, [standing])
            for roll in range(H.N):
                view = None if history is None else H.view_for(point, role, history, roll, 3)
                if view is None:
                    continue
                asked += 1
                seen = {
                    S.rank(make_bot("fibbers_dice", level, random.Random(k)).choose(view)["score"])
                    for k in range(1 if policy else 60)
                }
                if policy is not None:
                    assert seen == set(policy.announce(point, role, standing, roll))
                else:
                    assert seen <= set(H.RandomPolicy().announce(point, role, standing, roll))
            if history is None:
                continue
            view = H.view_for(point, 1 - role, history, None, 3)
            if view is not None:
                previous = history[-2] if len(history) > 1 else H.NONE
                calls = [
                    make_bot("fibbers_dice", level, random.Random(k)).choose(view)["type"] == "call"
                    for k in range(1 if policy else 60)
                ]
                if policy is not None:
                    assert calls[0] == (policy.call(point, 1 - role, previous, standing) == 1.0)
                else:
                    assert 0 < sum(calls) < len(calls)
    assert asked > 600
