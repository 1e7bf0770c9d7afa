"""Fibber bots (basic and strong) on hand-made positions, plus whole matches.

The generic contract (legal actions, no crash, decisions from the view alone, the view left as
it was) is in test_bots.py for every level; here: does each bot do the sensible thing, in the
standard rules and in the easy variant?
"""

from __future__ import annotations

import copy
import random

import pytest

from games.engine.bots import bot_levels, make_bot
from games.engine.fibber import bots as B
from games.engine.fibber import cards as C
from games.engine.fibber.state import CALL, FibberState
from games.engine.simulate import match_seed, play_match

from .test_fibber import EASY, R, act, at, new, rig

LEVELS = ("basic", "strong")


def choose(level: str, state: FibberState, seat: int, seed: int = 0) -> dict:
    view = R.view(state, seat)
    untouched = copy.deepcopy(view)
    action = make_bot("fibber", level, random.Random(seed)).choose(view)
    assert view == untouched
    R.apply(state, seat, action)  # legal
    return action


def played(state: FibberState, seat: int, action: dict) -> list[str]:
    hand = C.names(state.hands[seat])
    return sorted((hand[p] for p in action["cards"]), key=C.NAMES.index)


def window(state: FibberState, player: int, *names: str) -> FibberState:
    """``player`` (whose turn it is) plays these cards; the call window opens."""
    state, _ = act(state, player, "play", cards=at(state, player, *names))
    assert state.phase == CALL
    return state


# --- Registration ------------------------------------------------------------------------


def test_levels_are_registered_on_import_of_the_game():
    assert bot_levels("fibber") == ["basic", "expert", "random", "strong"]
    assert isinstance(make_bot("fibber", "strong", random.Random(1)), B.StrongBot)
    assert isinstance(make_bot("fibber", "basic", random.Random(1)), B.BasicBot)


# --- Standard rules: calls ---------------------------------------------------------------


@pytest.mark.parametrize("level", (*LEVELS, "expert"))
def test_a_play_that_needs_more_true_cards_than_are_unseen_is_called(level):
    """Seat 0 holds four Ghosts and two Wilds: only two true Ghosts are left for anyone else,
    so seat 1's "3 Ghosts" is a fib for sure."""
    state = rig(
        new(),
        {0: ["ghost"] * 4 + ["wild"] * 2, 1: ["wild", "alien", "dragon", "witch", "bigfoot"]},
        turn=1,
        rank="ghost",
        rest=2,
    )
    state = window(state, 1, "wild", "alien", "dragon")
    assert choose(level, state, 0) == {"type": "call"}


@pytest.mark.parametrize("level", ("strong", "expert"))
def test_a_certain_fib_by_the_public_record_is_called(level):
    """A true play of three Ghosts was called and shown: seat 2 took those Ghosts with the
    pile and has played nothing since. Seat 0 holds the fourth Ghost and two Wilds, so only
    two true cards can be in seat 1's hand: its "3 Ghosts" is a fib for sure."""
    state = rig(
        new(),
        {
            0: ["ghost", "wild", "wild", "alien", "dragon", "dragon"],
            1: ["ghost", "ghost", "ghost", "wild", "alien", "witch"],
            2: ["bigfoot", "witch", "witch"],
        },
        turn=1,
        rank="ghost",
        rest=3,
    )
    state = window(state, 1, "ghost", "ghost", "ghost")
    state, _ = act(state, 2, "call")  # a wrong call: seat 2 takes the three Ghosts
    assert state.last_call["loser"] == 2 and not state.last_call["fib"]
    state.turn, state.rank, state.phase = 1, C.RANKS.index("ghost"), "play"
    state = window(state, 1, "wild", "alien", "witch")
    assert choose(level, state, 0) == {"type": "call"}


def test_a_hand_emptying_play_is_worth_a_call_by_the_noses_it_would_return():
    """Standing, a play that empties the hand hands the player their noses back; the strong
    bot weighs that: the same play by a player wearing four noses is worth more of a call
    than by one wearing none, and it calls the dump of a whole hand of three from a
    player wearing four noses."""
    state = rig(
        new(),
        {
            0: ["bigfoot", "alien", "alien", "witch", "dragon", "dragon"],
            1: ["ghost", "alien", "witch"],
        },
        turn=1,
        rank="ghost",
        rest=2,
    )
    state.noses[1], state.table_noses = 4, 6
    state = window(state, 1, "ghost", "alien", "witch")
    for seat in (2, 3):
        state, _ = act(state, seat, "pass")
    mind = B.StandardMind(R.view(state, 0), random.Random(0))
    worth = mind.call_worth(0.3, 1, 0)
    mind.noses = [0] * 4
    assert worth > mind.call_worth(0.3, 1, 0) + 3
    assert choose("strong", state, 0) == {"type": "call"}


def test_the_calls_record_of_a_player_weighs_the_fib_chance():
    """Public: how often a seat's plays were found to be fibs when called. A player caught
    every time is more suspect than one whose calls were all wrong."""
    state = rig(new(), {0: ["bigfoot", "alien", "alien", "witch", "dragon", "dragon"]}, rest=1)
    view = R.view(state, 0)
    assert view["public"]["called"] == [[0, 0]] * 4
    liar = {**view, "public": {**view["public"], "called": [[0, 0], [4, 4], [0, 0], [0, 0]]}}
    honest = {**view, "public": {**view["public"], "called": [[0, 0], [4, 0], [0, 0], [0, 0]]}}
    p = 0.4
    assert (
        B.StandardMind(honest, random.Random(0)).by_record(1, p)
        < p
        < B.StandardMind(liar, random.Random(0)).by_record(1, p)
    )


def test_a_call_is_counted_in_the_players_public_record():
    state = rig(
        new(),
        {0: ["ghost"] * 4 + ["wild"] * 2, 1: ["wild", "alien", "dragon", "witch", "bigfoot"]},
        turn=1,
        rank="ghost",
        rest=2,
    )
    state = window(state, 1, "alien")
    state, _ = act(state, 0, "call")
    assert R.view(state, 3)["public"]["called"][1] == [1, 1]


@pytest.mark.parametrize("level", LEVELS)
def test_a_plausible_single_card_from_a_full_hand_is_let_stand(level):
    state = rig(
        new(),
        {
            0: ["bigfoot", "alien", "alien", "witch", "dragon", "dragon"],
            1: ["ghost", "ghost", "wild", "alien", "witch", "bigfoot"],
        },
        turn=1,
        rank="ghost",
        rest=2,
    )
    state = window(state, 1, "ghost")
    for seed in range(5):
        assert choose(level, state, 0, seed) == {"type": "pass"}


def test_strong_fib_probability_rises_with_the_count_and_the_true_cards_it_holds():
    p = B.fib_probability
    # A player with 6 cards before the play; 18 cards unseen, 8 of them true. The more cards,
    # the likelier a fib (a fibber may play any count; few hands hold many true cards).
    assert p(1, 6, 18, 8) < p(2, 6, 18, 8) < p(3, 6, 18, 8) < p(4, 6, 18, 8) < p(6, 6, 18, 8)
    assert p(6, 6, 18, 8) > 0.9  # a dump of the whole hand
    # The fewer true cards left unseen, the likelier a fib.
    assert p(2, 6, 18, 8) < p(2, 6, 18, 4) < p(2, 6, 18, 2)
    # More than are left: certain.
    assert p(3, 6, 18, 2) == 1.0
    # Known true cards in their hand (a call showed them) make it likely true.
    assert p(2, 4, 14, 4, known_good=2, known=2) < 0.05


def test_strong_uses_the_cards_a_wrong_call_showed():
    """Seat 2 called seat 1's 3 true Ghosts and picked them up: a Ghost play by seat 2 is
    probably true; the others lost those Ghosts."""
    state = rig(
        new(),
        {
            0: ["bigfoot", "alien", "alien", "witch", "dragon", "dragon"],
            1: ["ghost", "ghost", "ghost", "bigfoot", "witch"],
            2: ["ghost", "wild", "alien", "witch"],
        },
        turn=1,
        rank="ghost",
        rest=3,
    )
    state = window(state, 1, "ghost", "ghost", "ghost")
    state, _ = act(state, 2, "call")
    assert state.last_call["fib"] is False and state.last_call["loser"] == 2
    mind = B.StandardMind(R.view(state, 0), random.Random(0))
    assert mind.known[2][C.RANKS.index("ghost")] == 3
    assert mind.fib_chance(2, 2, 1, len(state.hands[2])) < mind.fib_chance(3, 2, 1, 6)


# --- Standard rules: plays ---------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_all_true_cards_empty_the_hand(level):
    state = rig(new(), {0: ["bigfoot", "bigfoot", "wild"]}, turn=0, rank="bigfoot", rest=1)
    action = choose(level, state, 0)
    assert played(state, 0, action) == ["bigfoot", "bigfoot", "wild"]


def test_basic_plays_its_cards_of_the_rank_and_keeps_its_wilds():
    state = rig(new(), {0: ["bigfoot", "bigfoot", "ghost", "alien", "wild"]}, turn=0, rest=1)
    assert played(state, 0, choose("basic", state, 0)) == ["bigfoot", "bigfoot"]
    state = rig(new(), {0: ["ghost", "alien", "witch", "wild"]}, turn=0, rest=1)
    assert played(state, 0, choose("basic", state, 0)) == ["wild"]


def test_basic_fibs_with_a_single_card_when_it_has_no_true_card():
    state = rig(new(), {0: ["ghost", "alien", "alien", "witch"]}, turn=0, rest=1)
    cards = played(state, 0, choose("basic", state, 0))
    assert len(cards) == 1 and cards[0] in ("ghost", "witch")  # a rank it holds least


@pytest.mark.parametrize("seed", range(6))
def test_strong_plays_its_true_cards_and_keeps_its_wilds_early_on(seed):
    state = rig(
        new(),
        {0: ["bigfoot", "bigfoot", "ghost", "alien", "witch", "wild"]},
        turn=0,
        rest=1,
    )
    cards = played(state, 0, choose("strong", state, 0, seed))
    assert cards.count("bigfoot") == 2 and "wild" not in cards


def test_strong_empties_its_hand_on_the_final_play():
    """The final play of the safety end: emptying the hand returns every nose and no redeal
    follows, so the strong bot plays everything (a single-card fib is rarely called)."""
    state = rig(new(), {0: ["ghost", "witch"]}, turn=0, rest=1)
    state.plays = state.options["max_plays"] - 1
    state.noses[0], state.table_noses = 2, 8
    action = choose("strong", state, 0)
    assert len(action["cards"]) == 2


def test_strong_keeps_a_card_on_its_last_turn_when_another_seat_plays_last():
    """Emptying the hand on a turn that is not the final play brings a new hand of six."""
    state = rig(new(), {0: ["bigfoot", "bigfoot"]}, turn=0, rest=1)
    state.plays = state.options["max_plays"] - 3  # seats 1 and 2 play after this
    action = choose("strong", state, 0)
    assert len(action["cards"]) == 1


def test_strong_outlook_prefers_fewer_noses_and_an_empty_hand_on_the_final_play():
    state = rig(new(), {0: ["bigfoot", "ghost", "alien"]}, turn=0, rest=1)
    mind = B.StandardMind(R.view(state, 0), random.Random(0))
    assert mind.outlook(3, 0, 10, False) > mind.outlook(3, 1, 10, False)
    assert mind.outlook(0, 2, 0, True) > mind.outlook(1, 0, 0, True)
    assert mind.outlook(1, 0, 0, False) > mind.outlook(0, 0, 0, False)


# --- Easy rules --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_easy_follow_with_a_true_card(level):
    state = rig(
        new(4, EASY),
        {0: ["ghost", "ghost", "alien"], 1: ["ghost", "alien", "wild", "dragon"]},
        turn=0,
        rank=None,
        rest=2,
    )
    state, _ = act(state, 0, "play", cards=at(state, 0, "ghost"), rank="ghost")
    action = choose(level, state, 1)
    assert action["type"] == "play" and played(state, 1, action) == ["ghost"]


@pytest.mark.parametrize("level", LEVELS)
def test_easy_leads_honestly_with_the_rank_held_most(level):
    state = rig(
        new(4, EASY), {0: ["ghost", "alien", "alien", "witch", "wild"]}, turn=0, rank=None, rest=1
    )
    action = choose(level, state, 0)
    assert played(state, 0, action) == ["alien"] and action["rank"] == "alien"


@pytest.mark.parametrize("level", LEVELS)
def test_easy_calls_a_claim_the_count_proves_false(level):
    """Seat 1 holds all four Witches and three Wilds: after three Witch claims in a row only
    one true Witch remains, so the third is a fib for sure (only the next seat may call)."""
    state = rig(
        new(4, EASY),
        {
            0: ["bigfoot", "ghost"],
            1: ["witch"] * 4 + ["wild"] * 3,
            2: ["alien", "dragon"],
            3: ["bigfoot", "dragon", "wild"],
        },
        turn=2,
        rank=None,
        rest=None,
    )
    state, _ = act(state, 2, "play", cards=at(state, 2, "alien"), rank="witch")
    state, _ = act(state, 3, "play", cards=at(state, 3, "wild"), rank="witch")
    state, _ = act(state, 0, "play", cards=at(state, 0, "ghost"), rank="witch")
    assert state.turn == 1 and state.can_call
    assert choose(level, state, 1) == {"type": "call"}


# --- Whole matches -----------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, EASY], ids=["standard", "easy"])
@pytest.mark.parametrize("seats", [2, 3, 5, 6])
def test_whole_matches_of_strong_and_basic_bots_end_cleanly(options, seats):
    levels = [("strong", "basic")[s % 2] for s in range(seats)]
    for i in range(3):
        result = play_match(R, seats, options, match_seed(f"fibber-bots-{seats}", i), levels)
        assert result.finished and not result.errors, result.errors


@pytest.mark.slow
@pytest.mark.parametrize("level", ["strong", "expert"])
def test_tables_of_strong_or_expert_bots_end_by_the_silver_nose(level):
    """Bots that call: seeded 4-seat standard matches end by the game's own rule, not at the
    safety end (bench/bots.md measures the share over hundreds of matches)."""
    ends = []
    for i in range(6 if level == "strong" else 3):
        result = play_match(R, 4, {}, match_seed(f"fibber-ends-{level}", i), [level] * 4)
        assert result.finished and not result.errors, result.errors
        assert result.record is not None
        ends.append(result.record["result"]["end_reason"])
    assert ends.count("silver_nose") >= len(ends) - 1, ends


def test_basic_calls_a_likely_fib_and_lets_a_likely_true_play_stand():
    """Seat 0 holds three of the eight true cards for Bigfoot: three Bigfoot from a player of
    five cards is more likely a fib than not; one card from a hand of six is more likely
    true."""
    hand = {0: ["bigfoot", "bigfoot", "wild", "ghost", "alien", "witch"]}
    state = window(
        rig(
            new(),
            {**hand, 3: ["ghost", "alien", "witch", "dragon", "ghost"]},
            turn=3,
            rank="bigfoot",
            rest=1,
        ),
        3,
        "ghost",
        "alien",
        "witch",
    )
    assert choose("basic", state, 0) == {"type": "call"}
    state = window(
        rig(
            new(),
            {**hand, 3: ["ghost", "alien", "witch", "dragon", "ghost", "alien"]},
            turn=3,
            rank="bigfoot",
            rest=1,
        ),
        3,
        "ghost",
    )
    assert choose("basic", state, 0) == {"type": "pass"}


def test_tables_of_basic_bots_end_by_the_silver_nose():
    """A basic bot calls more than certain fibs, so a table of them is not degenerate."""
    ends = []
    for i in range(6):
        result = play_match(R, 4, {}, match_seed("fibber-ends-basic", i), ["basic"] * 4)
        assert result.finished and not result.errors, result.errors
        assert result.record is not None
        ends.append(result.record["result"]["end_reason"])
    assert ends.count("silver_nose") >= len(ends) - 1, ends


@pytest.mark.slow
def test_strong_beats_three_basic_bots_more_often_than_its_fair_share():
    """A small sample of the bench (bench/bots.py plays hundreds of matches)."""
    wins = 0.0
    matches = 24
    for i in range(matches):
        hero = i % 4
        levels = ["strong" if s == hero else "basic" for s in range(4)]
        result = play_match(R, 4, {}, match_seed("fibber-strong", i), levels)
        placements = result.placements
        assert placements is not None
        firsts = [s for s, p in enumerate(placements) if p == 1]
        if hero in firsts:
            wins += 1 / len(firsts)
    assert wins / matches > 0.25
