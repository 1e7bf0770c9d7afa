"""The per-game schemas cannot drift from the engines: random matches of every game, variant and
table size (bots playing in the engine, no database) give views, legal actions, actions and
replay records that must fit the published OpenAPI document exactly (objects there list every
property and forbid others, so a new or renamed field in an engine fails here).

- every seat's view and the spectator's, at every step: ``<Game>View`` (``GameView``);
- every legal-action entry: ``LegalAction``; every action a bot builds from the domains fits
  the request schema ``ActionIn`` and passes the server's own input check;
- the record of each match: ``<Game>Replay`` (``ReplayOut``), and the match re-run after
  some of its steps: ``<Game>ReplayStep`` (``ReplayStepOut``);
- the options each game accepts: the create request's options and seat counts admit exactly
  what the engine admits, apart from the cross-field rules the API answers with 422.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

from api.play import actions, matches
from api.play.fields import validate
from games.engine import registry
from games.engine.bots import make_bot
from games.engine.core import InvalidOptions, Rules
from games.engine.replay import Recorder, Rerun
from kernel.errors import Invalid
from tests.engine.helpers import all_tables, table_id

from .openapi_validation import assert_fits, errors

#: Bots per seat, in turn: random ones reach odd corners, basic ones play real matches.
LEVELS = ("random", "basic")
MAX_STEPS = 2000
MATCHES = 3


def views_of(rules: Rules, state: Any) -> list[dict[str, Any]]:
    return [rules.view(state, seat) for seat in [None, *range(state.seats)]]


@pytest.mark.parametrize("match", range(MATCHES))
@pytest.mark.parametrize("table", all_tables(), ids=table_id)
def test_views_legal_actions_actions_and_replays_fit_the_schema(table: tuple, match: int) -> None:
    rules, seats, options = table
    rng = random.Random(f"{table_id(table)}:{match}")
    bots = [make_bot(rules.game_id, LEVELS[s % len(LEVELS)], rng) for s in range(seats)]
    recorder = Recorder(rules, seats, options, rng.randbytes(32).hex())
    seen_phases: set[str] = set()
    for step in range(MAX_STEPS):
        state = recorder.state
        for view in views_of(rules, state):
            legal = view.pop("legal_actions")
            assert_fits("GameView", view)
            seen_phases.add(view["public"]["phase"])
            for entry in legal:
                assert_fits("LegalAction", entry)
        if rules.is_over(state):
            break
        seat = rng.choice(rules.to_act(state))
        action = bots[seat].choose(rules.view(state, seat))
        body = {**action, "expected_version": step}
        assert_fits("ActionIn", body)
        assert actions.validate_action(body) == (action, step), (
            "the server takes what the schema does"
        )
        recorder.apply(seat, action)
    assert "over" in seen_phases, f"the match did not end in {MAX_STEPS} steps"
    assert_fits("ReplayOut", recorder.record)
    rerun = Rerun(recorder.record)
    for n in sorted({0, 1, *rng.sample(range(rerun.last + 1), 3), rerun.last}):
        point = {"match": "8c1f8a5e-0000-4000-8000-000000000000", "game": rules.game_id}
        assert_fits("ReplayStepOut", {**point, **rerun.step_json(n)})


# --- Options and seat counts -----------------------------------------------------------------

#: Values to try for each option: good ones, edges, and wrong types.
CANDIDATES: dict[str, list[Any]] = {
    "life": [None, 0, 1, 12, 30, 31, True, "12", 12.0],
    "variant": [None, "standard", "easy", "hard", 0, True],
    "max_plays": [None, 49, 50, 300, 2000, 2001, "300", 300.5],
    "points": [None, 0, 1, 3, 10, 11, True, "3"],
    "two_sets": [None, True, False, 0, 1, "true"],
    "two_tribes": [None, True, False, 0, "false"],
}
OPTION_KEYS = {
    "fabfib": ["life"],
    "fibber": ["variant", "max_plays"],
    "fibbers_dice": ["points"],
    "skull": ["two_sets", "two_tribes"],
}


def cross_field(game: str, seats: int, options: dict[str, Any]) -> bool:
    """The rules one field sets for another, which the API answers with 422 (documented in the
    create operation): Fibber's max_plays with the easy rules, Skull's seat counts per option."""
    if game == "fibber":
        return options.get("variant") == "easy" and "max_plays" in options
    if game == "skull":
        two_sets = options.get("two_sets") is True
        lo, hi = (7, 12) if two_sets else (3, 6)
        return not lo <= seats <= hi or (options.get("two_tribes") is True and seats % 2 == 1)
    return False


def engine_accepts(rules: Rules, seats: int, options: dict[str, Any]) -> bool:
    try:
        rules.normalize_options(seats, dict(options))
    except InvalidOptions:
        return False
    return True


def api_accepts(game: str, seats: int, options: dict[str, Any]) -> dict[str, Any] | None:
    """The options as the API passes them on, or None when it refuses them (400)."""
    body = {"game": game, "seats": seats, "options": options}
    try:
        data = validate(matches.MATCH_CREATE_IN[game], body)
    except Invalid:
        assert errors("MatchCreateIn", body), f"the schema admits what the server refuses: {body}"
        return None
    assert not errors("MatchCreateIn", body), f"the server takes what the schema refuses: {body}"
    return dict(data["options"])


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
def test_create_options_and_seats_admit_what_the_engine_admits(rules: Rules) -> None:
    game = rules.game_id
    keys = OPTION_KEYS[game]
    combos = [
        {k: v for k, v in zip(keys, values, strict=True) if v is not None}
        for values in product(*(CANDIDATES[k] for k in keys))
    ]
    combos.append({"colour": "red"})
    for seats in range(0, 15):
        for options in combos:
            passed_on = api_accepts(game, seats, options)
            if passed_on is None:
                assert not engine_accepts(rules, seats, options), (
                    f"the API refuses what {rules.name} allows: {seats} seats, {options}"
                )
            elif not engine_accepts(rules, seats, passed_on):
                assert cross_field(game, seats, passed_on), (seats, options)
