"""Shared helpers for engine tests: tables to try, random play, serialisation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine import registry
from games.engine.bots import random_action
from games.engine.core import Rules, Step


def serialize(value: Any) -> str:
    """What a client would receive, byte for byte."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def tables(rules: Rules) -> list[tuple[int, dict]]:
    """Seat counts (smallest, a middle one, largest) for every option example of a game."""
    out = []
    for options in rules.option_examples:
        lo, hi = rules.seat_range(options)
        for seats in sorted({lo, (lo + hi) // 2, hi}):
            try:
                rules.normalize_options(seats, dict(options))
            except Exception:
                continue  # e.g. a variant that needs an even seat count
            out.append((seats, options))
    return out


def all_tables() -> list[tuple[Rules, int, dict]]:
    return [(r, seats, opts) for r in registry.all_rules() for seats, opts in tables(r)]


def table_id(table: tuple[Rules, int, dict]) -> str:
    rules, seats, options = table
    suffix = "-" + "-".join(f"{k}={v}" for k, v in sorted(options.items())) if options else ""
    return f"{rules.game_id}-{seats}{suffix}"


def table_params(tables: list[tuple[Rules, int, dict]]) -> list[Any]:
    """The tables as named pytest parameters; those of more than ten seats (Fibber's Dice event
    rounds, Skull's two sets at 12) cost most and run in the slow tier (CI runs every tier)."""
    return [
        pytest.param(t, id=table_id(t), marks=[pytest.mark.slow] if t[1] > 10 else [])
        for t in tables
    ]


def random_step(rules: Rules, state: Any, rng: random.Random) -> tuple[int, dict, Step]:
    """One random legal action by one of the seats that must act."""
    seat = rng.choice(rules.to_act(state))
    action = random_action(rules.legal_actions(state, seat), rng)
    return seat, action, rules.apply(state, seat, action)


def play_random(
    rules: Rules, seats: int, options: dict, seed: str, steps: int, rng: random.Random
) -> Any:
    """The state after up to ``steps`` random legal actions from a new game."""
    state = rules.new_game(seats, options, seed).state
    for _ in range(steps):
        if rules.is_over(state):
            break
        state = random_step(rules, state, rng)[2].state
    return state
