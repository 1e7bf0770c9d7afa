"""No leaks: for every game, phase and seat, what a seat receives
must not change when only information hidden from that seat changes.

States are reached by random legal play; ``Rules.hidden_variant`` re-draws everything a seat
cannot see. The seat's serialized view, its part of the next events, and the error messages it
gets must be byte-identical across such a pair.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.bots import random_action
from games.engine.core import EngineError
from games.engine.rng import seed_from_int

from .helpers import all_tables, play_random, serialize, table_params

TABLES = all_tables()

BAD_ACTIONS = [
    {"type": "no_such_action"},
    {"type": "claim", "value": "999"},
    {"type": "claim", "value": "727"},
    {"type": "exchange", "cards": [0, 1, 2, 3]},
    {"type": "accept"},
    {"type": "call"},
    {"type": "pass"},
    {"type": "play", "cards": [0]},
    {"type": "bid", "count": 99},
    {"type": "announce", "score": "26"},
]


def error_of(rules, state, seat, action) -> str:
    try:
        rules.apply(state, seat, action)
    except EngineError as error:
        return f"{type(error).__name__}: {error.reason}"
    return "applied"


@pytest.mark.parametrize("table", table_params(TABLES))
@settings(max_examples=60, deadline=None)
@given(
    game=st.integers(0, 10**6), steps=st.integers(0, 400), pick=st.randoms(use_true_random=False)
)
def test_views_events_and_errors_do_not_depend_on_hidden_information(table, game, steps, pick):
    rules, seats, options = table
    state = play_random(
        rules, seats, options, seed_from_int(game), steps, random.Random(pick.random())
    )
    for seat in [None, *range(seats)]:
        twin = rules.hidden_variant(state, seat, random.Random(pick.random()))
        assert serialize(rules.view(twin, seat)) == serialize(rules.view(state, seat))
        if seat is not None:
            for bad in BAD_ACTIONS:
                assert error_of(rules, twin, seat, bad) == error_of(rules, state, seat, bad)
        if rules.is_over(state):
            continue
        # The next action, applied to both: events may tell the seat only what its views
        # before and after tell it, so when both views agree afterwards, so must the events.
        actor = pick.choice(rules.to_act(state))
        action = random_action(rules.legal_actions(state, actor), pick)
        after = rules.apply(state, actor, action)
        try:
            twin_after = rules.apply(twin, actor, action)
        except EngineError:
            continue  # the actor's options depend on what it holds, hidden from this seat
        if serialize(rules.view(after.state, seat)) == serialize(
            rules.view(twin_after.state, seat)
        ):
            assert [serialize(e.for_seat(seat)) for e in after.events] == [
                serialize(e.for_seat(seat)) for e in twin_after.events
            ]
