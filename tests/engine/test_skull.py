"""Skull, rule by rule (docs/rules/skull.md). D = a product decision.

Seats are rigged only where the rules leave a choice to chance that a test must pin down (who
starts, which cards a player has already lost); everything else is played through ``apply``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine import registry
from games.engine.core import IllegalAction, InvalidOptions, NotYourTurn
from games.engine.replay import verify
from games.engine.rng import seed_from_int
from games.engine.simulate import play_match
from games.engine.skull import cards as C
from games.engine.skull.rules import (
    BID,
    CHOOSE_STARTER,
    LAST_PERSON_STANDING,
    LAST_STANDING,
    OVER,
    PREPARE,
    REVEAL,
    STAT_KEYS,
    TURN,
    TWO_SUCCESSES,
    Skull,
    SkullState,
)

R = Skull()
F, S = C.FLOWER, C.SKULL


def new(seats: int = 4, starter: int = 0, seed: int = 1, **options) -> SkullState:
    """A new match whose first round is started by ``starter`` (the real pick is random)."""
    state = R.new_game(seats, options, seed_from_int(seed)).state
    state.starter = starter
    return state


def rig(state: SkullState, seat: int, hand: list[str]) -> SkullState:
    """Before any card is placed: ``seat`` has already lost every card not in ``hand``."""
    assert state.phase == PREPARE and not any(state.stacks)
    state.hands[seat] = sorted(hand)
    state.lost[seat] = C.complement(hand)
    if not hand:
        state.eliminated.append(seat)
    state.skull_known[seat] = {0: False, 4: True}.get(len(hand))  # otherwise nobody knows
    assert R.invariants(state) == [], R.invariants(state)
    return state


def act(state: SkullState, actor: int, kind: str, /, **params) -> tuple[SkullState, list]:
    step = R.apply(state, actor, {"type": kind, **params})
    assert R.invariants(step.state) == [], R.invariants(step.state)
    return step.state, step.events


def place_all(state: SkullState, cards: dict[int, str]) -> SkullState:
    """The preparation step: each listed seat places its card (in the order given)."""
    for seat, card in cards.items():
        state, _ = act(state, seat, "place", card=card)
    return state


def types(events) -> list[str]:
    return [e.type for e in events]


def legal_types(state: SkullState, seat: int) -> list[str]:
    return [spec["type"] for spec in R.legal_actions(state, seat)]


def domain(state: SkullState, seat: int, kind: str, param: str) -> dict:
    return next(s for s in R.legal_actions(state, seat) if s["type"] == kind)["params"][param]


def refused(state: SkullState, seat: int, action: dict) -> str:
    before = R.state_digest(state)
    with pytest.raises(IllegalAction) as error:
        R.apply(state, seat, action)
    assert R.state_digest(state) == before
    return error.value.reason


def failing_challenge(seed: int, challenger_hand: list[str] | None = None) -> tuple:
    """Seat 0 bids every card on the mats and runs into seat 1's skull."""
    state = new(3, starter=0, seed=seed)
    if challenger_hand is not None:
        rig(state, 0, challenger_hand)
    state = place_all(state, {0: state.hands[0][0], 1: S, 2: F})
    state, _ = act(state, 0, "bid", count=3)
    hand_before = sorted(state.hands[0] + state.stacks[0])
    assert state.phase == REVEAL and state.reveals == [{"seat": 0, "card": F}]
    return hand_before, R.apply(state, 0, {"type": "reveal", "seat": 1})


# --- Players, cards and options -------------------------------------------------------------


def test_three_to_six_players_with_one_set():
    for seats in (3, 6):
        assert R.new_game(seats, {}, seed_from_int(1)).state.seats == seats
    for seats in (2, 7):
        with pytest.raises(InvalidOptions, match="3 to 6"):
            R.new_game(seats, {}, seed_from_int(1))


def test_two_sets_option_seats_seven_to_twelve_players_d():
    for seats in (7, 12):
        state = R.new_game(seats, {"two_sets": True}, seed_from_int(1)).state
        assert state.options == {"two_sets": True, "two_tribes": False}
    for seats in (6, 13):
        with pytest.raises(InvalidOptions, match="7 to 12"):
            R.new_game(seats, {"two_sets": True}, seed_from_int(1))
    assert R.seat_range({"two_sets": True}) == (7, 12) and R.seat_range({}) == (3, 6)


def test_unknown_or_malformed_options_are_refused():
    for options in ({"three_sets": True}, {"two_sets": 1}, {"two_tribes": "yes"}):
        with pytest.raises(InvalidOptions):
            R.new_game(4, options, seed_from_int(1))


def test_every_player_starts_with_three_flowers_one_skull_and_a_mat_skull_side_up():
    state = new(5)
    view = R.view(state, 2)
    assert all(hand == [F, F, F, S] for hand in state.hands)
    assert view["private"]["hand"] == [F, F, F, S] and view["private"]["has_skull"]
    assert view["public"]["mats"] == [S] * 5 and view["public"]["successes"] == [0] * 5
    assert view["public"]["cards"] == [4] * 5


def test_the_first_starter_is_chosen_at_random_d():
    starters = Counter()
    for seed in range(60):
        step = R.new_game(4, {}, seed_from_int(seed))
        starters[step.state.starter] += 1
        assert step.chance == [["first_starter", 4, step.state.starter]]
    assert set(starters) == {0, 1, 2, 3}


# --- Step 1: preparation ----------------------------------------------------------------


def test_preparation_is_simultaneous_every_seat_must_place_at_once():
    state = new(4, starter=2)
    assert R.to_act(state) == [0, 1, 2, 3]
    assert all(legal_types(state, s) == ["place"] for s in range(4))
    state, events = act(state, 3, "place", card=S)  # any order
    assert R.to_act(state) == [0, 1, 2] and types(events) == ["placed"]
    state = place_all(state, {1: F, 0: F})
    assert R.to_act(state) == [2]
    state, events = act(state, 2, "place", card=F)
    assert types(events) == ["placed", "preparation_done"]
    assert state.phase == TURN and R.to_act(state) == [2]  # the round's starter goes first


def test_who_has_placed_is_public_but_not_what():
    state = new(3)
    state, events = act(state, 1, "place", card=S)
    assert events[0].for_seat(0) == {"type": "placed", "seat": 1}
    assert events[0].for_seat(1)["private"] == {"card": S}
    view = R.view(state, 0)
    assert view["public"]["placed"] == [False, True, False]
    assert view["public"]["stacks"][1] == {"height": 1, "revealed": []}
    assert S not in json.dumps(view["public"]["stacks"])
    assert R.view(state, 1)["private"]["stack"] == [S]


def test_a_player_with_one_card_left_must_place_it():
    state = rig(new(3), 1, [S])
    assert domain(state, 1, "place", "card") == {"one_of": [S]}
    state = place_all(state, {0: F, 1: S, 2: F})
    state, _ = act(state, 0, "add", card=F)
    assert legal_types(state, 1) == ["bid"]  # then, with no card in hand, must bid


# --- Step 2: add or bid -------------------------------------------------------------------


def test_adding_puts_one_card_on_top_of_the_stack_and_the_turn_goes_clockwise():
    state = place_all(new(4, starter=3), {0: F, 1: F, 2: F, 3: S})
    assert legal_types(state, 3) == ["add", "bid"]
    state, events = act(state, 3, "add", card=F)
    assert state.stacks[3] == [S, F] and state.hands[3] == [F, F]
    assert events[0].for_seat(0) == {"type": "added", "seat": 3, "height": 2, "next": 0}
    assert R.to_act(state) == [0]


def test_a_player_with_no_card_in_hand_must_bid():
    state = place_all(new(3), {0: F, 1: F, 2: F})
    for _ in range(3):
        for seat in range(3):
            state, _ = act(state, seat, "add", card=state.hands[seat][0])
    assert state.hands[0] == [] and legal_types(state, 0) == ["bid"]
    assert "must start the bidding" in refused(state, 0, {"type": "add", "card": F})


def test_an_opening_bid_is_from_one_to_the_cards_on_all_mats():
    state = place_all(new(3), {0: F, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    assert domain(state, 1, "bid", "count") == {"range": [1, 4]}
    assert "from 1 to 4" in refused(state, 1, {"type": "bid", "count": 5})
    assert "from 1 to 4" in refused(state, 1, {"type": "bid", "count": 0})


def test_out_players_are_skipped_clockwise():
    state = rig(new(4, starter=0), 1, [])
    assert R.to_act(state) == [0, 2, 3]
    state = place_all(state, {0: F, 2: F, 3: F})
    state, _ = act(state, 0, "add", card=F)
    assert R.to_act(state) == [2]


# --- Bidding ------------------------------------------------------------------------------


def test_bidding_goes_clockwise_each_player_raises_or_passes():
    state = place_all(new(4, starter=1), {0: F, 1: F, 2: F, 3: F})
    state, events = act(state, 1, "bid", count=1)
    assert state.phase == BID and events[0].public == {"seat": 1, "count": 1, "next": 2}
    assert legal_types(state, 2) == ["bid", "pass"]
    assert domain(state, 2, "bid", "count") == {"range": [2, 4]}
    state, _ = act(state, 2, "bid", count=2)
    state, _ = act(state, 3, "pass")
    assert R.to_act(state) == [0]


def test_a_raise_must_be_higher_than_the_current_bid():
    state = place_all(new(3), {0: F, 1: F, 2: F})
    state, _ = act(state, 0, "bid", count=2)
    reason = refused(state, 1, {"type": "bid", "count": 2})
    assert "from 3 to 3" in reason and "higher than the bid of 2" in reason


def test_bidding_ends_when_all_but_one_have_passed_and_the_highest_bidder_challenges():
    state = place_all(new(4), {0: F, 1: F, 2: F, 3: F})
    state, _ = act(state, 0, "bid", count=1)
    state, _ = act(state, 1, "bid", count=2)
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 3, "pass")
    state, events = act(state, 0, "pass")  # the first bidder, outbid, may pass too
    assert types(events)[:2] == ["passed", "challenge"]
    assert state.phase == REVEAL and state.challenger == 1 and state.bid == 2


def test_passed_players_are_skipped_and_their_cards_stay_eligible():
    state = place_all(new(4), {0: F, 1: F, 2: F, 3: F})
    state, _ = act(state, 0, "bid", count=1)
    state, _ = act(state, 1, "pass")
    state, _ = act(state, 2, "bid", count=2)
    state, _ = act(state, 3, "bid", count=3)
    assert R.to_act(state) == [0]
    state, _ = act(state, 0, "pass")
    assert R.to_act(state) == [2]  # seat 1 passed: skipped
    state, _ = act(state, 2, "pass")
    assert state.phase == REVEAL and state.challenger == 3
    assert 1 in domain(state, 3, "reveal", "seat")["one_of"]


def test_a_bid_of_every_card_on_the_mats_ends_the_bidding_at_once_d():
    state = place_all(new(4), {0: F, 1: F, 2: F, 3: F})
    state, events = act(state, 0, "bid", count=4)  # an opening bid of everything
    assert events[0].public["next"] is None and types(events)[1] == "challenge"
    assert state.phase == REVEAL and state.challenger == 0
    state = place_all(new(4), {0: F, 1: F, 2: F, 3: F})
    state, _ = act(state, 0, "bid", count=1)
    state, events = act(state, 1, "bid", count=4)  # a raise to everything
    assert events[0].public["next"] is None and types(events)[1] == "challenge"
    assert state.phase == REVEAL and state.challenger == 1


# --- Step 3: the reveal -------------------------------------------------------------------


def test_the_challenger_reveals_their_own_stack_first_top_card_first():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "add", card=F)
    state, events = act(state, 2, "bid", count=2)
    state, events = act(state, 0, "pass")
    state, events = act(state, 1, "bid", count=5)  # all on the mats: seat 1 challenges
    revealed = [e.public for e in events if e.type == "revealed"]
    assert [(r["seat"], r["card"]) for r in revealed] == [(1, F), (1, F)]
    assert R.view(state, 0)["public"]["stacks"][1]["revealed"] == [F, F]
    assert R.view(state, 2)["public"]["flowers_revealed"] == 2


def test_the_challenger_never_reveals_more_of_their_own_cards_than_the_bid():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)  # seat 0: a flower on top of its skull
    state, _ = act(state, 1, "add", card=F)
    state, _ = act(state, 2, "add", card=F)
    state, _ = act(state, 0, "bid", count=1)
    state, _ = act(state, 1, "pass")
    state, events = act(state, 2, "pass")
    assert [e.public["card"] for e in events if e.type == "revealed"] == [F]
    assert "challenge_won" in types(events)  # the skull beneath was never turned


def test_the_challengers_own_skull_under_a_flower_fails_the_challenge():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "bid", count=1)
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 0, "bid", count=2)
    state, events = act(state, 1, "pass")
    assert [e.public["card"] for e in events if e.type == "revealed"] == [F, S]
    assert "challenge_lost" in types(events) and state.last_challenge["skull_owner"] == 0


def test_then_the_challenger_reveals_other_stacks_one_top_card_at_a_time_in_any_order():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "add", card=F)
    state, _ = act(state, 2, "bid", count=3)
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    assert state.phase == REVEAL and state.revealed[2] == 1
    assert domain(state, 2, "reveal", "seat") == {"one_of": [0, 1]}
    state, events = act(state, 2, "reveal", seat=1)
    assert events[0].public == {"seat": 1, "card": F, "by": 2, "flowers": 2, "needed": 3}
    state, events = act(state, 2, "reveal", seat=0)  # seat 0's top card: a flower
    assert events[0].public["card"] == F and types(events)[1] == "challenge_won"


def test_the_own_stack_or_an_exhausted_stack_cannot_be_chosen():
    state = place_all(new(3), {0: F, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "bid", count=4)
    assert domain(state, 1, "reveal", "seat") == {"one_of": [0, 2]}
    assert "own stack" in refused(state, 1, {"type": "reveal", "seat": 1})
    state, _ = act(state, 1, "reveal", seat=2)
    assert domain(state, 1, "reveal", "seat") == {"one_of": [0]}
    assert "no unrevealed card" in refused(state, 1, {"type": "reveal", "seat": 2})


def test_the_first_skull_revealed_ends_the_challenge_in_failure():
    state = place_all(new(3), {0: F, 1: S, 2: F})
    state, _ = act(state, 0, "bid", count=3)
    state, events = act(state, 0, "reveal", seat=1)
    assert types(events)[:3] == ["revealed", "challenge_lost", "card_lost"]
    assert state.last_challenge["success"] is False and state.last_challenge["skull_owner"] == 1
    assert state.phase == PREPARE and not any(state.stacks)


def test_as_many_flowers_as_the_bid_is_a_success():
    state = place_all(new(3), {0: F, 1: F, 2: S})
    state, _ = act(state, 0, "bid", count=2)
    state, _ = act(state, 1, "pass")
    state, events = act(state, 2, "pass")
    state, events = act(state, 0, "reveal", seat=1)
    assert types(events) == ["revealed", "challenge_won", "round_started"]
    assert state.last_challenge == {
        "round": 1,
        "challenger": 0,
        "bid": 2,
        "success": True,
        "skull_owner": None,
        "reveals": [{"seat": 0, "card": F}, {"seat": 1, "card": F}],
    }


# --- Failure ------------------------------------------------------------------------------


def test_after_a_failure_all_cards_go_back_to_hands_and_the_challenger_loses_one():
    hand_before, step = failing_challenge(seed=3)
    state = step.state
    assert all(stack == [] for stack in state.stacks) and state.reveals == []
    assert [len(h) for h in state.hands] == [3, 4, 4]
    assert len(state.lost[0]) == 1
    assert sorted(state.hands[0] + state.lost[0]) == hand_before


def test_the_lost_card_is_picked_blind_uniformly_at_random_by_the_server_d():
    skulls = 0
    for seed in range(400):
        hand_before, step = failing_challenge(seed)
        [[kind, bound, index]] = step.chance
        assert (kind, bound) == ("blind_loss", 4)
        assert step.state.lost[0] == [hand_before[index]]
        skulls += step.state.lost[0] == [S]
    assert 60 <= skulls <= 140  # 1 in 4 expected: 100 of 400


def test_only_the_challenger_learns_which_card_was_lost_d():
    _, step = failing_challenge(seed=5)
    lost = next(e for e in step.events if e.type == "card_lost")
    assert lost.for_seat(0)["private"] == {"card": step.state.lost[0][0]}
    for seat in (None, 1, 2):
        assert lost.for_seat(seat) == {
            "type": "card_lost",
            "seat": 0,
            "picked_by": 1,
            "cards_left": 3,
        }
    assert R.view(step.state, 0)["private"]["lost"] == step.state.lost[0]
    assert R.view(step.state, 1)["public"]["cards"] == [3, 4, 4]
    assert "lost" not in json.dumps(R.view(step.state, 1)["public"])


def test_when_the_challengers_cards_are_all_of_one_kind_the_lost_card_is_that_kind():
    for seed in range(20):
        _, step = failing_challenge(seed, challenger_hand=[F, F])
        assert step.chance == [] and step.state.lost[0][-1] == F  # no draw was needed
        assert step.state.hands[0] == [F]


def test_after_a_failure_the_challenger_starts_the_next_round():
    _, step = failing_challenge(seed=2)
    assert step.state.phase == PREPARE and step.state.starter == 0 and step.state.round == 2


def test_a_challenger_with_no_card_left_is_out():
    state = rig(new(4), 0, [F])
    state = place_all(state, {0: F, 1: S, 2: F, 3: F})
    state, _ = act(state, 0, "bid", count=4)
    state, events = act(state, 0, "reveal", seat=1)
    assert "eliminated" in types(events) and state.eliminated == [0]
    assert R.view(state, 2)["public"]["out"] == [True, False, False, False]
    assert 0 not in R.to_act(state)


def test_an_eliminated_challenger_hands_the_start_to_the_skulls_owner():
    state = rig(new(4), 0, [F])
    state = place_all(state, {0: F, 1: F, 2: S, 3: F})
    state, _ = act(state, 0, "bid", count=4)
    state, _ = act(state, 0, "reveal", seat=2)
    assert state.phase == PREPARE and state.starter == 2


def test_a_challenger_out_through_their_own_skull_chooses_the_next_starter():
    state = rig(new(4), 0, [S])
    state = place_all(state, {0: S, 1: F, 2: F, 3: F})
    state, events = act(state, 0, "bid", count=1)
    for seat in (1, 2, 3):
        state, events = act(state, seat, "pass")
    assert types(events)[-2:] == ["eliminated", "choose_starter"]
    assert state.phase == CHOOSE_STARTER and R.to_act(state) == [0]
    assert domain(state, 0, "choose_starter", "seat") == {"one_of": [1, 2, 3]}
    assert state.stats[0]["skulls_sprung"] == 1  # fine point: own skull counts
    with pytest.raises(IllegalAction):
        R.apply(state, 0, {"type": "choose_starter", "seat": 0})
    state, events = act(state, 0, "choose_starter", seat=3)
    assert types(events) == ["starter_chosen", "round_started"]
    assert state.phase == PREPARE and state.starter == 3 and 0 not in R.to_act(state)


# --- Success and the end ------------------------------------------------------------------


def test_a_success_turns_the_mat_flower_side_up_and_the_challenger_starts_next():
    state = place_all(new(3, starter=1), {0: F, 1: F, 2: F})
    state, _ = act(state, 1, "bid", count=3)
    state, _ = act(state, 1, "reveal", seat=2)
    state, events = act(state, 1, "reveal", seat=0)
    assert "challenge_won" in types(events)
    view = R.view(state, None)["public"]
    assert view["mats"] == [S, F, S] and view["successes"] == [0, 1, 0]
    assert state.phase == PREPARE and state.starter == 1 and state.hands[1] == [F, F, F, S]


def test_a_second_success_wins_the_match():
    state = new(3)
    state.successes[0] = 1
    state = place_all(state, {0: F, 1: S, 2: S})
    state, _ = act(state, 0, "bid", count=1)
    state, _ = act(state, 1, "pass")
    state, events = act(state, 2, "pass")
    assert types(events)[-2:] == ["challenge_won", "match_over"]
    assert R.is_over(state) and state.winner == 0 and state.end == TWO_SUCCESSES
    assert R.placements(state)[0] == 1 and R.to_act(state) == []


def test_the_last_player_standing_wins():
    state = new(3)
    rig(state, 2, [])
    rig(state, 1, [F])
    state = place_all(state, {0: S, 1: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "bid", count=3)
    state, events = act(state, 1, "reveal", seat=0)
    assert events[0].public["card"] == F
    state, events = act(state, 1, "reveal", seat=0)
    assert state.phase == OVER and state.winner == 0 and state.end == LAST_STANDING
    assert types(events)[-1] == "match_over"
    assert R.placements(state) == [1, 2, 3]


def test_placement_winner_then_players_still_in_by_successes_then_cards_then_eliminated_d():
    state = new(6)
    rig(state, 4, [])  # eliminated first
    rig(state, 5, [])  # eliminated last
    rig(state, 2, [F, F, S])
    state.successes[0] = 1
    state.successes[3] = 1
    state = place_all(state, {0: F, 1: F, 2: F, 3: F})
    state, _ = act(state, 0, "bid", count=1)
    for seat in (1, 2, 3):
        state, _ = act(state, seat, "pass")
    assert state.winner == 0
    # winner; seat 3 (1 success); seat 1 (4 cards); seat 2 (3 cards); seat 5; seat 4
    assert R.placements(state) == [1, 3, 4, 2, 6, 5]


def test_shared_places_use_competition_ranking():
    state = new(4)
    state.successes[0] = 1
    state = place_all(state, {0: F, 1: F, 2: F, 3: F})
    state, _ = act(state, 0, "bid", count=1)
    for seat in (1, 2, 3):
        state, _ = act(state, seat, "pass")
    assert R.placements(state) == [1, 2, 2, 2]


def test_a_finished_match_accepts_no_action():
    state = new(3)
    state.successes[0] = 1
    state = place_all(state, {0: F, 1: F, 2: F})
    state, _ = act(state, 0, "bid", count=3)
    state, _ = act(state, 0, "reveal", seat=1)
    state, _ = act(state, 0, "reveal", seat=2)
    assert R.is_over(state) and R.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn):
        R.apply(state, 1, {"type": "pass"})


# --- Two tribes -----------------------------------------------------------------------------


def test_two_tribes_needs_an_even_seat_count():
    with pytest.raises(InvalidOptions, match="even"):
        R.new_game(5, {"two_tribes": True}, seed_from_int(1))
    for seats, options in ((4, {}), (6, {}), (8, {"two_sets": True}), (12, {"two_sets": True})):
        R.new_game(seats, {"two_tribes": True, **options}, seed_from_int(1))


def test_two_tribes_seats_i_and_i_plus_half_belong_to_person_i():
    state = new(6, two_tribes=True)
    assert R.people(state) == [0, 1, 2, 0, 1, 2]
    assert R.person_seats(state, 1) == [1, 4]
    assert R.view(state, None)["public"]["people"] == [0, 1, 2, 0, 1, 2]
    assert R.people(new(4)) == [0, 1, 2, 3]


def test_two_tribes_each_seat_plays_by_the_normal_rules():
    state = new(6, starter=4, two_tribes=True)
    assert R.to_act(state) == list(range(6))  # every tribe places its own card
    state = place_all(state, dict.fromkeys(range(6), F))
    assert R.to_act(state) == [4]
    state, _ = act(state, 4, "add", card=S)
    assert R.to_act(state) == [5]  # the next seat clockwise, whoever plays it


def test_two_tribes_a_person_wins_when_either_tribe_wins():
    state = new(6, starter=4, two_tribes=True)
    state.successes[4] = 1
    state = place_all(state, dict.fromkeys(range(6), F))
    state, _ = act(state, 4, "bid", count=1)
    for seat in (5, 0, 1, 2, 3):
        state, _ = act(state, seat, "pass")
    assert state.winner == 4 and R.placements(state)[4] == 1
    assert R.person_placements(state)[1] == 1  # seat 4 is person 1's second tribe


def test_two_tribes_people_are_ranked_by_their_better_tribe_then_the_other():
    state = new(6, two_tribes=True)
    rig(state, 1, [])  # person 1's first tribe out first
    rig(state, 5, [F])  # person 2's second tribe has one card left
    state.successes[2] = 1
    state.successes[0] = 1
    state = place_all(state, {0: F, 2: F, 3: F, 4: F, 5: F})
    state, _ = act(state, 0, "bid", count=1)
    for seat in (2, 3, 4, 5):
        state, _ = act(state, seat, "pass")
    places = R.placements(state)
    # seat 0 wins; seat 2 has a success; seats 3 and 4 have 4 cards; seat 5 one; seat 1 out
    assert places == [1, 6, 2, 3, 3, 5]
    # person 0: (1, 3); person 2: (2, 5); person 1: (3, 6)
    assert R.person_placements(state) == [1, 3, 2]


def test_two_tribes_match_ends_when_only_one_persons_tribes_remain():
    state = new(4, starter=3, two_tribes=True)
    rig(state, 1, [])
    rig(state, 3, [F])
    state = place_all(state, {0: S, 2: F, 3: F})
    state, _ = act(state, 3, "bid", count=2)
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 2, "pass")
    state, events = act(state, 3, "reveal", seat=0)
    assert R.is_over(state) and state.end == LAST_PERSON_STANDING and state.winner is None
    assert types(events)[-1] == "match_over"
    assert R.placements(state) == [1, 4, 1, 3]  # seats 0 and 2 still in, tied
    assert R.person_placements(state) == [1, 2]


def test_without_two_tribes_person_placements_are_the_seat_placements():
    state = new(3)
    state.successes[1] = 1
    state = place_all(state, {0: F, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "bid", count=1)
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 0, "pass")
    assert R.person_placements(state) == R.placements(state) == [2, 1, 2]


# --- Bluff statistics ---------------------------------------------------------------------


def test_statistics_count_skulls_placed_bids_and_bids_with_own_skull():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "bid", count=1)  # with own skull on the mat
    state, _ = act(state, 1, "bid", count=2)
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "reveal", seat=2)  # success
    stats = R.stats(state)
    assert set(stats[0]) == set(STAT_KEYS)
    assert stats[0]["skulls_placed"] == 1 and stats[0]["bids"] == 1
    assert stats[0]["bids_with_own_skull"] == 1
    assert stats[1]["bids"] == 1 and stats[1]["bids_with_own_skull"] == 0
    assert stats[1]["challenges_won"] == 1 and stats[2]["bids"] == 0


def test_statistics_count_challenges_lost_skulls_sprung_and_cards_lost():
    _, step = failing_challenge(seed=4)
    stats = R.stats(step.state)
    assert stats[0]["challenges_lost"] == 1 and stats[0]["cards_lost"] == 1
    assert stats[1]["skulls_sprung"] == 1 and stats[1]["skulls_placed"] == 1
    assert stats[0]["challenges_won"] == 0


def test_skulls_sprung_counts_a_challenger_stopped_by_their_own_skull():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "bid", count=3)
    assert R.stats(state)[0]["skulls_sprung"] == 1
    assert R.stats(state)[0]["challenges_lost"] == 1


def test_bluff_statistics_are_in_no_view():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "bid", count=1)
    for seat in (None, 0, 1, 2):
        text = json.dumps(R.view(state, seat))
        assert not any(key in text for key in STAT_KEYS if key != "bids")
        assert "skulls_placed" not in text


# --- Views and hidden information ---------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_stack_but_never_the_unrevealed_cards_of_others():
    state = place_all(new(3), {0: S, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    view = R.view(state, 1)
    assert view["private"] == {"hand": [F, F, S], "stack": [F], "lost": [], "has_skull": True}
    assert view["public"]["stacks"][0] == {"height": 2, "revealed": []}
    assert view["public"]["hand_sizes"] == [2, 3, 3]
    assert R.view(state, None)["private"] is None
    twin = R.clone(state)
    twin.stacks[0] = [F, S]
    twin.hands[0] = [F, F]
    assert json.dumps(R.view(twin, 1)) == json.dumps(view)


def test_the_bidding_and_the_cards_revealed_this_round_are_public():
    state = place_all(new(3), {0: F, 1: F, 2: S})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "bid", count=2)
    state, _ = act(state, 2, "bid", count=3)
    state, _ = act(state, 0, "pass")
    public = R.view(state, 0)["public"]
    assert public["bids"] == [
        {"seat": 1, "count": 2},
        {"seat": 2, "count": 3},
        {"seat": 0, "pass": True},
    ]
    assert public["bid"] == 3 and public["bidder"] == 2 and public["passed"] == [True, False, False]
    state, _ = act(state, 1, "pass")
    public = R.view(state, 0)["public"]
    assert public["phase"] == PREPARE  # seat 2 hit its own skull at once
    assert public["last_challenge"]["reveals"] == [{"seat": 2, "card": S}]


def test_public_knowledge_of_a_players_skull_follows_the_reveals_and_losses():
    state = new(3)
    assert state.skull_known == [True, True, True]  # four cards: the whole set
    _, step = failing_challenge(seed=6)
    assert step.state.skull_known == [None, True, True]  # seat 0 lost a card unseen
    state = rig(new(3), 2, [F, F])
    state = place_all(state, {0: F, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "add", card=F)
    state, _ = act(state, 2, "add", card=F)
    state, _ = act(state, 0, "bid", count=6)
    state, _ = act(state, 0, "reveal", seat=2)
    state, _ = act(state, 0, "reveal", seat=2)
    assert state.skull_known[2] is False  # both of its cards were flowers


def test_hidden_variant_keeps_everything_the_seat_sees():
    state = rig(new(4), 2, [F, F, S])
    state = place_all(state, {0: S, 1: F, 2: F, 3: F})
    state, _ = act(state, 0, "add", card=F)
    state, _ = act(state, 1, "add", card=S)
    state, _ = act(state, 2, "bid", count=2)
    state, _ = act(state, 3, "pass")
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    assert state.phase == REVEAL
    rng = random.Random(1)
    seen_stacks = set()
    for seat in (None, 0, 1, 2, 3):
        for _ in range(30):
            twin = R.hidden_variant(state, seat, rng)
            assert R.invariants(twin) == []
            assert json.dumps(R.view(twin, seat)) == json.dumps(R.view(state, seat))
            seen_stacks.add(json.dumps(twin.stacks))
            assert S in twin.hands[1] + twin.stacks[1] + twin.hands[0] + twin.stacks[0]
    assert len(seen_stacks) > 1
    variants = {tuple(R.hidden_variant(state, 0, rng).lost[2]) for _ in range(40)}
    assert variants == {(F,), (S,)}  # whether seat 2 lost its skull is hidden from seat 0


# --- Illegal actions (D: refused with a reason, never penalised) ---------------------------


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing_d():
    state = new(3)
    assert "'bid' is not possible" not in refused(state, 0, {"type": "bid", "count": 1})
    assert "after everyone has placed" in refused(state, 0, {"type": "bid", "count": 1})
    assert "use 'place'" in refused(state, 0, {"type": "add", "card": F})
    assert "must be one of" in refused(state, 0, {"type": "place", "card": "rose"})
    state = place_all(rig(state, 1, [F, F, F]), {0: F, 1: F, 2: F})
    state, _ = act(state, 0, "add", card=S)
    assert "You have no skull in hand" in refused(state, 1, {"type": "add", "card": S})
    assert "Nobody has bid yet" in refused(state, 1, {"type": "pass"})
    assert "already on your mat" in refused(state, 1, {"type": "place", "card": F})
    with pytest.raises(NotYourTurn):
        R.apply(state, 2, {"type": "add", "card": F})
    state, _ = act(state, 1, "bid", count=2)
    assert "no more cards can be added" in refused(state, 2, {"type": "add", "card": F})


# --- The four-player example of the original rules -----------------------------------------


def test_the_four_player_example_of_the_original_rules():
    """Players 1–4 are seats 0–3; player 1 starts the round."""
    p1, p2, p3, p4 = 0, 1, 2, 3
    state = new(4, starter=p1)
    # Step 1: each player places one card secretly (any order, all at once).
    state = place_all(state, {p3: S, p1: F, p4: F, p2: S})
    # Step 2: the starting player, then players 2 and 3, place a second card ...
    state, _ = act(state, p1, "add", card=F)
    state, _ = act(state, p2, "add", card=F)
    state, _ = act(state, p3, "add", card=F)
    # ... player 4 starts a challenge with "3" instead of adding a card.
    state, _ = act(state, p4, "bid", count=3)
    # Player 1 raises to 5; players 2 and 3 pass; player 4, who called 3, passes too.
    state, _ = act(state, p1, "bid", count=5)
    state, _ = act(state, p2, "pass")
    state, _ = act(state, p3, "pass")
    state, events = act(state, p4, "pass")
    assert state.challenger == p1 and state.bid == 5
    # Step 3 — cards 1, 2: the challenger's own two cards first, both flowers.
    assert [(e.public["seat"], e.public["card"]) for e in events if e.type == "revealed"] == [
        (p1, F),
        (p1, F),
    ]
    # Card 3: player 2's top card; card 4: player 4's; card 5: player 3's top card.
    state, events = act(state, p1, "reveal", seat=p2)
    assert events[0].public["card"] == F
    state, events = act(state, p1, "reveal", seat=p4)
    assert events[0].public["card"] == F
    state, events = act(state, p1, "reveal", seat=p3)
    assert events[0].public["card"] == F
    assert types(events) == ["revealed", "challenge_won", "round_started"]
    # Step 4: cards back to hands, the mat shows the flower side, player 1 starts again.
    assert all(hand == [F, F, F, S] for hand in state.hands)
    assert R.view(state, p3)["public"]["mats"] == [F, S, S, S]
    assert state.phase == PREPARE and state.starter == p1 and state.round == 2
    # The first to succeed a second time wins.
    state = place_all(state, {p1: F, p2: F, p3: F, p4: F})
    state, _ = act(state, p1, "bid", count=4)
    for seat in (p2, p3, p4):
        state, _ = act(state, p1, "reveal", seat=seat)
    assert R.is_over(state) and state.winner == p1 and R.placements(state)[p1] == 1


# --- The registry, replays and random play --------------------------------------------------


def test_skull_is_registered_with_its_variants():
    assert registry.get("skull") is not None
    assert Skull.option_examples == [{}, {"two_sets": True}, {"two_tribes": True}]


@pytest.mark.parametrize(
    ("seats", "options"), [(3, {}), (9, {"two_sets": True}), (6, {"two_tribes": True})]
)
def test_random_matches_replay_exactly(seats, options):
    result = play_match(R, seats, options, seed_from_int(21), ["random"] * seats)
    assert result.finished and result.errors == []
    assert verify(json.loads(json.dumps(result.record))) == []
