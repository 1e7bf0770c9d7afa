"""Fibber's Dice bots (basic and strong): probabilities, tables and behaviour on views.

The generic bot contract (legal actions, no crash, decisions from the view alone, the view left
untouched) is in ``test_bots.py``; this file checks what the two levels decide and why.
"""

from __future__ import annotations

import copy
import random

import pytest

from games.engine import registry
from games.engine.bots import bot_levels, make_bot
from games.engine.fibbers_dice import bots as B
from games.engine.fibbers_dice import scores as S
from games.engine.rng import seed_from_int

RULES = registry.get("fibbers_dice")


def dice_for(score: str) -> list[int]:
    """Dice that read ``score``."""
    for high in range(1, 7):
        for low in range(1, high + 1):
            if S.read([high, low]) == score:
                return [high, low]
    raise AssertionError(score)


def make_view(
    history: list[tuple[int, str]], roll: str | None, *, seat: int = 0, seats: int = 4
) -> dict:
    """The view of ``seat``: ``history`` is this sequence's announcements (seat, score). With a
    ``roll`` the seat has just rolled and must announce; without, it must respond."""
    state = RULES.new_game(seats, {}, seed_from_int(1)).state
    starter = history[0][0] if history else seat
    state.starter = starter
    state.current = seat
    state.rolls = [None] * seats
    state.announcements = [{"seat": s, "score": score} for s, score in history]
    state.announcement = history[-1][1] if history else None
    state.announcer = history[-1][0] if history else None
    for s, score in history:
        state.rolls[s] = dice_for(score)
    if roll is not None:
        state.phase = "announce"
        state.rolls[seat] = dice_for(roll)
    else:
        state.phase = "respond"
    assert RULES.invariants(state) == []
    return RULES.view(state, seat)


def decide(level: str, view: dict, seed: int = 0) -> dict:
    return make_bot("fibbers_dice", level, random.Random(seed)).choose(view)


# --- Probabilities ------------------------------------------------------------------------


def test_the_roll_distribution_counts_the_36_outcomes():
    assert sum(B.P_EQ) == pytest.approx(1.0)
    assert B.P_EQ[S.rank("31")] == pytest.approx(2 / 36)  # 3+1 or 1+3
    assert B.P_EQ[S.rank("double 4s")] == pytest.approx(1 / 36)
    assert B.P_EQ[S.rank("max")] == pytest.approx(2 / 36)
    assert B.P_GE[0] == pytest.approx(1.0)
    assert B.P_GE[S.rank("double 6s")] == pytest.approx(3 / 36)
    assert B.P_GE[S.rank("61")] == pytest.approx(0.5)
    assert all(a >= b for a, b in zip(B.P_GE, B.P_GE[1:], strict=False))


@pytest.mark.parametrize(
    "models, cost",
    [
        ((B.Model(11, 0.03, 1.0),) * 3, (1.0, 0.2, 0.3, 0.1)),
        ((B.Model(9, 0.35, 0.5),), (1.2, 0.4)),
        ((B.Model(11, 0.03, 1.0), B.Model(5, 1.0, 0.0)), (1.0, 0.0, 0.0)),
    ],
)
def test_believing_costs_the_best_announcement_for_every_roll(models, cost):
    """The fast induction equals the plain definition: roll, then announce the cheapest score
    above the standing one."""
    tables = B.build_tables(models, cost)
    for standing in range(-1, B.TOP):
        plain = sum(
            B.P_EQ[roll]
            * min(B.loss_when_announcing(roll, b, tables) for b in range(standing + 1, B.N))
            for roll in range(B.N)
        )
        got = tables.start[0] if standing < 0 else tables.believe[standing]
        assert got == pytest.approx(plain, abs=1e-12)


def test_believing_gets_worse_as_the_standing_score_rises():
    tables = B.tables_for((B.DEFAULT_MODEL,) * 3)
    assert tables.believe[S.rank("42")] < 0.2
    assert tables.believe[S.rank("double 6s")] > 0.9
    assert tables.believe[S.rank("double 6s")] > tables.believe[S.rank("64")]


def test_a_forced_step_is_less_likely_true_than_a_jump():
    honest = B.Model(B.PRIOR_CUTOFF, 0.03, 1.0)
    forced = B.chance_true(honest, S.rank("63"), S.rank("62"))
    jump = B.chance_true(honest, S.rank("63"), S.rank("43"))
    assert jump == pytest.approx(1.0)  # an honest announcer jumps only with the truth
    assert forced == pytest.approx((2 / 36) / (24 / 36))  # a 63, or anything up to 62


# --- Basic --------------------------------------------------------------------------------


def test_basic_starts_with_the_truth():
    assert decide("basic", make_view([], "53")) == {"type": "announce", "score": "53"}


def test_basic_announces_the_truth_when_it_beats_the_previous():
    view = make_view([(3, "42")], "double 2s")
    assert decide("basic", view) == {"type": "announce", "score": "double 2s"}


def test_basic_otherwise_announces_the_smallest_higher_score():
    view = make_view([(3, "62")], "41")
    assert decide("basic", view) == {"type": "announce", "score": "63"}


def test_basic_believes_likely_announcements_and_calls_unlikely_ones():
    assert decide("basic", make_view([(3, "42")], None)) == {"type": "believe"}
    assert decide("basic", make_view([(3, "62")], None)) == {"type": "believe"}
    assert decide("basic", make_view([(3, "63")], None)) == {"type": "call"}
    assert decide("basic", make_view([(2, "43"), (3, "double 5s")], None)) == {"type": "call"}


# --- Strong -------------------------------------------------------------------------------


def test_strong_believes_a_low_announcement():
    for history in ([(3, "42")], [(2, "31"), (3, "43")], [(3, "51")]):
        assert decide("strong", make_view(history, None)) == {"type": "believe"}


def test_strong_calls_a_very_high_announcement_forced_at_the_end_of_a_sequence():
    history = [(1, "62"), (2, "double 4s"), (3, "double 5s")]
    for seed in range(5):
        assert decide("strong", make_view(history, None), seed) == {"type": "call"}


def test_strong_calls_a_step_forced_above_the_calling_line_but_believes_a_jump_to_it():
    """An announcer forced one step upward is more likely fibbing than one who jumped."""
    assert decide("strong", make_view([(2, "62"), (3, "63")], None)) == {"type": "call"}
    assert decide("strong", make_view([(2, "41"), (3, "63")], None)) == {"type": "believe"}


def test_strong_announces_max_when_it_rolled_max():
    for history in ([], [(3, "42")], [(3, "double 5s")]):
        view = make_view(history, "max")
        assert decide("strong", view) == {"type": "announce", "score": "max"}


def test_strong_tells_the_truth_when_it_beats_the_previous_and_would_be_called():
    """A high roll above the standing score: a true announcement that the next seat will
    probably call, so that it loses the point (possibly under-announced, never a fib)."""
    for seed in range(20):
        action = decide("strong", make_view([(3, "62")], "double 5s"), seed)
        assert action["type"] == "announce"
        assert S.rank("62") < S.rank(action["score"]) <= S.rank("double 5s")


def test_strong_never_announces_at_or_below_the_standing_score():
    rng = random.Random(7)
    for seed in range(200):
        standing = rng.choice(S.SCORES[:-1])
        roll = rng.choice(S.SCORES)
        action = decide("strong", make_view([(3, standing)], roll), seed)
        assert S.rank(action["score"]) > S.rank(standing)


def test_strong_bluffs_and_varies_with_its_own_rng():
    """Starting with 54, the truth and a bluff (62, the highest score the next seat is
    expected to believe) are equally safe: which one it makes depends on its own rng (not on
    anything hidden), so both appear."""
    view = make_view([], "54")
    choices = {decide("strong", view, seed)["score"] for seed in range(60)}
    assert "54" in choices
    assert any(S.rank(score) > S.rank("54") for score in choices)


def test_strong_leaves_the_view_untouched_and_learns_only_from_it():
    view = make_view([(1, "42"), (2, "53"), (3, "61")], None)
    untouched = copy.deepcopy(view)
    bot = make_bot("fibbers_dice", "strong", random.Random(1))
    bot.choose(view)
    assert view == untouched
    # seats 2 and 3 believed 42 and 53: evidence about them as callers
    assert set(bot.records) == {1, 2, 3}


def test_a_seat_that_calls_at_random_is_recognised_as_a_coin():
    record = B.SeatRecord()
    rng = random.Random(3)
    for _ in range(30):
        record.saw_response(rng.randrange(B.TOP), rng.random() < 0.5)
    assert record.model().noise >= 0.5


def test_a_threshold_caller_is_learnt():
    record = B.SeatRecord()
    for rank in list(range(0, 8)) * 2:
        record.saw_response(rank, False)
    for rank in (8, 9, 12, 15):
        record.saw_response(rank, True)
    model = record.model()
    assert model.cutoff == 8
    assert model.noise <= 0.1


def test_an_announcer_caught_above_its_claim_is_not_honest():
    record = B.SeatRecord()
    for _ in range(3):
        record.saw_honesty(B.honest_log_ratio(S.rank("double 3s"), S.rank("41")))
    assert record.model().honest <= 0.5


def test_strong_and_basic_are_registered_with_the_game():
    assert {"basic", "strong", "random"} <= set(bot_levels("fibbers_dice"))


@pytest.mark.slow
def test_strong_beats_basic_in_heads_up_play():
    """A small sanity match count: the strong bot's models (which it plays at tables of three
    or more) must win clearly more than half of heads-up matches against the basic bot (the
    full 4-seat evaluation is bench/bots.py). In a heads-up match the strong bot plays the
    solved game instead, which concedes nothing and exploits little (tests/engine/
    test_headsup.py holds it to its exact value against basic)."""
    wins = 0
    for match in range(60):
        levels = ["strong", "basic"] if match % 2 == 0 else ["basic", "strong"]
        bots = [
            make_bot("fibbers_dice", lv, random.Random(f"{match}:{i}"))
            for i, lv in enumerate(levels)
        ]
        bots[levels.index("strong")].solved = False  # type: ignore[attr-defined]
        state = RULES.new_game(2, {}, seed_from_int(1000 + match)).state
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            state = RULES.apply(state, seat, bots[seat].choose(RULES.view(state, seat))).state
        wins += RULES.placements(state)[levels.index("strong")] == 1
    assert wins > 36
