"""Fibber's Dice tournaments in the engine (docs/tournaments.md): late entry into a
single-round event match and event rounds of up to 64 seats. Each test is named after the
rule or **D** decision it pins down."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import registry
from games.engine.bots import random_action
from games.engine.core import EngineError, IllegalAction, InvalidOptions
from games.engine.fibbers_dice.rules import RESPOND, TOURNAMENT_ROUND, TOURNAMENT_SINGLE
from games.engine.replay import Recorder, verify
from games.engine.rng import seed_from_int

from .helpers import serialize
from .test_no_leak import BAD_ACTIONS, error_of

RULES = registry.get("fibbers_dice")
SINGLE = {"tournament": TOURNAMENT_SINGLE}


def new(seats=3, options=SINGLE, seed=1):
    return RULES.new_game(seats, dict(options), seed_from_int(seed)).state


def act(state, rng):
    seat = RULES.to_act(state)[0]
    return RULES.apply(state, seat, random_action(RULES.legal_actions(state, seat), rng)).state


def test_d_late_entrant_takes_seat_n_between_n_minus_1_and_0_with_the_starting_points():
    state = new(4, {**SINGLE, "points": 3})
    state = act(state, random.Random(1))
    step = RULES.add_seat(state)
    after = step.state
    assert after.seats == 5
    # the count is not recomputed for five players: the points the round began with
    assert after.points[4] == 3 and after.options["points"] == 3
    assert [e.type for e in step.events] == ["seat_joined"]
    assert step.events[0].public["seat"] == 4 and step.events[0].private == {}
    assert step.chance == []
    assert RULES.next_alive(after, 3) == 4 and RULES.next_alive(after, 4) == 0
    assert RULES.invariants(after) == []
    assert state.seats == 4  # the state given is left untouched


def test_d_late_entry_points_are_the_rounds_even_when_the_table_grows_past_five():
    state = new(5, SINGLE)  # 5 players: 3 points each
    for _ in range(2):
        state = RULES.add_seat(state).state
    assert state.points == [3] * 7


def _turn_begins(state) -> bool:
    """The seat to act starts a new turn: a response is due, or a sequence's opening."""
    return state.phase == RESPOND or state.announcement is None


def test_d_registration_closes_as_the_first_starters_second_turn_comes_not_anyone_elses():
    """D (docs/tournaments.md): "the first player" is the match's first starter;
    registration closes as that starter's second turn comes. Checked against a count kept
    apart from the engine's: how often the turn has come to the first starter."""
    rng = random.Random(5)
    others_first = 0
    for seed in range(60):
        state = new(3 + seed % 3, SINGLE, seed)
        first = RULES.to_act(state)[0]  # the host's die: the first starter opens
        came = 0  # the first starter's turns come so far
        someone_else_had_a_second = False
        seen: dict[int, int] = {}
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            if _turn_begins(state):
                seen[seat] = seen.get(seat, 0) + 1
                came += seat == first
                if seat != first and seen[seat] == 2 and came < 2:
                    someone_else_had_a_second = True
            closed = came >= 2 or not RULES.alive(state, first)
            assert (RULES.late_entry_closed(state) is None) == (not closed), (seed, seen)
            if closed:
                assert "first starter" in RULES.late_entry_closed(state)
                with pytest.raises(IllegalAction):
                    RULES.add_seat(state)
                break
            state = act(state, rng)
        else:
            pytest.fail("the match ended with registration open")
        others_first += someone_else_had_a_second
    assert others_first >= 10  # often another player's second turn comes first: still open


def test_d_registration_stays_open_after_another_players_second_turn_until_the_starters():
    """D: a player who lost a point starts again and takes a second turn before the first
    starter does; registration stays open (a late entrant joins then) and closes only as the
    turn comes back to the first starter."""
    state = new(3, SINGLE, seed=2)
    first = RULES.to_act(state)[0]
    state = RULES.apply(state, first, {"type": "announce", "score": "31"}).state
    caller = RULES.to_act(state)[0]
    # every roll is at least 31: the caller loses a point and starts the next sequence
    state = RULES.apply(state, caller, {"type": "call"}).state
    assert RULES.to_act(state) == [caller] and state.turns[caller] == 1
    assert RULES.late_entry_closed(state) is None  # the caller's second turn has come: open
    state = RULES.apply(state, caller, {"type": "announce", "score": "31"}).state
    assert state.turns[caller] == 2 and state.turns[first] == 1
    assert RULES.late_entry_closed(state) is None  # and taken: still open
    state = RULES.add_seat(state).state  # a late entrant joins after it
    assert state.seats == 4
    scores = iter(["41", "51", "61", "double 1s", "double 2s"])
    while RULES.to_act(state) != [first]:
        assert RULES.late_entry_closed(state) is None
        seat = RULES.to_act(state)[0]
        state = RULES.apply(state, seat, {"type": "believe"}).state
        state = RULES.apply(state, seat, {"type": "announce", "score": next(scores)}).state
    assert state.turns[first] == 1  # the first starter's second turn comes: closed, before it
    reason = RULES.late_entry_closed(state)
    assert reason == "Late registration closed as the first starter's second turn came."
    with pytest.raises(IllegalAction, match="first starter's second turn"):
        RULES.add_seat(state)
    assert RULES.view(state, None)["public"]["late_entry_open"] is False


def test_d_registration_closes_when_the_first_starter_is_out_before_a_second_turn():
    """At one point the first starter can lose their only point in their first turn (a false
    Max): the second turn can never come, so registration closes then."""
    for seed in range(50):
        state = new(3, {**SINGLE, "points": 1}, seed)
        first = RULES.to_act(state)[0]
        if state.rolls[first] != [2, 1]:
            break
    state = RULES.apply(state, first, {"type": "announce", "score": "max"}).state
    assert not RULES.alive(state, first) and not RULES.is_over(state)
    assert "went out before a second turn" in RULES.late_entry_closed(state)


def test_a_match_stored_before_the_first_starter_was_kept_closes_at_the_first_second_turn():
    """A single-round match stored without ``first_starter`` (it was not kept then) goes on
    under the rule it began with: closed once anyone has taken a second turn."""
    state = new(3, SINGLE, seed=2)
    first = RULES.to_act(state)[0]
    state = RULES.apply(state, first, {"type": "announce", "score": "31"}).state
    caller = RULES.to_act(state)[0]
    state = RULES.apply(state, caller, {"type": "call"}).state
    stored = RULES.to_json(state)
    del stored["first_starter"]
    legacy = RULES.from_json(stored)
    assert legacy.first_starter is None and RULES.late_entry_closed(legacy) is None
    legacy = RULES.apply(legacy, caller, {"type": "announce", "score": "31"}).state
    assert "second turn" in RULES.late_entry_closed(legacy)
    assert "first_starter" not in RULES.to_json(legacy)


def test_a_turn_is_an_opening_announcement_or_a_response_not_the_announcement_after_believing():
    state = new(3, SINGLE)
    starter = RULES.to_act(state)[0]
    state = RULES.apply(state, starter, {"type": "announce", "score": "31"}).state
    assert state.turns[starter] == 1
    responder = RULES.to_act(state)[0]
    state = RULES.apply(state, responder, {"type": "believe"}).state
    assert state.turns[responder] == 1
    state = RULES.apply(state, responder, {"type": "announce", "score": "max"}).state
    assert state.turns[responder] == 1  # believing and announcing are one turn


def test_late_registration_closes_when_the_table_has_ten_players():
    state = new(7, SINGLE)
    for _ in range(3):
        state = RULES.add_seat(state).state
    assert state.seats == 10
    assert "full" in RULES.late_entry_closed(state)
    with pytest.raises(IllegalAction, match="full"):
        RULES.add_seat(state)


def test_d_the_late_entrant_plays_when_the_turn_reaches_their_seat():
    # Seat n-1 has announced and seat 0 was to answer: the newcomer now sits between them.
    for seed in range(200):
        state = new(3, SINGLE, seed)
        if RULES.to_act(state) == [2]:
            break
    state = RULES.apply(state, 2, {"type": "announce", "score": "31"}).state
    assert RULES.to_act(state) == [0]
    step = RULES.add_seat(state)
    assert RULES.to_act(step.state) == [3]
    assert RULES.legal_actions(step.state, 0) == []
    assert {a["type"] for a in RULES.legal_actions(step.state, 3)} == {"believe", "call"}
    assert RULES.invariants(step.state) == []
    # anywhere else, the seat to act keeps its decision
    other = RULES.apply(new(3, SINGLE, seed), 2, {"type": "announce", "score": "31"}).state
    other = RULES.apply(other, 0, {"type": "believe"}).state
    assert RULES.to_act(RULES.add_seat(other).state) == [0]


@pytest.mark.parametrize(
    "options", [{}, {"points": 2}, {"tournament": TOURNAMENT_ROUND, "points": 1}]
)
def test_only_a_single_round_event_match_takes_late_entrants(options):
    state = new(4, options)
    assert RULES.late_entry_closed(state) is not None
    with pytest.raises(IllegalAction, match="single-round tournament"):
        RULES.add_seat(state)
    assert "late_entry_open" not in RULES.view(state, 0)["public"]


def test_late_entry_is_closed_once_the_match_is_over():
    rng = random.Random(3)
    state = new(2, {**SINGLE, "points": 1})
    while not RULES.is_over(state):
        state = act(state, rng)
    assert RULES.late_entry_closed(state) == "The match is over."
    with pytest.raises(IllegalAction):
        RULES.add_seat(state)


def test_the_view_says_whether_late_registration_is_open():
    state = new(3, SINGLE)
    assert RULES.view(state, None)["public"]["late_entry_open"] is True


def test_d_an_event_round_seats_up_to_64_players_ordinary_matches_keep_2_to_10():
    assert RULES.new_game(64, {"tournament": TOURNAMENT_ROUND, "points": 1}, seed_from_int(1)).state
    with pytest.raises(InvalidOptions):
        RULES.new_game(65, {"tournament": TOURNAMENT_ROUND, "points": 1}, seed_from_int(1))
    for options in ({}, SINGLE):
        with pytest.raises(InvalidOptions):
            RULES.new_game(11, dict(options), seed_from_int(1))
    with pytest.raises(InvalidOptions, match="'tournament'"):
        RULES.new_game(4, {"tournament": "heats"}, seed_from_int(1))


def test_a_64_seat_event_round_at_one_point_plays_to_the_end_keeping_every_invariant():
    rng = random.Random(64)
    state = new(64, {"tournament": TOURNAMENT_ROUND, "points": 1}, seed=9)
    assert state.points == [1] * 64
    while not RULES.is_over(state):
        state = act(state, rng)
        assert RULES.invariants(state) == []
    places = RULES.placements(state)
    assert sorted(places) == list(range(1, 65))
    assert len(state.eliminated) == 63


def test_ordinary_matches_store_exactly_the_state_they_always_stored():
    stored = RULES.to_json(new(3, {}))
    assert "turns" not in stored and "first_starter" not in stored
    state = new(3, SINGLE)
    assert RULES.to_json(state)["first_starter"] == RULES.to_act(state)[0]
    assert RULES.to_json(RULES.from_json(RULES.to_json(state))) == RULES.to_json(state)


def _recorded(seed: int, joins_at: list[int]) -> Recorder:
    rng = random.Random(seed)
    recorder = Recorder(RULES, 3, dict(SINGLE), seed_from_int(seed))
    n = 0
    while not RULES.is_over(recorder.state):
        if n in joins_at and RULES.late_entry_closed(recorder.state) is None:
            recorder.join()
        seat = RULES.to_act(recorder.state)[0]
        recorder.apply(seat, random_action(RULES.legal_actions(recorder.state, seat), rng))
        n += 1
    return recorder


def test_a_replay_with_late_entries_re_runs_exactly_and_tampering_is_found():
    recorder = _recorded(21, [0, 1, 2])
    record = recorder.record
    joins = [s for s in record["steps"] if s.get("join")]
    assert [s["seat"] for s in joins] == [3, 4, 5]
    assert record["seats"] == 3 and len(record["result"]["placements"]) == 6
    assert verify(record) == []
    moved = copy.deepcopy(record)
    first = next(s for s in moved["steps"] if s.get("join"))
    first["seat"] = 7
    assert verify(moved) != []
    dropped = copy.deepcopy(record)
    dropped["steps"] = [s for s in dropped["steps"] if not s.get("join")]
    for i, s in enumerate(dropped["steps"], 1):
        s["n"] = i
    assert verify(dropped) != []


@settings(max_examples=60, deadline=None)
@given(
    game=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    joins=st.lists(st.integers(0, 60), max_size=7),
    pick=st.randoms(use_true_random=False),
)
def test_late_entry_leaks_nothing(game, steps, joins, pick):
    """No leak with late entrants: views, errors and the events of the next step (a join or
    an action) are the same for states that differ only in what a seat cannot see."""
    rng = random.Random(pick.random())
    state = new(2 + game % 6, SINGLE, game)
    for n in range(steps):
        if RULES.is_over(state):
            break
        if n in joins and RULES.late_entry_closed(state) is None:
            state = RULES.add_seat(state).state
        state = act(state, rng)
        assert RULES.invariants(state) == []
    for seat in [None, *range(state.seats)]:
        twin = RULES.hidden_variant(state, seat, random.Random(pick.random()))
        assert serialize(RULES.view(twin, seat)) == serialize(RULES.view(state, seat))
        if seat is not None:
            for bad in BAD_ACTIONS:
                assert error_of(RULES, twin, seat, bad) == error_of(RULES, state, seat, bad)
        try:
            joined = RULES.add_seat(state)
        except EngineError as error:
            with pytest.raises(EngineError) as twin_error:
                RULES.add_seat(twin)
            assert twin_error.value.reason == error.reason
            continue
        twin_joined = RULES.add_seat(twin)
        assert [serialize(e.for_seat(seat)) for e in joined.events] == [
            serialize(e.for_seat(seat)) for e in twin_joined.events
        ]
        assert serialize(RULES.view(joined.state, seat)) == serialize(
            RULES.view(twin_joined.state, seat)
        )
