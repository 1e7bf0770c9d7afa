"""Fab Fib, rule by rule (docs/rules/fabfib.md). D = our decision."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from games.engine.core import IllegalAction, InvalidOptions, NotYourTurn
from games.engine.fabfib import cards as C
from games.engine.fabfib.rules import CLAIM, RESPOND, FabFib, FabFibState
from games.engine.replay import verify
from games.engine.rng import seed_from_int
from games.engine.simulate import play_match

R = FabFib()
GOLDEN = Path(__file__).parent / "golden"


def card(digit: int, skulls: int = 1, copy: int = 0) -> int:
    """The id of a card with this digit and skull count (copy picks among the 1-skull cards)."""
    return digit * 5 + {1: copy, 2: 3, 3: 4}[skulls]


def new(seats: int = 3, seed: int = 1, **options) -> FabFibState:
    return R.new_game(seats, options, seed_from_int(seed)).state


def rig(
    state: FabFibState,
    *,
    holder: int,
    hand: list[int],
    next_draws: Sequence[int] = (),
    discard: Sequence[int] = (),
    phase: str = CLAIM,
    claim: str | None = None,
    accepted: bool = False,
) -> FabFibState:
    """Put the game in a chosen position: who holds which cards, what is drawn next."""
    used = set(hand) | set(next_draws) | set(discard)
    state.hand = list(hand)
    state.discard = list(discard)
    state.draw_pile = [c for c in range(C.DECK_SIZE) if c not in used] + list(reversed(next_draws))
    state.holder = holder
    state.phase = phase
    state.claim = claim
    state.accepted = accepted
    state.exchanged = False
    state.responder = R.next_alive(state, holder) if phase == RESPOND else None
    state.claims = [{"seat": holder, "exchanged": 0, **({"claim": claim} if claim else {})}]
    assert R.invariants(state) == [] or phase == RESPOND
    return state


def act(state: FabFibState, seat: int, kind: str, **params) -> tuple[FabFibState, list]:
    step = R.apply(state, seat, {"type": kind, **params})
    return step.state, step.events


def types(events) -> list[str]:
    return [e.type for e in events]


SEVEN_SEVEN_TWO = [card(7), card(7, copy=1), card(2)]  # 3 skulls in all


# --- The deck, the players, life ------------------------------------------------------------


def test_deck_has_fifty_cards_five_of_each_digit_with_skulls_one_one_one_two_three():
    assert C.DECK_SIZE == 50
    for digit in range(10):
        copies = [c for c in range(50) if C.digit(c) == digit]
        assert sorted(C.skulls(c) for c in copies) == [1, 1, 1, 2, 3]


def test_three_to_ten_players():
    assert R.seat_range({}) == (3, 10)
    for seats in (2, 11):
        with pytest.raises(InvalidOptions, match="3 to 10"):
            new(seats)
    for seats in (3, 10):
        assert new(seats).seats == seats


def test_every_player_starts_with_twelve_life():
    assert new(5).life == [12] * 5


def test_life_option_overrides_the_starting_life_within_bounds():
    assert new(4, life=5).life == [5] * 4
    with pytest.raises(InvalidOptions):
        new(4, life=0)


# --- Claims ---------------------------------------------------------------------------------


def test_claims_are_three_digits_in_non_increasing_order():
    assert C.is_claim("772") and C.is_claim("000") and C.is_claim("999")
    assert not C.is_claim("727") and not C.is_claim("1000") and not C.is_claim(772)
    assert len(C.ALL_CLAIMS) == 220


def test_a_non_descending_claim_is_refused_with_the_reason():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    with pytest.raises(IllegalAction, match=r"non-increasing order.*772"):
        R.apply(state, 0, {"type": "claim", "value": "727"})
    with pytest.raises(IllegalAction, match=r"sent as a string\."):
        R.apply(state, 0, {"type": "claim", "value": "77"})


def test_claims_compare_as_numbers():
    assert C.claims_above("772")[0] == "773"
    assert C.claims_above("999") == []
    assert C.claims_above("100")[0] == "110"


def test_a_claim_is_true_only_on_an_exact_match():
    assert C.reading([card(2), card(7), card(7, copy=1)]) == "772"
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="773")  # higher than the cards: still a bluff
    state, events = act(state, 1, "call")
    call = events[0].public
    assert call["true"] is False and call["loser"] == 0


# --- Opening, responding --------------------------------------------------------------------


def test_first_starter_is_chosen_at_random():
    starters = {new(5, seed=s).holder for s in range(60)}
    assert starters == set(range(5))


def test_the_starter_draws_three_cards_privately_and_does_not_exchange():
    state = new(4, seed=3)
    starter = state.holder
    assert len(state.hand) == 3
    assert R.view(state, starter)["private"]["hand"] == C.show_all(state.hand)
    for other in range(4):
        if other != starter:
            assert R.view(state, other)["private"]["hand"] is None
    assert [a["type"] for a in R.legal_actions(state, starter)] == ["claim"]
    with pytest.raises(IllegalAction, match="starter of a round does not exchange"):
        R.apply(state, starter, {"type": "exchange", "cards": [0]})


def test_the_next_player_decides_before_seeing_the_cards():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="772")
    assert R.to_act(state) == [1]
    assert R.view(state, 1)["private"]["hand"] is None
    assert sorted(a["type"] for a in R.legal_actions(state, 1)) == ["accept", "call"]


def test_a_call_on_a_false_claim_costs_the_claimant_the_skulls_of_the_cards():
    hand = [card(9, 3), card(5, 2), card(1)]  # 6 skulls
    state = rig(new(), holder=0, hand=hand)
    state, _ = act(state, 0, "claim", value="999")
    state, events = act(state, 1, "call")
    call = events[0]
    assert call.type == "call" and call.public["cards"] == C.show_all(hand)
    assert call.public["loser"] == 0 and call.public["damage"] == 6
    assert state.life == [6, 12, 12]


def test_a_call_on_a_true_claim_costs_the_caller():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="772")
    state, events = act(state, 1, "call")
    assert events[0].public["true"] is True and events[0].public["loser"] == 1
    assert state.life == [12, 9, 12]


def test_damage_is_the_sum_of_skulls_not_the_value_of_the_digits():
    hand = [card(9), card(9, copy=1), card(9, copy=2)]  # digits 27, skulls 3
    state = rig(new(), holder=0, hand=hand)
    state, _ = act(state, 0, "claim", value="100")
    state, _ = act(state, 1, "call")
    assert state.life[0] == 9


def test_life_at_or_below_zero_is_out_and_shows_as_zero():
    hand = [card(9, 3), card(8, 3), card(7, 3)]  # 9 skulls
    state = rig(new(), holder=0, hand=hand)
    state.life = [4, 12, 12]
    state, _ = act(state, 0, "claim", value="000")
    state, events = act(state, 1, "call")
    assert state.life[0] == 0
    assert "eliminated" in types(events)
    assert R.view(state, None)["public"]["out"] == [True, False, False]
    assert 0 not in R.to_act(state)


def test_accepting_shows_the_cards_then_one_exchange_then_a_strictly_higher_claim():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO, next_draws=[card(8)])
    state, _ = act(state, 0, "claim", value="772")
    state, events = act(state, 1, "accept")
    assert events[0].private[1]["cards"] == C.show_all(SEVEN_SEVEN_TWO)
    assert R.view(state, 1)["private"]["hand"] == C.show_all(SEVEN_SEVEN_TWO)
    assert sorted(a["type"] for a in R.legal_actions(state, 1)) == ["claim", "exchange"]
    state, events = act(state, 1, "exchange", cards=[2])
    assert C.reading(state.hand) == "877"
    assert [a["type"] for a in R.legal_actions(state, 1)] == ["claim"]
    with pytest.raises(IllegalAction, match="already exchanged"):
        R.apply(state, 1, {"type": "exchange", "cards": [0]})
    with pytest.raises(IllegalAction, match="strictly higher than 772"):
        R.apply(state, 1, {"type": "claim", "value": "772"})
    state, _ = act(state, 1, "claim", value="877")
    assert R.to_act(state) == [2] and state.claim == "877"


def test_an_exchange_discards_face_down_and_draws_as_many():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO, next_draws=[card(5), card(4)])
    state, _ = act(state, 0, "claim", value="772")
    state, _ = act(state, 1, "accept")
    discards_before = len(state.discard)
    state, events = act(state, 1, "exchange", cards=[0, 2])
    assert len(state.discard) == discards_before + 2
    assert sorted(C.digit(c) for c in state.hand) == [4, 5, 7]
    exchange = events[0]
    assert exchange.public == {"seat": 1, "count": 2}  # what was discarded stays face down
    assert set(exchange.private) == {1}


def test_keeping_all_three_cards_is_an_exchange_of_zero():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="772")
    state, _ = act(state, 1, "accept")
    state, _ = act(state, 1, "claim", value="773")
    assert state.claims[-1] == {"seat": 1, "exchanged": 0, "claim": "773"}


def test_an_exchange_may_not_exceed_three_cards_or_repeat_one():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="772")
    state, _ = act(state, 1, "accept")
    for bad in ([0, 0], [3], [], [0, 1, 2, 0]):
        with pytest.raises(IllegalAction):
            R.apply(state, 1, {"type": "exchange", "cards": bad})


def test_a_claim_of_999_cannot_be_accepted_and_must_be_called():
    """D: 999 cannot be accepted."""
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="999")
    assert [a["type"] for a in R.legal_actions(state, 1)] == ["call"]
    with pytest.raises(IllegalAction, match="999 cannot be accepted: you must call"):
        R.apply(state, 1, {"type": "accept"})


# --- The special 1000 -----------------------------------------------------------------------

ZEROS = [card(0), card(0, 2), card(0, 3)]  # 6 skulls


def test_a_thousand_on_the_opening_draw_is_revealed_automatically():
    """D: the 1000 is revealed by the server at once."""
    hand = [card(3), card(2), card(1)]
    state = rig(new(4), holder=0, hand=hand, next_draws=ZEROS, phase=RESPOND, claim="321")
    state, events = act(state, 1, "call")  # a true claim: seat 1 loses and starts, drawing 000
    thousand = next(e for e in events if e.type == "thousand").public
    assert thousand["moment"] == "draw" and thousand["seat"] == 1
    assert thousand["cards"] == C.show_all(ZEROS) and thousand["damage"] == 6
    assert state.life == [6, 12, 6, 6]
    assert state.holder == 1 and state.phase == CLAIM and len(state.hand) == 3


def test_a_thousand_costs_every_other_survivor_its_skulls_and_restores_the_holder():
    state = rig(new(4), holder=1, hand=SEVEN_SEVEN_TWO, next_draws=ZEROS)
    state.life = [10, 3, 0, 12]
    state.eliminated = [[2]]
    state, _ = act(state, 1, "claim", value="772")
    state, _ = act(state, 3, "call")  # true: seat 3 loses 3 and starts, drawing three zeros
    assert state.life == [4, 0, 0, 12]  # seats 0 and 1 took 6 (1 is out); 3 back to 12
    assert state.eliminated == [[2], [1]]
    assert state.holder == 3 and state.phase == CLAIM


def test_a_thousand_after_an_exchange_is_revealed_at_once():
    hand = [card(0), card(0, 2), card(5)]
    state = rig(new(), holder=0, hand=hand, next_draws=[card(0, 3)])
    state, _ = act(state, 0, "claim", value="500")
    state, _ = act(state, 1, "accept")
    state, events = act(state, 1, "exchange", cards=[2])
    thousand = next(e for e in events if e.type == "thousand").public
    assert thousand["moment"] == "exchange" and thousand["damage"] == 6
    assert state.life == [6, 12, 6]
    assert state.holder == 1 and state.stats[1]["thousands"] == 1


def test_a_thousand_after_accepting_is_still_checked():
    """Fine point: cannot arise while the 1000 is automatic, but the check is kept."""
    state = rig(new(), holder=0, hand=[card(9), card(9, copy=1), card(9, copy=2)])
    state.claim, state.phase, state.responder = "999", RESPOND, 1
    state.hand = ZEROS  # impossible by play: force it
    state.draw_pile = [c for c in range(50) if c not in ZEROS]
    state.claim = "100"
    state, events = act(state, 1, "accept")
    assert next(e for e in events if e.type == "thousand").public["moment"] == "accept"


def test_a_thousand_is_not_a_claim():
    assert not C.is_claim("1000")
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    with pytest.raises(IllegalAction):
        R.apply(state, 0, {"type": "claim", "value": "1000"})


def test_seats_knocked_out_by_one_event_share_a_place():
    hand = [card(3), card(2), card(1)]
    state = rig(new(4), holder=2, hand=hand, next_draws=ZEROS, phase=RESPOND, claim="321")
    state.life = [2, 2, 12, 12]
    state, _ = act(state, 3, "call")  # true: seat 3 loses 3, starts and reveals a 1000
    assert state.life == [0, 0, 6, 12] and state.eliminated == [[0, 1]]
    nines = [card(9, 3), card(8, 3), card(7, 3)]
    state = rig(state, holder=2, hand=nines, phase=RESPOND, claim="000")
    state, _ = act(state, 3, "call")  # false: seat 2 takes 9 and is out
    assert R.is_over(state)
    assert R.placements(state) == [3, 3, 2, 1]


# --- Rounds ---------------------------------------------------------------------------------


def test_revealed_cards_go_to_the_discard_pile():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="772")
    state, _ = act(state, 1, "call")
    assert set(SEVEN_SEVEN_TWO) <= set(state.discard)


def test_the_loser_starts_the_next_round_and_life_carries_over():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state.life = [12, 7, 12]
    state, _ = act(state, 0, "claim", value="880")
    state, events = act(state, 1, "call")
    assert state.holder == 0 and state.life == [9, 7, 12]
    assert "round_started" in types(events)


def test_when_the_loser_is_out_the_next_survivor_clockwise_starts():
    state = rig(new(4), holder=2, hand=[card(9, 3), card(8, 3), card(7, 3)])
    state.life = [12, 12, 1, 12]
    state, _ = act(state, 2, "claim", value="000")
    state, _ = act(state, 3, "call")
    assert state.life[2] == 0 and state.holder == 3


def test_deck_exhaustion_reshuffles_the_discards_and_held_cards_stay_out():
    """D: an empty draw pile is renewed from the shuffled discards."""
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="772")
    state, _ = act(state, 1, "accept")
    state.discard, state.draw_pile = state.draw_pile, []  # everything else is in the discards
    state, events = act(state, 1, "exchange", cards=[0])
    assert "reshuffle" in types(events)
    assert R.invariants(state) == []
    assert not set(state.hand[1:]) & set(state.draw_pile + state.discard)


def test_a_reshuffle_during_an_exchange_includes_the_cards_just_discarded():
    """D: discards go down first, then cards are drawn one at a time."""
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="772")
    state, _ = act(state, 1, "accept")
    last, *rest = state.draw_pile
    state.draw_pile, state.discard = [last], rest + state.discard  # one card left to draw
    assert len(state.discard) == 46
    state, events = act(state, 1, "exchange", cards=[0, 1])
    reshuffle = next(e for e in events if e.type == "reshuffle")
    assert reshuffle.public["cards"] == 48  # the 46 old discards and the 2 just discarded
    assert state.hand[0] == last and len(state.draw_pile) == 47 and state.discard == []
    assert R.invariants(state) == []


# --- Memory ---------------------------------------------------------------------------------


def test_a_player_recalls_the_last_cards_they_passed_on_marked_possibly_changed():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO, next_draws=[card(8)])
    state, _ = act(state, 0, "claim", value="772")
    state, _ = act(state, 1, "accept")
    state, _ = act(state, 1, "exchange", cards=[2])
    memory = R.view(state, 0)["private"]["memory"]
    assert memory["cards"] == C.show_all(SEVEN_SEVEN_TWO)
    assert memory["possibly_changed"] is True and memory["claim"] == "772"
    assert R.view(state, 2)["private"]["memory"] is None
    assert "memory" not in json.dumps(R.view(state, None)["public"])


# --- The end --------------------------------------------------------------------------------


def test_the_last_player_with_life_wins_and_places_follow_reverse_elimination():
    state = rig(new(4), holder=0, hand=[card(9, 3), card(8, 3), card(7, 3)])
    state.life = [1, 12, 0, 1]
    state.eliminated = [[2]]
    state, _ = act(state, 0, "claim", value="000")
    state, _ = act(state, 1, "call")  # seat 0 out
    state = rig(state, holder=1, hand=[card(9, 3), card(8, 3), card(7, 3)])
    state, _ = act(state, 1, "claim", value="999")
    state, events = act(state, 3, "call")  # false: seat 1 takes 9 and survives at 3
    assert not R.is_over(state)
    state = rig(state, holder=1, hand=[card(9, 3), card(8, 3), card(7, 3)])
    state, _ = act(state, 1, "claim", value="987")
    state, events = act(state, 3, "call")  # true: seat 3 loses 9 -> out, seat 1 wins
    assert R.is_over(state) and "match_over" in types(events)
    assert R.placements(state) == [3, 1, 4, 2]
    assert R.to_act(state) == [] and R.view(state, 1)["placements"] == [3, 1, 4, 2]


def test_a_finished_match_accepts_no_action():
    result = play_match(R, 3, {}, seed_from_int(5), ["random"] * 3)
    state = R.from_json(play_state(result.record))
    assert R.is_over(state)
    with pytest.raises(NotYourTurn, match="over"):
        R.apply(state, 0, {"type": "call"})


def play_state(record: dict) -> dict:
    state = R.new_game(record["seats"], record["options"], record["seed"]).state
    for step in record["steps"]:
        state = R.apply(state, step["seat"], step["action"]).state
    return R.to_json(state)


# --- Bluff statistics -----------------------------------------------------------------------


def test_bluff_statistics_count_claims_bluffs_calls_accepts_and_damage():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO, next_draws=[card(8)])
    state, _ = act(state, 0, "claim", value="773")  # bluff
    state, _ = act(state, 1, "accept")  # the bluff passed
    state, _ = act(state, 1, "exchange", cards=[2])  # now 877
    state, _ = act(state, 1, "claim", value="877")  # true
    state, _ = act(state, 2, "call")  # wrong call: seat 2 takes the skulls
    damage = C.skull_total([card(7), card(7, copy=1), card(8)])
    s0, s1, s2 = R.stats(state)
    assert s0 | {} == {**s0, "claims": 1, "bluffs": 1, "bluffs_passed": 1, "bluffs_called": 0}
    assert (s1["claims"], s1["bluffs"], s1["accepts"], s1["damage_dealt"]) == (1, 0, 1, damage)
    assert (s2["calls"], s2["calls_right"], s2["damage_taken"]) == (1, 0, damage)
    assert set(s0) == {
        "claims",
        "bluffs",
        "bluffs_called",
        "bluffs_passed",
        "calls",
        "calls_right",
        "accepts",
        "damage_taken",
        "damage_dealt",
        "thousands",
    }


def test_a_called_bluff_counts_for_both_sides():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    state, _ = act(state, 0, "claim", value="900")
    state, _ = act(state, 1, "call")
    assert state.stats[0]["bluffs_called"] == 1 and state.stats[1]["calls_right"] == 1


def test_damage_statistics_count_full_skulls_even_beyond_the_life_left():
    """Fine point: damage_taken/damage_dealt count every skull of the revealed cards."""
    state = rig(new(), holder=0, hand=[card(9, 3), card(8, 3), card(7, 3)])
    state.life = [2, 12, 12]
    state, _ = act(state, 0, "claim", value="999")
    state, _ = act(state, 1, "call")
    assert state.stats[0]["damage_taken"] == 9 and state.stats[1]["damage_dealt"] == 9


def test_bluff_statistics_are_not_in_any_view():
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    for seat in (None, 0, 1, 2):
        assert "bluffs" not in json.dumps(R.view(state, seat))


# --- Illegal actions ------------------------------------------------------------------------


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    """D: illegal actions are rejected, never penalised."""
    state = rig(new(), holder=0, hand=SEVEN_SEVEN_TWO)
    before = R.state_digest(state)
    cases = [
        (1, {"type": "claim", "value": "772"}, "not your turn"),
        (0, {"type": "call"}, "not possible now; you can: claim"),
        (0, {"type": "claim"}, "needs the parameter 'value'"),
        (0, {"type": "claim", "value": "772", "hand": [1]}, "no parameter 'hand'"),
        (0, {"type": "claim", "value": True}, "three-digit number"),
        (0, [], 'string "type"'),
    ]
    for seat, action, reason in cases:
        with pytest.raises(IllegalAction, match=reason):
            R.apply(state, seat, action)
    assert R.state_digest(state) == before


# --- Golden playthroughs --------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_golden_playthrough_is_unchanged(seed):
    """A seeded match pinned move by move; regenerate with FIBSERVER_REGEN_GOLDEN=1."""
    import os

    result = play_match(R, 4, {}, seed_from_int(seed), ["random"] * 4, bot_seed=seed)
    path = GOLDEN / f"fabfib-seed-{seed}.json"
    text = json.dumps(result.record, indent=1, sort_keys=True)
    if os.environ.get("FIBSERVER_REGEN_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n")
    assert path.exists(), f"{path} is missing: run with FIBSERVER_REGEN_GOLDEN=1"
    assert json.loads(path.read_text()) == json.loads(text)
    assert verify(json.loads(text)) == []


def test_hidden_variant_keeps_everything_the_seat_sees():
    state = new(5, seed=9)
    twin = R.hidden_variant(state, state.holder, random.Random(1))
    assert twin.hand == state.hand and twin.draw_pile != state.draw_pile
