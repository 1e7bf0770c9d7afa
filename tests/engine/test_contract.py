"""The contract every registered game keeps (docs/architecture.md). New games get these for free."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import registry
from games.engine.core import IllegalAction, InvalidOptions, NotYourTurn
from games.engine.replay import verify
from games.engine.rng import seed_from_int
from games.engine.simulate import play_match, simulate

from .helpers import all_tables, random_step, serialize, table_id, table_params

TABLES = all_tables()
RULES = registry.all_rules()


@pytest.fixture(params=table_params(TABLES))
def table(request):
    return request.param


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.game_id)
def test_registry_knows_the_game_by_id(rules):
    assert registry.get(rules.game_id) is rules


def test_unknown_game_is_a_clear_error():
    with pytest.raises(registry.UnknownGame, match="known games"):
        registry.get("chess")


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.game_id)
def test_seat_counts_outside_the_range_are_refused(rules):
    lo, hi = rules.seat_range({})
    for seats in (lo - 1, hi + 1, 0, "3"):
        with pytest.raises(InvalidOptions):
            rules.new_game(seats, {}, seed_from_int(1))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.game_id)
def test_unknown_options_are_refused(rules):
    lo, _ = rules.seat_range({})
    with pytest.raises(InvalidOptions):
        rules.new_game(lo, {"no_such_option": 1}, seed_from_int(1))
    with pytest.raises(InvalidOptions):
        rules.new_game(lo, ["not", "an", "object"], seed_from_int(1))


def test_seeded_matches_are_deterministic(table):
    rules, seats, options = table
    levels = ["random"] * seats
    first = play_match(rules, seats, options, seed_from_int(7), levels, bot_seed=3)
    again = play_match(rules, seats, options, seed_from_int(7), levels, bot_seed=3)
    other = play_match(rules, seats, options, seed_from_int(8), levels, bot_seed=3)
    assert first.errors == [] and first.finished
    assert first.record == again.record
    assert first.record["setup"] != other.record["setup"]


def test_every_step_keeps_the_contract(table):
    """Along random games: to_act and legal actions agree, only seats to act may act, apply
    leaves its input alone, states survive JSON, views and events are JSON."""
    rules, seats, options = table
    rng = random.Random(f"contract:{table_id(table)}")
    for game in range(5):
        step = rules.new_game(seats, options, seed_from_int(game))
        state = step.state
        for _ in range(3000):
            if rules.is_over(state):
                break
            to_act = rules.to_act(state)
            assert to_act, "an unfinished match must have a seat to act"
            assert rules.invariants(state) == []
            for seat in range(seats):
                legal = rules.legal_actions(state, seat)
                assert bool(legal) == (seat in to_act)
                json.dumps(rules.view(state, seat))
            json.dumps(rules.view(state, None))
            assert rules.legal_actions(state, None) == []
            before = rules.state_digest(state)
            idle = [s for s in range(seats) if s not in to_act]
            if idle:
                seat = rng.choice(idle)
                with pytest.raises(NotYourTurn):
                    rules.apply(state, seat, {"type": "pass"})
            with pytest.raises(IllegalAction):
                rules.apply(state, to_act[0], {"type": "no_such_action"})
            with pytest.raises(IllegalAction):
                rules.apply(state, to_act[0], "not an object")
            assert (
                rules.from_json(json.loads(json.dumps(rules.to_json(state)))).__dict__
                == state.__dict__
            )
            _, _, step = random_step(rules, state, rng)
            assert rules.state_digest(state) == before, "apply must not change its input"
            for event in step.events:
                json.dumps(event.to_json())
            state = step.state
        assert rules.is_over(state), "random games end"
        assert rules.invariants(state) == []
        places = rules.placements(state)
        assert len(places) == seats and min(places) == 1
        assert all(1 <= p <= seats for p in places)
        for p in places:  # competition ranking: place p means p-1 seats did better
            assert p == 1 + sum(1 for q in places if q < p)
        stats = rules.stats(state)
        assert len(stats) == seats and all(isinstance(v, int) for s in stats for v in s.values())
        assert rules.legal_actions(state, 0) == [] and rules.view(state, None)["over"]
        # Why it ended: one word of the game's documented vocabulary, in every seat's view
        # next to the placements, and in the replay's result.
        reason = rules.end_reason(state)
        assert reason in rules.end_reasons
        for seat in (None, *range(seats)):
            view = rules.view(state, seat)
            assert view["end_reason"] == reason and view["placements"] == places
        with pytest.raises(NotYourTurn):
            rules.apply(state, 0, {"type": "pass"})


def test_replay_records_re_run_exactly_and_tampering_is_found(table):
    rules, seats, options = table
    result = play_match(rules, seats, options, seed_from_int(11), ["random"] * seats)
    record = json.loads(serialize(result.record))
    assert verify(record) == []
    assert record["result"]["end_reason"] in rules.end_reasons
    older = json.loads(serialize(result.record))  # a record from before results named it
    del older["result"]["end_reason"]
    assert verify(older) == []
    older["result"]["end_reason"] = "forged"
    assert verify(older) != []
    record["steps"][len(record["steps"]) // 2]["events"].append({"type": "forged"})
    assert verify(record) != []
    record = json.loads(serialize(result.record))
    record["seed"] = seed_from_int(12)
    assert verify(record) != []


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 5, 10])
def test_two_thousand_random_fabfib_matches_end_with_every_invariant_kept(seats):
    summary = simulate(registry.get("fabfib"), matches=2000, seats=seats, seed=f"contract-{seats}")
    assert summary["errors"] == 0, summary["error_samples"]
    assert summary["finished"] == 2000


@pytest.mark.slow
@pytest.mark.parametrize(
    "table",
    [t for t in TABLES if t[0].game_id != "fabfib"],
    ids=[table_id(t) for t in TABLES if t[0].game_id != "fabfib"],
)
def test_many_random_matches_end_with_every_invariant_kept(table):
    """200 random matches per table (60 at the largest tables, whose matches are long)."""
    rules, seats, options = table
    matches = 200 if seats <= 6 else 60
    summary = simulate(rules, matches=matches, seats=seats, seed="contract", options=options)
    assert summary["errors"] == 0, summary["error_samples"]
    assert summary["finished"] == matches
