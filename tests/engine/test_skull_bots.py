"""Skull bots (``basic`` and ``strong``) on hand-made positions: what each does with the view it
is given. The generic contract (legal actions, no crash, view only) is in ``test_bots.py``."""

from __future__ import annotations

import copy
import random

import pytest

from games.engine import registry
from games.engine.bots import bot_levels, make_bot
from games.engine.rng import seed_from_int
from games.engine.skull import bots as skull_bots
from games.engine.skull import rules as R

F, S = "flower", "skull"
RULES = registry.get("skull")
SEEDS = range(40)


def position(
    *,
    phase: str,
    hands: list[list[str]],
    stacks: list[list[str]],
    current: int | None = None,
    bids: list[dict] | None = None,
    revealed: list[int] | None = None,
    challenger: int | None = None,
    successes: list[int] | None = None,
    options: dict | None = None,
) -> R.SkullState:
    """A consistent state built by hand (checked against the engine's invariants)."""
    seats = len(hands)
    state = RULES.new_game(seats, options or {}, seed_from_int(7)).state
    state.phase = phase
    state.current = current
    state.hands = [sorted(h) for h in hands]
    state.stacks = [list(s) for s in stacks]
    state.successes = successes or [0] * seats
    state.bids = bids or []
    state.passed = [False] * seats
    state.bid = state.bidder = None
    for b in state.bids:
        if b.get("pass"):
            state.passed[b["seat"]] = True
        else:
            state.bid, state.bidder = b["count"], b["seat"]
    state.challenger = challenger
    state.revealed = revealed or [0] * seats
    state.reveals = []
    if challenger is not None:
        order = [challenger] + [s for s in range(seats) if s != challenger]
        for seat in order:
            stack = state.stacks[seat]
            for i in range(state.revealed[seat]):
                state.reveals.append({"seat": seat, "card": stack[len(stack) - 1 - i]})
    for seat in range(seats):  # nobody has lost a card: every skull is known to be held
        owned = state.hands[seat] + state.stacks[seat]
        state.lost[seat] = []
        assert sorted(owned) == sorted(R.FULL_SET)
    assert RULES.invariants(state) == [], RULES.invariants(state)
    return state


def choices(level: str, state: R.SkullState, seat: int) -> list[dict]:
    """The bot's action for the seat's view under many bot seeds (each one checked legal)."""
    view = RULES.view(state, seat)
    out = []
    for seed in SEEDS:
        action = make_bot("skull", level, random.Random(seed)).choose(copy.deepcopy(view))
        RULES.apply(state, seat, action)  # raises if illegal
        out.append(action)
    return out


FULL = [F, F, F, S]


def test_both_levels_are_registered_when_the_game_is_imported():
    assert {"basic", "strong", "random"} <= set(bot_levels("skull"))


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_every_bot_places_a_card_in_the_preparation_step(level):
    state = RULES.new_game(4, {}, seed_from_int(1)).state
    actions = choices(level, state, 0)
    assert {a["type"] for a in actions} == {"place"}
    # mostly flowers, the skull now and then
    cards = [a["card"] for a in actions]
    assert cards.count(F) > cards.count(S)


def reveal_position() -> R.SkullState:
    """Seat 0 challenges 5 and has revealed its own flower and seat 1's three flowers; seat 1
    holds no card in hand, so its last card is its skull. Seats 2 and 3 may hold flowers."""
    return position(
        phase=R.REVEAL,
        current=0,
        challenger=0,
        hands=[[F, F, S], [], [F, F, S], [F, S]],
        stacks=[[F], [S, F, F, F], [F], [F, F]],
        bids=[
            {"seat": 0, "count": 5},
            {"seat": 1, "pass": True},
            {"seat": 2, "pass": True},
            {"seat": 3, "pass": True},
        ],
        revealed=[1, 3, 0, 0],
    )


def test_the_strong_bot_never_reveals_a_stack_known_to_hold_a_skull_when_it_has_a_choice():
    state = reveal_position()
    view = RULES.view(state, 0)
    assert view["legal_actions"][0]["params"]["seat"]["one_of"] == [1, 2, 3]
    assert {a["seat"] for a in choices("strong", state, 0)} <= {2, 3}


def test_the_strong_bot_reveals_a_bidder_before_a_player_who_passed():
    # seat 0 challenges 2: its own flower, then one of seat 1 (bid 1 on one card, a flower by
    # its bid) or seat 2 (passed)
    state = position(
        phase=R.REVEAL,
        current=0,
        challenger=0,
        hands=[[F, F, S], [F, F, S], [F, F, F], [F, F, S]],
        stacks=[[F], [F], [S], [F]],
        bids=[
            {"seat": 1, "count": 1},
            {"seat": 2, "pass": True},
            {"seat": 3, "pass": True},
            {"seat": 0, "count": 2},
            {"seat": 1, "pass": True},
        ],
        revealed=[1, 0, 0, 0],
    )
    assert {a["seat"] for a in choices("strong", state, 0)} == {1}


def test_the_strong_bot_plans_the_reveals_to_take_the_likeliest_flowers():
    bot = skull_bots.StrongBot(random.Random(0))
    chance, plan = bot._plan({1: [1.0, 0.9, 0.8], 2: [1.0, 0.5], 3: [1.0, 1.0, 1.0, 0.2]}, 3)
    assert plan == {1: 1, 3: 2}
    assert chance == pytest.approx(0.9)
    assert bot._plan({1: [1.0, 0.5]}, 2)[0] == 0.0  # not enough cards


def test_the_strong_bot_counts_a_stack_without_a_skull_as_all_flowers():
    state = position(
        phase=R.BID,
        current=0,
        hands=[[F, F, S], [F, F, S], [F, F, S], [F, F, S]],
        stacks=[[F], [F], [F], [F]],
        bids=[{"seat": 3, "count": 1}],
    )
    state.skull_known[2] = False  # e.g. every card it owns was revealed as a flower before
    state.hands[2], state.lost[2] = [], [F, F, S]
    view = RULES.view(state, 0)
    chances = skull_bots.StrongBot(random.Random(0))._flower_chances(view)
    assert chances[2] == [1.0, 1.0]
    assert chances[3][1] > chances[1][1]  # seat 3 bid on its card, seat 1 did not


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_no_bot_raises_into_a_challenge_with_its_own_skull_on_top(level):
    # a raise to 4 (every card on the mats) would end the bidding at once with seat 0 as the
    # challenger, its own skull revealed first
    state = position(
        phase=R.BID,
        current=0,
        hands=[[F, F, F], [F, F, S], [F, F, S], [F, F, S]],
        stacks=[[S], [F], [F], [F]],
        bids=[{"seat": 1, "count": 1}, {"seat": 2, "count": 2}, {"seat": 3, "count": 3}],
    )
    assert {a["type"] for a in choices(level, state, 0)} == {"pass"}


def test_the_strong_bot_does_not_bluff_when_only_the_bidder_is_left_to_answer():
    # all others passed: a raise with its own skull on top would make seat 0 the challenger
    # unless the bidder raises again
    state = position(
        phase=R.BID,
        current=0,
        hands=[[F, F], [F, F, S], [F, F, S], [F, F, S]],
        stacks=[[F, S], [F], [F], [F]],
        bids=[{"seat": 1, "count": 1}, {"seat": 2, "pass": True}, {"seat": 3, "pass": True}],
    )
    assert {a["type"] for a in choices("strong", state, 0)} == {"pass"}


def test_the_strong_bot_sometimes_bluffs_with_its_skull_when_others_will_answer():
    state = position(
        phase=R.BID,
        current=0,
        hands=[[F, F], [F, S], [F, F, S], [F, F, S]],
        stacks=[[F, S], [F, F], [F], [F]],
        bids=[{"seat": 3, "count": 1}],
    )
    kinds = [a["type"] for a in choices("strong", state, 0)]
    assert "bid" in kinds and "pass" in kinds  # calibrated, not predictable


def test_the_strong_bot_raises_when_its_own_flowers_cover_the_bid():
    state = position(
        phase=R.BID,
        current=0,
        hands=[[S], [F, F, S], [F, F, S], [F, F, S]],
        stacks=[[F, F, F], [F], [F], [F]],
        bids=[{"seat": 1, "count": 1}, {"seat": 2, "count": 2}],
    )
    actions = choices("strong", state, 0)
    assert {a["type"] for a in actions} == {"bid"}
    assert all(a["count"] >= 3 for a in actions)


def test_the_basic_bot_passes_beyond_what_it_can_count_on_and_raises_within_it():
    hands = [[F, F, S], [F, F, S], [F, F, S], [F, F, S]]
    stacks = [[F], [F], [F], [F]]
    # seat 1 bid 1 (one flower vouched), its own flower, one with luck: 3 is within reach
    low = position(
        phase=R.BID, current=0, hands=hands, stacks=stacks, bids=[{"seat": 1, "count": 2}]
    )
    assert {a["type"] for a in choices("basic", low, 0)} == {"bid"}
    high = position(
        phase=R.BID, current=0, hands=hands, stacks=stacks, bids=[{"seat": 1, "count": 3}]
    )
    assert {a["type"] for a in choices("basic", high, 0)} == {"pass"}


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_a_bot_with_its_skull_on_top_and_no_card_in_hand_opens_at_one(level):
    state = position(
        phase=R.TURN,
        current=0,
        hands=[[], [F, F, S], [F, F, S], [F, F, S]],
        stacks=[[F, F, F, S], [F], [F], [F]],
    )
    assert {(a["type"], a["count"]) for a in choices(level, state, 0)} == {("bid", 1)}


def test_the_strong_bot_names_its_other_tribe_as_the_next_starter():
    state = position(
        phase=R.PREPARE,
        hands=[FULL, FULL, FULL, FULL],
        stacks=[[], [], [], []],
        options={"two_tribes": True},
    )
    # seat 1 (person 1) was knocked out by its own skull; seat 3 is person 1's other tribe
    state.hands[1], state.lost[1] = [], list(FULL)
    state.skull_known[1] = False
    state.eliminated = [1]
    state.phase, state.current = R.CHOOSE_STARTER, 1
    assert RULES.invariants(state) == []
    assert {a["seat"] for a in choices("strong", state, 1)} == {3}


def test_the_strong_bot_names_the_player_furthest_from_winning_as_the_next_starter():
    state = position(
        phase=R.PREPARE,
        hands=[FULL, FULL, FULL, FULL],
        stacks=[[], [], [], []],
        successes=[1, 0, 1, 0],
    )
    state.hands[1], state.lost[1] = [], list(FULL)
    state.skull_known[1] = False
    state.eliminated = [1]
    state.hands[3], state.lost[3] = [F, F], [F, S]
    state.skull_known[3] = None
    state.phase, state.current = R.CHOOSE_STARTER, 1
    assert RULES.invariants(state) == []
    assert {a["seat"] for a in choices("strong", state, 1)} == {3}


@pytest.mark.parametrize("level", ["basic", "strong"])
@pytest.mark.parametrize("seats,options", [(3, {}), (12, {"two_sets": True})])
def test_bots_finish_whole_tables_of_their_own_level(level, seats, options):
    for game in range(5):
        state = RULES.new_game(seats, options, seed_from_int(game)).state
        bots = [make_bot("skull", level, random.Random(f"{game}:{s}")) for s in range(seats)]
        rng = random.Random(game)
        for _ in range(5000):
            if RULES.is_over(state):
                break
            seat = rng.choice(RULES.to_act(state))
            state = RULES.apply(state, seat, bots[seat].choose(RULES.view(state, seat))).state
        assert RULES.is_over(state)
