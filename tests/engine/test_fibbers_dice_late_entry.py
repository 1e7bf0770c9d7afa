"""Fibber's Dice events in the engine (RULES.md "Fibber's Dice events"): late entry into a
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
from games.engine.fibbers_dice.rules import EVENT_ROUND, EVENT_SINGLE, RESPOND
from games.engine.replay import Recorder, verify
from games.engine.rng import seed_from_int

from .helpers import serialize
from .test_no_leak import BAD_ACTIONS, error_of

RULES = registry.get("fibbers_dice")
SINGLE = {"event": EVENT_SINGLE}


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


def test_late_registration_closes_exactly_when_the_first_player_takes_their_second_turn():
    rng = random.Random(5)
    for seed in range(30):
        state = new(3, SINGLE, seed)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            second_turn = state.turns[seat] == 1 and (
                state.phase == RESPOND or state.announcement is None
            )
            open_before = RULES.late_entry_closed(state) is None
            before_turns = max(state.turns)
            state = act(state, rng)
            if before_turns < 2:
                assert open_before  # open until the first second turn ...
            if second_turn and before_turns < 2:
                # ... and closed by it, exactly
                assert max(state.turns) == 2
                assert "second turn" in RULES.late_entry_closed(state)
                with pytest.raises(IllegalAction):
                    RULES.add_seat(state)
                break
        else:
            pytest.fail("the match ended before anyone took a second turn")


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


@pytest.mark.parametrize("options", [{}, {"points": 2}, {"event": EVENT_ROUND, "points": 1}])
def test_only_a_single_round_event_match_takes_late_entrants(options):
    state = new(4, options)
    assert RULES.late_entry_closed(state) is not None
    with pytest.raises(IllegalAction, match="single-round event"):
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
    assert RULES.new_game(64, {"event": EVENT_ROUND, "points": 1}, seed_from_int(1)).state
    with pytest.raises(InvalidOptions):
        RULES.new_game(65, {"event": EVENT_ROUND, "points": 1}, seed_from_int(1))
    for options in ({}, SINGLE):
        with pytest.raises(InvalidOptions):
            RULES.new_game(11, dict(options), seed_from_int(1))
    with pytest.raises(InvalidOptions, match="'event'"):
        RULES.new_game(4, {"event": "heats"}, seed_from_int(1))


def test_a_64_seat_event_round_at_one_point_plays_to_the_end_keeping_every_invariant():
    rng = random.Random(64)
    state = new(64, {"event": EVENT_ROUND, "points": 1}, seed=9)
    assert state.points == [1] * 64
    while not RULES.is_over(state):
        state = act(state, rng)
        assert RULES.invariants(state) == []
    places = RULES.placements(state)
    assert sorted(places) == list(range(1, 65))
    assert len(state.eliminated) == 63


def test_ordinary_matches_store_exactly_the_state_they_always_stored():
    assert "turns" not in RULES.to_json(new(3, {}))
    state = new(3, SINGLE)
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
