"""Fibber, rule by rule (docs/rules/fibber.md), standard and easy rules.

D and "ours" = decisions taken where the original rules are silent (all listed in
docs/rules/fibber.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from games.engine import registry
from games.engine.core import IllegalAction, InvalidOptions, NotYourTurn, copy_json
from games.engine.fibber import cards as C
from games.engine.fibber.rules import Fibber
from games.engine.fibber.state import CALL, LAST_CALL, OVER, PLAY, FibberState
from games.engine.replay import verify
from games.engine.rng import seed_from_int
from games.engine.simulate import play_match, simulate

R = Fibber()
EASY = {"variant": "easy"}


# --- Helpers ---------------------------------------------------------------------------


def new(seats: int = 4, options: dict | None = None, seed: int = 1) -> FibberState:
    return R.new_game(seats, options or {}, seed_from_int(seed)).state


def rig(
    state: FibberState,
    hands: dict[int, list[str]],
    *,
    turn: int = 0,
    rank: str | None = "bigfoot",
    pile: Sequence[str] = (),
    rest: int | None = None,
) -> FibberState:
    """Give seats exactly these cards (by rank name). The remaining cards go to seat ``rest``,
    or, when ``rest`` is None, into the pile as one earlier play by the seat before ``turn``."""
    free = {name: [c for c in range(C.DECK_SIZE) if C.name(c) == name] for name in C.NAMES}

    def take(names: list[str]) -> list[int]:
        return [free[n].pop() for n in names]

    state.hands = [sorted(take(hands.get(s, []))) for s in range(state.seats)]
    state.pile = take(list(pile))
    state.set_aside = take([n for n in C.NAMES for _ in free[n]][: len(state.set_aside)])
    leftover = [c for n in C.NAMES for c in free[n]]
    if rest is None:
        state.pile += leftover
    else:
        state.hands[rest] = sorted(state.hands[rest] + leftover)
    before = (turn - 1) % state.seats
    state.pile_plays = (
        [{"seat": before, "count": len(state.pile), "rank": "dragon"}] if state.pile else []
    )
    state.turn = turn
    state.phase = PLAY
    state.rank = None if rank is None else C.RANKS.index(rank)
    state.last_play = None
    state.can_call = False
    assert R.invariants(state) == []
    return state


def at(state: FibberState, seat: int, *names: str) -> list[int]:
    """Hand positions of these ranks in ``seat``'s hand (first copies first)."""
    hand = C.names(state.hands[seat])
    out: list[int] = []
    for name in names:
        out.append(next(i for i, n in enumerate(hand) if n == name and i not in out))
    return out


def act(state: FibberState, seat: int, kind: str, **params) -> tuple[FibberState, list]:
    step = R.apply(state, seat, {"type": kind, **params})
    assert R.invariants(step.state) == []
    return step.state, step.events


def play(state: FibberState, seat: int, *names: str, rank: str | None = None):
    params: dict = {"cards": at(state, seat, *names)}
    if rank is not None:
        params["rank"] = rank
    return act(state, seat, "play", **params)


def types(events: list) -> list[str]:
    return [e.type for e in events]


# --- Both variants: cards, players, options ---------------------------------------------


def test_deck_is_24_cards_four_each_of_five_ranks_and_four_wilds():
    assert [C.name(c) for c in range(C.DECK_SIZE)].count("wild") == 4
    for name in C.RANKS:
        assert [C.name(c) for c in range(C.DECK_SIZE)].count(name) == 4
    assert C.RANKS == ("bigfoot", "ghost", "alien", "witch", "dragon")


@pytest.mark.parametrize("options", [{}, EASY])
def test_two_to_six_players_D(options):
    for seats in (2, 3, 4, 5, 6):
        assert new(seats, options).seats == seats
    for seats in (1, 7):
        with pytest.raises(InvalidOptions):
            new(seats, options)


@pytest.mark.parametrize("options", [{}, EASY])
@pytest.mark.parametrize("seats,per_hand", [(2, 12), (3, 8), (4, 6), (6, 4)])
def test_all_cards_deal_evenly_to_2_3_4_and_6_players(options, seats, per_hand):
    state = new(seats, options)
    assert [len(h) for h in state.hands] == [per_hand] * seats
    assert state.set_aside == [] and state.pile == []


@pytest.mark.parametrize("options", [{}, EASY])
def test_five_players_set_aside_four_cards_face_down_unseen_until_the_next_deal_D(options):
    state = new(5, options)
    assert [len(h) for h in state.hands] == [4] * 5 and len(state.set_aside) == 4
    for seat in [None, *range(5)]:
        view = R.view(state, seat)
        assert view["public"]["set_aside"] == 4
        assert "set_aside" not in json.dumps(view["private"])
    # The next deal collects them with everything else: over many deals every card is dealt.
    dealt = set()
    for seed in range(40):
        dealt |= {c for h in new(5, options, seed).hands for c in h}
    assert dealt == set(range(C.DECK_SIZE))


def test_options_default_to_standard_with_300_max_plays():
    assert R.normalize_options(4, {}) == {"variant": "standard", "max_plays": 300}
    assert R.normalize_options(4, {"variant": "easy"}) == {"variant": "easy"}


def test_unknown_variant_or_option_is_refused():
    for options in ({"variant": "hard"}, {"variant": None}, {"noses": 3}, {"max_plays": "300"}):
        with pytest.raises(InvalidOptions):
            new(4, options)


def test_max_plays_option_is_50_to_2000_D():
    assert new(4, {"max_plays": 50}).options["max_plays"] == 50
    assert new(4, {"max_plays": 2000}).options["max_plays"] == 2000
    for bad in (49, 2001, True, 300.0):
        with pytest.raises(InvalidOptions):
            new(4, {"max_plays": bad})


def test_easy_rules_have_no_max_plays_option_ours():
    with pytest.raises(InvalidOptions, match="standard rules only"):
        new(4, {"variant": "easy", "max_plays": 300})


def test_registry_serves_fibber():
    assert registry.get("fibber").game_id == "fibber"


# --- Standard: set-up ---------------------------------------------------------------------


def test_random_dealer_and_the_player_after_the_dealer_plays_first():
    dealers = set()
    for seed in range(30):
        state = new(4, seed=seed)
        dealers.add(state.dealer)
        assert state.turn == (state.dealer + 1) % 4
        assert R.to_act(state) == [state.turn]
    assert dealers == {0, 1, 2, 3}


def test_silver_nose_marks_bigfoot_and_ten_plain_noses_are_on_the_table():
    view = R.view(new(4), None)["public"]
    assert view["silver_nose_rank"] == "bigfoot" and view["silver_nose"] is None
    assert view["table_noses"] == 10 and view["noses"] == [0, 0, 0, 0]


# --- Standard: turns ------------------------------------------------------------------------


def test_a_play_is_one_or_more_cards_from_the_hand():
    state = rig(new(4), {0: ["bigfoot", "ghost", "alien"], 1: ["ghost"], 2: ["alien"]}, rest=3)
    [spec] = R.legal_actions(state, 0)
    assert spec["type"] == "play"
    assert spec["params"]["cards"] == {"subset_of": [0, 1, 2], "min": 1, "max": 3}
    for bad in ([], [3], [0, 0]):
        with pytest.raises(IllegalAction):
            R.apply(state, 0, {"type": "play", "cards": bad})
    after, _ = act(state, 0, "play", cards=[0, 1, 2])
    assert after.hands[0] == [] and after.phase == CALL


def test_the_announced_count_is_public_and_the_cards_are_not():
    state = rig(new(4), {0: ["witch", "alien", "bigfoot"]}, rest=1)
    after, events = play(state, 0, "witch", "alien")
    [event] = events
    for seat in (None, 1, 2, 3):
        seen = event.for_seat(seat)
        assert seen["count"] == 2 and seen["rank"] == "bigfoot" and "private" not in seen
        assert "witch" not in json.dumps(R.view(after, seat)["public"])
    assert event.for_seat(0)["private"] == {"cards": ["alien", "witch"]}
    assert R.view(after, 1)["public"]["last_play"] == {"seat": 0, "count": 2, "rank": "bigfoot"}


def test_silver_nose_moves_to_the_next_rank_after_every_play_and_cycles_back_to_bigfoot():
    state = rig(new(2), {0: ["wild"] * 4}, rest=1)
    seen = []
    for _ in range(7):
        seen.append(C.RANKS[state.rank])
        player = state.turn
        state, _ = act(state, player, "play", cards=[0])
        state, _ = act(state, 1 - player, "pass")
    assert seen == ["bigfoot", "ghost", "alien", "witch", "dragon", "bigfoot", "ghost"]


def test_a_wild_counts_as_the_announced_rank():
    state = rig(new(3), {0: ["bigfoot", "wild", "ghost"], 1: ["alien"]}, rest=2)
    state, _ = play(state, 0, "bigfoot", "wild")
    after, _ = act(state, 1, "call")
    assert after.last_call["fib"] is False and after.last_call["loser"] == 1


def test_a_play_is_a_fib_when_any_card_is_neither_the_rank_nor_wild():
    state = rig(new(3), {0: ["bigfoot", "wild", "ghost", "alien"], 1: ["alien"]}, rest=2)
    state, _ = play(state, 0, "bigfoot", "wild", "ghost")
    after, _ = act(state, 1, "call")
    assert after.last_call["fib"] is True and after.last_call["loser"] == 0


# --- Standard: the call window (D) ---------------------------------------------------------


def test_every_other_player_answers_call_or_pass_in_any_order_D():
    state = rig(new(4), {0: ["bigfoot", "ghost"]}, rest=1)
    state, _ = play(state, 0, "bigfoot")
    assert R.to_act(state) == [1, 2, 3]
    for seat in (1, 2, 3):
        assert sorted(s["type"] for s in R.legal_actions(state, seat)) == ["call", "pass"]
    with pytest.raises(NotYourTurn):
        R.apply(state, 0, {"type": "call"})
    state, _ = act(state, 3, "pass")  # any order
    assert R.to_act(state) == [1, 2]
    state, _ = act(state, 1, "pass")
    assert R.to_act(state) == [2] and R.view(state, None)["public"]["passed"] == [3, 1]


def test_the_first_call_ends_the_window_D():
    state = rig(new(4), {0: ["bigfoot", "ghost"]}, rest=1)
    state, _ = play(state, 0, "ghost")
    state, _ = act(state, 2, "pass")
    state, events = act(state, 3, "call")
    assert "call" in types(events) and state.phase == PLAY and R.to_act(state) == [1]
    with pytest.raises(NotYourTurn):
        R.apply(state, 2, {"type": "call"})


def test_when_all_others_pass_the_play_stands_and_the_next_player_takes_the_next_rank():
    state = rig(new(3), {0: ["dragon", "ghost"]}, rest=1)
    state, _ = play(state, 0, "dragon")  # a fib, but nobody calls
    state, _ = act(state, 1, "pass")
    state, events = act(state, 2, "pass")
    assert types(events) == ["pass", "play_stood"]
    assert state.phase == PLAY and state.turn == 1 and C.RANKS[state.rank] == "ghost"
    assert state.hands[0] and state.noses == [0, 0, 0]


def test_caught_fibber_takes_a_nose_and_all_cards_of_the_discard_pile():
    state = rig(new(3), {0: ["dragon", "ghost"], 1: ["alien"]}, pile=["witch"] * 3, rest=2)
    state, _ = play(state, 0, "dragon")
    pile = len(state.pile)
    state, events = act(state, 1, "call")
    assert state.noses == [1, 0, 0] and state.table_noses == 9
    assert state.pile == [] and len(state.hands[0]) == 1 + pile
    call = next(e for e in events if e.type == "call")
    assert call.public["fib"] is True and call.public["pile_taken"] == pile
    assert call.public["cards"] is None  # a fibber does not show the cards (ours)
    assert call.for_seat(0)["private"]["taken"].count("dragon") == 1
    assert "private" not in call.for_seat(1)


def test_wrong_caller_takes_a_nose_and_all_cards_of_the_discard_pile_and_sees_them_shown():
    state = rig(new(3), {0: ["bigfoot", "wild", "ghost"], 1: ["alien"]}, pile=["witch"], rest=2)
    state, _ = play(state, 0, "bigfoot", "wild")
    state, _ = act(state, 1, "call")
    assert state.noses == [0, 1, 0] and state.pile == []
    assert C.names(state.hands[1]) == ["bigfoot", "alien", "witch", "wild"]
    assert state.last_call["cards"] == ["bigfoot", "wild"]  # a true play is shown to all
    assert R.view(state, 2)["public"]["last_call"]["cards"] == ["bigfoot", "wild"]


@pytest.mark.parametrize("fib", [True, False])
def test_either_way_play_continues_with_the_player_after_the_one_who_played_on_the_next_rank(
    fib,
):
    hands = {1: ["ghost", "alien"], 2: ["witch"], 3: ["dragon"]}
    state = rig(new(4), hands, turn=1, rank="ghost", rest=0)
    state, _ = play(state, 1, "alien" if fib else "ghost")
    state, _ = act(state, 3, "call")
    assert state.last_call["fib"] is fib
    assert state.phase == PLAY and state.turn == 2 and C.RANKS[state.rank] == "alien"


# --- Standard: noses ------------------------------------------------------------------------


def test_plain_noses_are_taken_first_then_the_silver_nose():
    state = rig(new(2), {0: ["dragon"] * 4}, rest=1)
    state.table_noses, state.noses = 2, [5, 3]
    taken = []
    for _ in range(3):
        state, _ = play(state, 0, "dragon")  # never on Dragon here: a fib
        state, _ = act(state, 1, "call")
        taken.append(state.last_call["nose"])
        if R.is_over(state):
            break
        state.turn = 0  # let seat 0 play (and fib) again
    assert taken == ["plain", "plain", "silver"]
    assert state.table_noses == 0 and state.noses == [7, 3] and state.silver == 0


def test_silver_nose_taken_last_ends_the_game():
    state = rig(new(3), {0: ["dragon", "ghost"]}, rest=1)
    state.table_noses, state.noses = 0, [4, 3, 3]
    state, _ = play(state, 0, "dragon")
    state, events = act(state, 2, "call")
    assert state.last_call["nose"] == "silver" and state.silver == 0
    assert R.is_over(state) and state.end_reason == "silver_nose"
    assert types(events)[-1] == "match_over" and R.to_act(state) == []
    assert R.view(state, None)["public"]["nose_counts"] == [5, 3, 3]


def test_silver_nose_for_a_wrong_caller_also_ends_the_game():
    state = rig(new(3), {0: ["bigfoot", "ghost"]}, rest=1)
    state.table_noses, state.noses = 0, [4, 3, 3]
    state, _ = play(state, 0, "bigfoot")
    state, _ = act(state, 1, "call")
    assert state.silver == 1 and R.is_over(state)


# --- Standard: the empty hand ------------------------------------------------------------


def test_empty_hand_when_the_play_stands_returns_noses_and_redeals_next_player_on_bigfoot():
    state = rig(new(4), {2: ["witch"]}, turn=2, rank="witch", rest=0)
    state.noses, state.table_noses = [1, 2, 3, 0], 4
    state, _ = play(state, 2, "witch")
    state, _ = act(state, 3, "pass")
    state, _ = act(state, 0, "pass")
    state, events = act(state, 1, "pass")
    assert types(events) == ["pass", "play_stood", "hand_emptied", "dealt"]
    assert state.noses == [1, 2, 0, 0] and state.table_noses == 7
    assert [len(h) for h in state.hands] == [6] * 4 and state.pile == []
    assert state.deal == 2 and state.turn == 3 and C.RANKS[state.rank] == "bigfoot"
    assert state.stats[2]["hands_emptied"] == 1
    for seat in range(4):
        assert events[-1].for_seat(seat)["private"]["hand"] == C.names(state.hands[seat])


def test_empty_hand_after_a_failed_call_also_returns_noses_and_redeals():
    state = rig(new(3), {1: ["wild", "ghost"], 2: ["witch"]}, turn=1, rest=0)
    state.noses, state.table_noses = [0, 2, 0], 8
    state, _ = play(state, 1, "wild", "ghost")  # announced as 2 Bigfoot: a fib
    state, _ = act(state, 2, "pass")
    state, events = act(state, 0, "call")
    assert state.last_call["fib"] is True  # caught: the fibber holds the pile, no reset
    assert "hand_emptied" not in types(events) and state.noses == [0, 3, 0]

    state = rig(new(3), {1: ["bigfoot", "wild"], 2: ["witch"]}, turn=1, rest=0)
    state.noses, state.table_noses = [0, 2, 0], 8
    state, _ = play(state, 1, "bigfoot", "wild")
    state, events = act(state, 0, "call")
    assert types(events) == ["call", "hand_emptied", "dealt"]
    assert state.noses == [1, 0, 0] and state.table_noses == 9 and state.turn == 2


def test_silver_nose_call_on_a_player_who_emptied_their_hand_still_returns_noses_no_redeal():
    """Fine points: the call hands out the Silver Nose and leaves the player empty-handed."""
    state = rig(new(3), {1: ["bigfoot"]}, turn=1, rest=0)
    state.noses, state.table_noses = [4, 3, 3], 0
    state, _ = play(state, 1, "bigfoot")
    state, events = act(state, 2, "call")
    assert types(events) == ["call", "hand_emptied", "match_over"]
    assert state.silver == 2 and state.noses == [4, 0, 3] and state.table_noses == 3
    assert state.stats[1]["hands_emptied"] == 1 and state.hands[1] == []
    assert R.placements(state) == [3, 1, 2]


# --- Standard: the end --------------------------------------------------------------------


def test_placement_is_fewest_noses_then_fewest_cards_and_remaining_ties_share():
    state = rig(new(4), {0: ["ghost"] * 2, 1: ["alien"] * 2, 2: ["witch"]}, rest=3)
    state.noses, state.table_noses, state.silver = [2, 2, 2, 1], 3, 3
    state.phase = OVER
    # noses with the Silver: [2, 2, 2, 2]; cards: [2, 2, 1, 19]
    assert R.placements(state) == [2, 2, 1, 4]
    state.silver = 2  # now seat 2 wears 3 and seat 3 wears 1
    assert R.placements(state) == [2, 2, 4, 1]


def test_safety_end_after_max_plays_resolved_plays_D():
    state = rig(new(2, {"max_plays": 50}), {0: ["bigfoot", "ghost"]}, rest=1)
    state.plays = 49
    state, _ = play(state, 0, "bigfoot")
    assert not R.is_over(state)  # checked when the call window closes
    state, events = act(state, 1, "pass")
    assert R.is_over(state) and state.end_reason == "max_plays" and state.plays == 50
    assert types(events)[-1] == "match_over"


def test_safety_end_with_an_emptied_hand_returns_noses_but_does_not_redeal_D():
    state = rig(new(2, {"max_plays": 50}), {0: ["bigfoot"]}, rest=1)
    state.plays, state.noses, state.table_noses = 49, [3, 1], 6
    state, _ = play(state, 0, "bigfoot")
    state, events = act(state, 1, "pass")
    assert types(events) == ["pass", "play_stood", "hand_emptied", "match_over"]
    assert state.noses == [0, 1] and state.hands[0] == [] and R.placements(state) == [1, 2]


def test_standard_random_tables_end_by_the_silver_nose_or_the_safety_end_D():
    summary = simulate(R, matches=100, seats=2, seed="ends", options={"max_plays": 50})
    assert summary["finished"] == 100 and summary["errors"] == 0


def test_bluff_statistics_of_the_standard_rules():
    state = rig(new(3), {0: ["dragon", "ghost", "bigfoot"], 1: ["ghost", "alien"]}, rest=2)
    state, _ = play(state, 0, "dragon")  # fib, called: right
    state, _ = act(state, 1, "call")
    state, _ = play(state, 1, "ghost")  # true, called: wrong
    state, _ = act(state, 0, "call")
    state, _ = play(state, 2, C.names(state.hands[2])[0])  # stands
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    stats = R.stats(state)
    assert set(stats[0]) == {
        "plays",
        "fibs",
        "fibs_called",
        "fibs_stood",
        "calls",
        "calls_right",
        "noses_taken",
        "hands_emptied",
    }
    assert stats[0] == {
        "plays": 1,
        "fibs": 1,
        "fibs_called": 1,
        "fibs_stood": 0,
        "calls": 1,
        "calls_right": 0,
        "noses_taken": 2,
        "hands_emptied": 0,
    }
    assert stats[1]["calls"] == 1 and stats[1]["calls_right"] == 1 and stats[1]["plays"] == 1
    assert stats[2]["plays"] == 1 and stats[2]["fibs"] == stats[2]["fibs_stood"]


def test_bluff_statistics_stay_out_of_every_view():
    state = new(4)
    for seat in [None, 0, 1]:
        assert "fibs" not in json.dumps(R.view(state, seat))


# --- Standard: views and errors -----------------------------------------------------------


def test_a_seat_sees_its_hand_hand_sizes_pile_size_announcements_and_noses():
    state = rig(new(3), {0: ["ghost", "bigfoot"], 1: ["alien"]}, pile=["witch"], rest=2)
    state, _ = play(state, 0, "ghost")
    view = R.view(state, 0)
    assert view["private"] == {"hand": ["bigfoot"]}
    pub = view["public"]
    assert pub["hand_sizes"] == [1, 1, 20] and pub["pile"] == 2
    assert pub["pile_plays"][-1] == {"seat": 0, "count": 1, "rank": "bigfoot"}
    assert pub["noses"] == [0, 0, 0] and pub["table_noses"] == 10
    assert R.view(state, None)["private"] is None


def test_illegal_actions_are_rejected_with_a_reason_and_change_nothing_D():
    state = rig(new(3), {0: ["ghost", "bigfoot"]}, rest=1)
    before = R.state_digest(state)
    with pytest.raises(IllegalAction, match="positions 0–1"):
        R.apply(state, 0, {"type": "play", "cards": [5]})
    with pytest.raises(IllegalAction, match="your turn to play"):
        R.apply(state, 0, {"type": "pass"})
    state2, _ = play(state, 0, "ghost")
    with pytest.raises(IllegalAction, match="call or pass"):
        R.apply(state2, 1, {"type": "play", "cards": [0]})
    assert R.state_digest(state) == before


def test_clone_is_a_deep_copy_ours():
    state = new(5)
    for _ in range(30):
        seat = R.to_act(state)[0]
        state = R.apply(
            state, seat, {"type": "pass"} if state.phase == CALL else {"type": "play", "cards": [0]}
        ).state
    twin = R.clone(state)
    assert vars(twin) == copy_json(vars(state))
    for key, value in vars(twin).items():
        if isinstance(value, (list, dict)):
            assert value is not vars(state)[key], key


# --- Easy rules -----------------------------------------------------------------------------


def test_easy_five_rounds_with_the_dealer_moving_one_seat_clockwise_each_round():
    state = new(3, EASY, seed=4)
    dealers, starters = [state.dealer], [state.turn]
    rng = random.Random(1)
    while not R.is_over(state):
        seat = R.to_act(state)[0]
        spec = rng.choice(R.legal_actions(state, seat))
        action = {"type": spec["type"]}
        for name, domain in spec["params"].items():
            action[name] = domain.get("one_of", domain.get("subset_of"))[:1]
            if name == "rank":
                action[name] = action[name][0]
        round_before = state.deal
        state = R.apply(state, seat, action).state
        if state.deal != round_before and not R.is_over(state):
            dealers.append(state.dealer)
            starters.append(state.turn)
    assert len(dealers) == 5 and state.deal == 5
    assert dealers == [(dealers[0] + k) % 3 for k in range(5)]
    assert starters == [(d + 1) % 3 for d in dealers]
    assert state.end_reason == "rounds"


def test_easy_every_play_is_exactly_one_card():
    state = rig(new(3, EASY), {0: ["ghost", "alien"]}, rank=None, rest=1)
    [spec] = R.legal_actions(state, 0)
    assert spec["params"]["cards"] == {"subset_of": [0, 1], "min": 1, "max": 1}
    with pytest.raises(IllegalAction, match="exactly one card"):
        R.apply(state, 0, {"type": "play", "cards": [0, 1], "rank": "ghost"})


def test_easy_the_starter_chooses_any_card_and_announces_any_rank_but_never_wild():
    state = rig(new(3, EASY), {0: ["ghost", "alien"]}, rank=None, rest=1)
    [spec] = R.legal_actions(state, 0)
    assert spec["params"]["rank"] == {"one_of": list(C.RANKS)}
    with pytest.raises(IllegalAction, match="Wild cannot be announced"):
        R.apply(state, 0, {"type": "play", "cards": [0], "rank": "wild"})
    state, _ = play(state, 0, "alien", rank="witch")
    assert R.view(state, 2)["public"]["rank_in_play"] == "witch"


def test_easy_the_next_player_plays_one_card_announcing_the_rank_in_play():
    state = rig(new(3, EASY), {0: ["ghost", "alien"], 1: ["dragon", "bigfoot"]}, rank=None, rest=2)
    state, _ = play(state, 0, "ghost", rank="ghost")
    specs = {s["type"]: s for s in R.legal_actions(state, 1)}
    assert specs["play"]["params"]["rank"] == {"one_of": ["ghost"]}
    with pytest.raises(IllegalAction, match="rank in play is Ghost"):
        R.apply(state, 1, {"type": "play", "cards": [0], "rank": "dragon"})
    state, _ = play(state, 1, "dragon", rank="ghost")  # any card, announced as Ghost
    assert state.turn == 2 and R.view(state, 2)["public"]["rank_in_play"] == "ghost"


def test_easy_only_the_next_player_may_call():
    state = rig(new(4, EASY), {0: ["ghost", "alien"]}, rank=None, rest=1)
    state, _ = play(state, 0, "alien", rank="ghost")
    assert R.to_act(state) == [1]
    assert sorted(s["type"] for s in R.legal_actions(state, 1)) == ["call", "play"]
    for seat in (0, 2, 3):
        with pytest.raises(NotYourTurn):
            R.apply(state, seat, {"type": "call"})


def test_easy_no_fib_caller_takes_a_nose_then_plays_any_card_announcing_any_rank():
    state = rig(new(3, EASY), {0: ["ghost", "alien"], 1: ["dragon", "bigfoot"]}, rank=None, rest=2)
    state, _ = play(state, 0, "ghost", rank="ghost")
    state, _ = act(state, 1, "call")
    assert state.noses == [0, 1, 0] and state.last_call["fib"] is False
    assert state.last_call["cards"] == ["ghost"] and len(state.pile) == 1
    assert state.turn == 1 and state.rank is None
    [spec] = R.legal_actions(state, 1)
    assert spec["params"]["rank"] == {"one_of": list(C.RANKS)}


def test_easy_fib_the_player_takes_the_card_back_and_a_nose_then_plays_any_card():
    state = rig(new(3, EASY), {0: ["ghost", "alien"], 1: ["dragon"]}, rank=None, rest=2)
    state, _ = play(state, 0, "alien", rank="ghost")
    state, events = act(state, 1, "call")
    assert state.noses == [1, 0, 0] and state.last_call["fib"] is True
    assert C.names(state.hands[0]) == ["ghost", "alien"] and state.pile == []
    assert state.last_call["cards"] is None
    assert events[0].for_seat(0)["private"] == {"taken_back": "alien"}
    assert "private" not in events[0].for_seat(1)
    assert state.turn == 0 and state.rank is None


def test_easy_a_wild_is_never_a_fib():
    state = rig(new(3, EASY), {0: ["wild", "alien"], 1: ["dragon"]}, rank=None, rest=2)
    state, _ = play(state, 0, "wild", rank="dragon")
    state, _ = act(state, 1, "call")
    assert state.last_call["fib"] is False and state.noses == [0, 1, 0]
    assert state.stats[0]["fibs"] == 0


def test_easy_players_with_no_cards_are_skipped_the_answer_comes_from_the_next_holder():
    state = rig(new(4, EASY), {0: ["ghost", "alien"], 1: [], 2: []}, rank=None, rest=3)
    state, _ = play(state, 0, "ghost", rank="ghost")
    assert R.to_act(state) == [3]


def test_easy_if_no_other_seat_holds_cards_the_play_stands_and_the_same_player_plays_again():
    state = rig(new(3, EASY), {0: ["ghost", "alien", "witch"]}, rank=None)  # 1 and 2: empty
    state, _ = play(state, 0, "alien", rank="ghost")  # a fib nobody can call
    assert R.to_act(state) == [0] and [s["type"] for s in R.legal_actions(state, 0)] == ["play"]
    assert state.rank == C.RANKS.index("ghost")  # ours: the same rank stays in play
    assert state.stats[0]["fibs_stood"] == 1
    with pytest.raises(IllegalAction, match="nobody to answer"):
        R.apply(state, 0, {"type": "call"})


def _last_card_position(seats: int = 3) -> FibberState:
    """Everyone else is empty; seat 0 holds one Ghost and the rest of the cards are played."""
    state = rig(new(seats, EASY), {0: ["ghost"]}, rank=None, rest=None)
    for seat in range(1, seats):
        state.hands[seat] = []
    state.pile_plays = [{"seat": 1, "count": len(state.pile), "rank": "dragon"}]
    assert R.invariants(state) == []
    return state


def test_easy_when_every_hand_is_empty_the_next_seat_may_call_the_last_card_or_pass_D():
    state, _ = play(_last_card_position(), 0, "ghost", rank="witch")
    assert state.phase == LAST_CALL and R.to_act(state) == [1]
    assert sorted(s["type"] for s in R.legal_actions(state, 1)) == ["call", "pass"]
    after, events = act(state, 1, "pass")
    assert types(events)[:2] == ["pass", "round_over"] and after.deal == 2
    assert after.stats[0]["fibs_stood"] == 1


def test_easy_a_caller_who_must_then_play_with_no_card_ends_the_round_D():
    state, _ = play(_last_card_position(), 0, "ghost", rank="ghost")
    state, events = act(state, 1, "call")
    assert types(events)[:2] == ["call", "round_over"]
    assert events[1].public["noses"] == [0, 1, 0] and state.scores == [0, 1, 0]
    assert state.deal == 2 and state.noses == [0, 0, 0]


def test_easy_a_caught_last_card_fibber_takes_it_back_and_plays_again():
    state, _ = play(_last_card_position(), 0, "ghost", rank="witch")
    state, _ = act(state, 1, "call")
    assert state.phase == PLAY and state.turn == 0 and state.rank is None
    assert C.names(state.hands[0]) == ["ghost"] and state.noses == [1, 0, 0]
    state, _ = play(state, 0, "ghost", rank="ghost")
    assert state.phase == LAST_CALL and R.to_act(state) == [1]


def test_easy_noses_are_unlimited():
    state = rig(new(2, EASY), {0: ["ghost", "alien"], 1: ["bigfoot"]}, rank=None, rest=1)
    state.noses = [11, 0]
    state, _ = play(state, 0, "alien", rank="ghost")
    state, _ = act(state, 1, "call")
    assert state.noses == [12, 0]


def test_easy_score_is_noses_and_after_five_rounds_the_lowest_total_wins_ties_share():
    state, _ = play(_last_card_position(4), 0, "ghost", rank="ghost")
    state.deal, state.scores, state.noses = 5, [3, 2, 6, 1], [0, 1, 0, 1]
    state, events = act(state, 1, "pass")
    assert R.is_over(state) and state.scores == [3, 3, 6, 2]
    assert R.placements(state) == [2, 2, 4, 1]
    assert events[-1].public["placements"] == [2, 2, 4, 1]


def test_easy_bluff_statistics_have_no_hands_emptied_ours():
    state = rig(new(2, EASY), {0: ["ghost", "alien", "wild"], 1: ["bigfoot"]}, rank=None, rest=1)
    state, _ = play(state, 0, "alien", rank="ghost")  # fib, called
    state, _ = act(state, 1, "call")
    state, _ = play(state, 0, "wild", rank="dragon")  # never a fib, called wrongly
    state, _ = act(state, 1, "call")
    state, _ = play(state, 1, "bigfoot", rank="ghost")  # fib, stands when answered by a play
    state, _ = play(state, 0, "ghost", rank="ghost")
    stats = R.stats(state)
    assert stats[0] == {
        "plays": 3,
        "fibs": 1,
        "fibs_called": 1,
        "fibs_stood": 0,
        "calls": 0,
        "calls_right": 0,
        "noses_taken": 1,
    }
    assert stats[1]["calls"] == 2 and stats[1]["calls_right"] == 1
    assert stats[1]["fibs_stood"] == 1 and stats[1]["noses_taken"] == 1


def test_easy_view_shows_rank_in_play_who_may_call_and_running_scores():
    state = rig(new(3, EASY), {0: ["ghost", "alien"]}, rank=None, rest=1)
    state, _ = play(state, 0, "alien", rank="ghost")
    pub = R.view(state, 2)["public"]
    assert pub["rank_in_play"] == "ghost" and pub["can_call"] is True and pub["turn"] == 1
    assert pub["last_play"] == {"seat": 0, "count": 1, "rank": "ghost"}
    assert pub["round"] == 1 and pub["rounds"] == 5 and pub["scores"] == [0, 0, 0]


# --- Both variants: whole matches ---------------------------------------------------------


@pytest.mark.parametrize("options", [{}, EASY])
@pytest.mark.parametrize("seats", [2, 5])
def test_random_matches_end_replay_and_keep_every_invariant(options, seats):
    result = play_match(R, seats, options, seed_from_int(3), ["random"] * seats)
    assert result.finished and result.errors == []
    assert verify(json.loads(json.dumps(result.record))) == []
    assert result.record["setup"]["events"][0]["type"] == "match_started"
    assert (
        R.is_over(R.from_json(R.to_json(R.new_game(seats, options, seed_from_int(3)).state)))
        is False
    )
