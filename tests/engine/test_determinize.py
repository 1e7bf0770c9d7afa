"""Determinization (games/engine/sample.py): a state sampled from one seat's view alone.

For every game, table and variant, along random playthroughs (thousands of positions per game
in the ``ci`` profile), for every seat:

* the sampled state, seen from that seat, gives back exactly the view it came from, keeps the
  game's invariants and can be played on;
* two states the seat cannot tell apart (``hidden_variant``) give the very same samples for the
  same random stream, so the sampler's output distribution cannot depend on hidden truth;
* the hidden part is really drawn: over many streams, the samples differ.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.bots import random_action
from games.engine.rng import seed_from_int

from .helpers import all_tables, serialize, table_params

TABLES = all_tables()


def some_seats(seats: int, index: int) -> list[int]:
    """Every seat of an ordinary table; eight of a big event round (64 seats)."""
    if seats <= 10:
        return list(range(seats))
    return sorted(random.Random(index).sample(range(seats), 8))


def positions(rules, seats, options, game: int, steps: int, rng: random.Random):
    """Every state of a random playthrough of up to ``steps`` actions."""
    state = rules.new_game(seats, options, seed_from_int(game)).state
    yield state
    for _ in range(steps):
        if rules.is_over(state):
            return
        seat = rng.choice(rules.to_act(state))
        state = rules.apply(state, seat, random_action(rules.legal_actions(state, seat), rng)).state
        yield state


def check_sample(rules, state, seat: int, stream: int) -> None:
    view = rules.view(state, seat)
    sample = rules.determinize(view, random.Random(stream))
    assert serialize(rules.view(sample, seat)) == serialize(view)
    assert rules.invariants(sample) == []
    # Only the view is read: a twin the seat cannot tell apart gives the same sample.
    twin = rules.hidden_variant(state, seat, random.Random(stream + 1))
    twin_view = rules.view(twin, seat)
    assert serialize(twin_view) == serialize(view)
    again = rules.determinize(twin_view, random.Random(stream))
    assert rules.state_digest(again) == rules.state_digest(sample)
    # The sample is a state the game can go on from.
    if not rules.is_over(sample):
        actor = rules.to_act(sample)[0]
        rules.apply(
            sample, actor, random_action(rules.legal_actions(sample, actor), random.Random(stream))
        )


@pytest.mark.parametrize("table", table_params(TABLES))
@given(game=st.integers(0, 10**6), steps=st.integers(0, 250), stream=st.integers(0, 2**32))
def test_a_sample_gives_back_the_view_and_ignores_hidden_information(table, game, steps, stream):
    rules, seats, options = table
    rng = random.Random(stream)
    for index, state in enumerate(positions(rules, seats, options, game, steps, rng)):
        if rules.is_over(state):
            for seat in some_seats(seats, index):
                check_sample(rules, state, seat, stream + index)
            continue
        # Every fourth position for the seat to act; all seats at every fortieth.
        if index % 40 == 0:
            for seat in some_seats(seats, index):
                check_sample(rules, state, seat, stream + index)
        elif index % 4 == 0:
            check_sample(rules, state, rules.to_act(state)[0], stream + index)


def hidden_part(rules, state) -> str:
    """The sampled state without its fresh seed (which always differs)."""
    data = rules.to_json(state)
    data.pop("seed")
    return serialize(data)


@pytest.mark.parametrize("table", table_params(TABLES))
def test_hidden_information_is_drawn_not_copied(table):
    """Along a playthrough, for the seat to act, samples from different streams differ beyond
    their seeds at some positions: the sampler does not return one fixed guess."""
    rules, seats, options = table
    rng = random.Random(7)
    varied = 0
    for state in positions(rules, seats, options, 3, 120, rng):
        if rules.is_over(state):
            break
        view = rules.view(state, rules.to_act(state)[0])
        samples = {hidden_part(rules, rules.determinize(view, random.Random(s))) for s in range(8)}
        varied += len(samples) > 1
    assert varied > 0
