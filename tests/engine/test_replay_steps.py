"""Re-running a record step by step (``games.engine.replay.Rerun``, docs/replay.md): the state
after any step, in any order, is the state the match had then, checked against the record on
the way; a record that differs says so from the step where it differs."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import registry
from games.engine.bots import random_action
from games.engine.fibbers_dice.rules import TOURNAMENT_SINGLE
from games.engine.replay import Recorder, Rerun, RerunError, state_after, verify
from games.engine.rng import seed_from_int

from .helpers import all_tables, serialize, table_id


def recorded_match(rules, seats, options, seed, rng, join_at=()):
    """A random match through the :class:`Recorder`, and the state after every step."""
    recorder = Recorder(rules, seats, options, seed)
    states = [rules.to_json(recorder.state)]
    while not rules.is_over(recorder.state):
        if len(states) in join_at:
            recorder.join()
        else:
            seat = rng.choice(rules.to_act(recorder.state))
            action = random_action(rules.legal_actions(recorder.state, seat), rng)
            recorder.apply(seat, action)
        states.append(rules.to_json(recorder.state))
    return json.loads(serialize(recorder.record)), states


@pytest.mark.parametrize("table", all_tables(), ids=table_id)
def test_the_state_after_every_step_in_any_order_is_the_state_the_match_had(table):
    rules, seats, options = table
    rng = random.Random(table_id(table))
    record, states = recorded_match(rules, seats, options, seed_from_int(21), rng)
    rerun = Rerun(record, every=8)
    assert rerun.last == len(record["steps"]) == len(states) - 1
    order = list(range(rerun.last + 1))
    rng.shuffle(order)
    for n in [*order, *range(rerun.last + 1)]:  # jumps, then one step on at a time
        point = rerun.at(n)
        assert point.n == n and point.matched and point.differences == ()
        assert rules.to_json(point.state) == states[n], n
        expected = record["steps"][n - 1] if n else record["setup"]
        assert [e.to_json() for e in point.events] == expected["events"]
        assert point.chance == expected["chance"]
    assert len(rerun._kept) <= rerun.last // 8 + 2, "only every 8th state is kept"
    assert rules.to_json(state_after(record, rerun.last).state) == states[-1]


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
def test_step_json_is_the_engines_views_of_every_seat_and_the_recorded_step(rules):
    lo, _hi = rules.seat_range({})
    rng = random.Random(rules.game_id)
    record, _ = recorded_match(rules, lo, {}, seed_from_int(5), rng)
    rerun = Rerun(record)
    for n in range(rerun.last + 1):
        body = rerun.step_json(n)
        state = rerun.at(n).state
        views = [rules.view(state, seat) for seat in range(state.seats)]
        spectator = rules.view(state, None)
        assert spectator.pop("legal_actions") == []
        assert body["view"] == spectator
        assert body["private"] == [v["private"] for v in views]
        assert body["legal_actions"] == [v["legal_actions"] for v in views]
        assert [s for s, legal in enumerate(body["legal_actions"]) if legal] == sorted(
            spectator["to_act"]
        )
        assert body["n"] == n and body["last"] == rerun.last and body["matched"] is True
        if n == 0:
            assert body["step"] == {"n": 0, **record["setup"]}
        else:
            assert body["step"] == record["steps"][n - 1]
        json.dumps(body)  # plain JSON
    assert body["view"]["over"] and body["view"]["placements"] == record["result"]["placements"]


def test_a_late_entry_is_re_run_with_add_seat():
    rules = registry.get("fibbers_dice")
    record, states = recorded_match(
        rules,
        3,
        {"tournament": TOURNAMENT_SINGLE},
        seed_from_int(8),
        random.Random(2),
        join_at=(1,),
    )
    assert record["steps"][0]["join"] is True and record["seats"] == 3
    rerun = Rerun(record)
    assert rerun.at(0).state.seats == 3 and rerun.at(1).state.seats == 4
    body = rerun.step_json(1)
    assert body["step"]["join"] is True and body["step"]["action"] == {"type": "join"}
    assert len(body["private"]) == 4 and body["matched"]
    assert rules.to_json(rerun.at(rerun.last).state) == states[-1]


def _record():
    rules = registry.get("fabfib")
    record, states = recorded_match(rules, 4, {}, seed_from_int(13), random.Random(13))
    return record, states


def test_a_forged_event_is_a_difference_from_its_step_on_and_the_rest_still_re_runs():
    record, states = _record()
    k = len(record["steps"]) // 2
    forged = copy.deepcopy(record)
    forged["steps"][k - 1]["events"].append({"type": "forged", "public": {}, "private": {}})
    rerun = Rerun(forged)
    assert rerun.at(rerun.last).differences == (f"step {k}: events differ",)
    assert rerun.at(k - 1).matched  # asked after the whole run: still matched before k
    assert not rerun.at(k).matched and not rerun.at(rerun.last).matched
    assert verify(forged) == [f"step {k}: events differ"]
    # the state is the engine's, whatever the record says happened
    assert registry.get("fabfib").to_json(rerun.at(rerun.last).state) == states[-1]


def test_forged_chance_a_forged_result_and_another_seed_are_differences():
    rules = registry.get("fibbers_dice")  # dice are rolled during play
    record, _ = recorded_match(rules, 4, {}, seed_from_int(13), random.Random(13))
    chance = copy.deepcopy(record)
    step = next(s for s in chance["steps"] if s["chance"])
    step["chance"][0][2] = "forged"
    assert Rerun(chance).at(step["n"]).differences == (f"step {step['n']}: chance outcomes differ",)
    assert Rerun(chance).at(step["n"] - 1).matched
    result = copy.deepcopy(record)
    result["result"]["placements"].reverse()
    rerun = Rerun(result)
    assert rerun.at(rerun.last - 1).matched
    assert rerun.at(rerun.last).differences == ("final result differs",)
    other = copy.deepcopy(record)
    other["seed"] = seed_from_int(14)
    assert not Rerun(other).at(0).matched  # another deal


def test_an_action_the_engine_refuses_stops_the_re_run_at_that_step():
    record, _ = _record()
    k = 3
    record["steps"][k - 1]["action"] = {"type": "fly"}
    rerun = Rerun(record)
    assert rerun.at(k - 1).matched
    with pytest.raises(RerunError, match=f"step {k}: IllegalAction"):
        rerun.at(rerun.last)
    with pytest.raises(RerunError, match=f"step {k}"):
        rerun.at(k)  # remembered: no second try
    assert rerun.at(k - 1).matched


def test_out_of_range_steps_and_unknown_formats_are_refused():
    record, _ = _record()
    rerun = Rerun(record)
    for bad in (-1, rerun.last + 1, 1.0, "1", True):
        with pytest.raises(IndexError):
            rerun.at(bad)
    with pytest.raises(RerunError, match="unknown record format"):
        Rerun({**record, "format": "other/1"})
