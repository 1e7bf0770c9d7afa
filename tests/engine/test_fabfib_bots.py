"""Fab Fib bots (basic and strong) on hand-made positions, plus a few whole matches.

The generic contract (legal actions, no crash, decisions from the view alone, the view left as
it was) is in test_bots.py for every level; here: does each bot do the sensible thing?
"""

from __future__ import annotations

import random

import pytest

from games.engine.bots import bot_levels, make_bot
from games.engine.fabfib import bots as B
from games.engine.fabfib.rules import CLAIM, RESPOND, FabFib, FabFibState
from games.engine.rng import seed_from_int
from games.engine.simulate import play_match

R = FabFib()
LEVELS = ("basic", "strong")


def card(digit: int, copy: int = 0) -> int:
    return digit * 5 + copy


def position(
    *,
    seat: int,
    claims: list[tuple[int, str | None, int]],
    hand: list[int],
    memory: tuple[list[int], str] | None = None,
    seats: int = 4,
    accepted: bool = False,
    exchanged: bool = False,
    out: tuple[int, ...] = (),
) -> dict:
    """The view of ``seat`` in a chosen position of round 1.

    ``claims``: this round's (seat, claim, cards exchanged), the last one without a claim when
    its seat holds the cards; ``hand``: the cards in play; ``memory``: ``seat``'s cards passed
    on with its claim (this round); ``out``: seats already out."""
    state: FabFibState = R.new_game(seats, {}, seed_from_int(5)).state
    state.round = 1
    for s in out:
        state.life[s] = 0
    state.hand = list(hand)
    state.draw_pile = [c for c in range(50) if c not in hand]
    state.discard = []
    state.claims = [
        {"seat": s, "exchanged": e, **({"claim": c} if c is not None else {})} for s, c, e in claims
    ]
    last_seat, last_claim, _ = claims[-1]
    state.claim = last_claim if last_claim is not None else (claims[-2][1] if claims[1:] else None)
    if last_claim is None:
        state.phase, state.holder, state.responder = CLAIM, last_seat, None
    else:
        state.phase, state.holder = RESPOND, last_seat
        state.responder = R.next_alive(state, last_seat)
    state.accepted, state.exchanged = accepted, exchanged
    state.memory = [None] * seats
    if memory is not None:
        state.memory[seat] = {"cards": list(memory[0]), "round": 1, "claim": memory[1]}
    assert seat in R.to_act(state)
    return R.view(state, seat)


def bot(level: str, seed: int = 0):
    return make_bot("fabfib", level, random.Random(seed))


def test_both_levels_are_registered_when_the_game_package_is_imported():
    assert {"basic", "strong", "random"} <= set(bot_levels("fabfib"))


# --- Responding -----------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_a_claim_the_bots_memory_rules_out_is_called(level):
    """I passed on 7-5-3; one card was exchanged since, so two of mine are still in the hand:
    870 cannot hold two of 7, 5, 3."""
    view = position(
        seat=0,
        claims=[(0, "753", 0), (1, "861", 1), (2, "862", 0), (3, "870", 0)],
        hand=[card(8), card(7), card(0)],
        memory=([card(7), card(5), card(3)], "753"),
    )
    assert bot(level).choose(view) == {"type": "call"}


@pytest.mark.parametrize("level", LEVELS)
def test_a_raise_without_an_exchange_after_my_true_claim_is_called(level):
    view = position(
        seat=0,
        claims=[(0, "753", 0), (1, "754", 0)],
        hand=[card(7), card(5), card(3)],
        memory=([card(7), card(5), card(3)], "753"),
        seats=3,
        out=(2,),
    )
    assert bot(level).choose(view) == {"type": "call"}


@pytest.mark.parametrize("level", LEVELS)
def test_999_is_always_called(level):
    view = position(seat=1, claims=[(0, "999", 0)], hand=[card(9), card(9, 1), card(9, 2)])
    assert [a["type"] for a in view["legal_actions"]] == ["call"]
    assert bot(level).choose(view) == {"type": "call"}


@pytest.mark.parametrize("level", LEVELS)
def test_an_ordinary_opening_claim_is_accepted(level):
    view = position(seat=1, claims=[(0, "532", 0)], hand=[card(5), card(3), card(2)])
    assert bot(level).choose(view) == {"type": "accept"}


def test_the_strong_bot_accepts_a_claim_that_is_surely_true():
    """I passed 9-7-2 claiming 972; the next player kept 9 and 7 and drew one card: 976 is
    exactly what such a draw gives, and a bluffer would rather have said 973."""
    view = position(
        seat=0,
        claims=[(0, "972", 0), (1, "976", 1)],
        hand=[card(9), card(7), card(6)],
        memory=([card(9), card(7), card(2)], "972"),
        seats=3,
        out=(2,),
    )
    mine = B.my_memory(view)
    strong = B.StrongBot(random.Random(0))
    p_true = strong.truth_chain(B.made_claims(view["public"]), B.pool_of(list(mine[0])), mine)
    assert p_true[0] == 1.0 and p_true[-1] > 0.8
    assert strong.choose(view) == {"type": "accept"}


def test_the_strong_bot_calls_a_bare_minimum_raise_on_a_high_claim():
    """962 (true: it was mine) raised to 963 with one card exchanged: a lucky 3 or a bluff,
    and accepting would leave me to beat 963."""
    view = position(
        seat=0,
        claims=[(0, "962", 0), (1, "963", 1)],
        hand=[card(9), card(6), card(3)],
        memory=([card(9), card(6), card(2)], "962"),
        seats=3,
        out=(2,),
    )
    assert bot("strong").choose(view) == {"type": "call"}


def test_the_strong_bot_believes_a_truthful_opening_more_than_a_triple():
    strong = B.StrongBot(random.Random(0))
    pool = B.pool_of([])
    ordinary = strong.truth_chain([{"seat": 0, "claim": "752", "exchanged": 0}], pool, None)
    triple = strong.truth_chain([{"seat": 0, "claim": "999", "exchanged": 0}], pool, None)
    assert ordinary[0] > 0.95 > triple[0]


# --- Holding the cards ------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_the_truth_is_claimed_when_it_beats_the_claim(level):
    view = position(
        seat=1,
        claims=[(0, "751", 0), (1, None, 0)],
        hand=[card(2), card(8), card(5)],
        accepted=True,
    )
    assert bot(level).choose(view) == {"type": "claim", "value": "852"}


@pytest.mark.parametrize("level", LEVELS)
def test_the_opener_claims_its_cards(level):
    view = position(seat=2, claims=[(2, None, 0)], hand=[card(1), card(4), card(4, 1)])
    assert bot(level).choose(view) == {"type": "claim", "value": "441"}


@pytest.mark.parametrize("level", LEVELS)
def test_the_card_that_does_not_fit_is_exchanged(level):
    """961 to beat with 9-1-6: keep 9 and 6, exchange the 1 (position 1)."""
    view = position(
        seat=1,
        claims=[(0, "961", 0), (1, None, 0)],
        hand=[card(9), card(1), card(6)],
        accepted=True,
    )
    assert bot(level).choose(view) == {"type": "exchange", "cards": [1]}


@pytest.mark.parametrize("level", LEVELS)
def test_two_cards_are_exchanged_when_only_the_top_card_can_help(level):
    """952 to beat with 3-9-1: keep the 9, draw two."""
    view = position(
        seat=1,
        claims=[(0, "952", 0), (1, None, 0)],
        hand=[card(3), card(9), card(1)],
        accepted=True,
    )
    assert bot(level).choose(view) == {"type": "exchange", "cards": [0, 2]}


def test_the_strong_bot_exchanges_all_three_when_its_top_card_is_no_help():
    """532 to beat with 4-3-1: three new cards do better than building on the 4."""
    view = position(
        seat=1,
        claims=[(0, "532", 0), (1, None, 0)],
        hand=[card(3), card(4), card(1)],
        accepted=True,
    )
    assert bot("strong").choose(view) == {"type": "exchange", "cards": [0, 1, 2]}


def test_the_strong_bot_keeps_two_zeros_for_a_chance_at_1000_on_a_low_claim():
    """100 to beat with 0-0-1: keeping the zeros beats it with almost any card, and a third
    zero makes the 1000."""
    view = position(
        seat=1,
        claims=[(0, "100", 0), (1, None, 0)],
        hand=[card(0), card(1), card(0, 1)],
        accepted=True,
    )
    assert bot("strong").choose(view) == {"type": "exchange", "cards": [1]}


def test_the_basic_bot_bluffs_the_smallest_legal_claim():
    view = position(
        seat=1,
        claims=[(0, "961", 0), (1, None, 1)],
        hand=[card(9), card(1), card(6)],
        accepted=True,
        exchanged=True,
    )
    assert bot("basic").choose(view) == {"type": "claim", "value": "962"}


def test_the_strong_bot_bluffs_legally_and_not_always_the_same_way():
    view = position(
        seat=1,
        claims=[(0, "751", 0), (1, None, 2)],
        hand=[card(6), card(1), card(3)],
        accepted=True,
        exchanged=True,
    )
    values = {bot("strong", seed).choose(view)["value"] for seed in range(40)}
    assert all(v > "751" for v in values)
    assert len(values) >= 2, "bluffs are drawn at random among the safest"
    # ... but never something a random hand hardly ever reaches.
    assert all(B.TAIL_U[B.claim_index(v)] > 0.15 for v in values)


def test_the_strong_bot_bluffs_low_when_the_claim_is_already_high():
    view = position(
        seat=1,
        claims=[(0, "962", 0), (1, None, 1)],
        hand=[card(9), card(6), card(1)],
        accepted=True,
        exchanged=True,
    )
    values = {bot("strong", seed).choose(view)["value"] for seed in range(20)}
    assert max(values) < "970"


# --- Whole matches ----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_beats_three_random_players(level):
    wins = 0
    matches = 24
    for i in range(matches):
        hero = i % 4
        levels = [level if s == hero else "random" for s in range(4)]
        result = play_match(R, 4, {}, seed_from_int(1000 + i), levels, bot_seed=i)
        assert result.errors == [] and result.placements is not None
        wins += result.placements[hero] == 1
    assert wins >= matches // 2


@pytest.mark.slow
def test_the_strong_bot_beats_three_basic_bots_more_often_than_its_share():
    wins = 0
    matches = 40
    for i in range(matches):
        hero = i % 4
        levels = ["strong" if s == hero else "basic" for s in range(4)]
        result = play_match(R, 4, {}, seed_from_int(2000 + i), levels, bot_seed=i)
        assert result.errors == [] and result.placements is not None
        wins += result.placements[hero] == 1
    assert wins > matches // 4
