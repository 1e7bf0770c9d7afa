"""The complete record of a match, and re-running it (docs/replay.md).

A record holds the seed, seats, options, every action with its seat, every chance outcome,
every event with all its private parts, and the result. ``verify`` re-runs the actions with
the engine from the seed and confirms that every chance outcome, every event and the final
state are the same.
"""

from __future__ import annotations

from typing import Any

from .core import JSON, Action, Event, Rules, Step
from .registry import get
from .rng import seed_commitment

FORMAT = "fibserver.replay/1"
#: The action of a recorded late entry (a step marked ``"join": true``): not a move, the
#: engine's :meth:`Rules.add_seat`; ``seat`` is the seat it created. ``seats`` stays the
#: seat count the match started with.
JOIN_ACTION: JSON = {"type": "join"}


def _events_json(events: list[Event]) -> list[JSON]:
    return [e.to_json() for e in events]


class Recorder:
    """Plays a match through the engine while writing its record."""

    def __init__(self, rules: Rules, seats: int, options: JSON | None, seed: str) -> None:
        self.rules = rules
        step = rules.new_game(seats, options, seed)
        self.state: Any = step.state
        self.record: JSON = {
            "format": FORMAT,
            "game": rules.game_id,
            "seats": seats,
            "options": step.state.options,
            "seed": seed,
            "seed_commitment": seed_commitment(seed),
            "setup": {"chance": step.chance, "events": _events_json(step.events)},
            "steps": [],
            "result": None,
        }
        self.last_step = step

    def join(self) -> Step:
        """A late entrant takes the next seat (:meth:`Rules.add_seat`), recorded as a step."""
        seat = self.state.seats
        step = self.rules.add_seat(self.state)
        self.state = step.state
        self.last_step = step
        self.record["steps"].append(
            {
                "n": len(self.record["steps"]) + 1,
                "seat": seat,
                "action": dict(JOIN_ACTION),
                "join": True,
                "chance": step.chance,
                "events": _events_json(step.events),
            }
        )
        return step

    def apply(self, seat: int, action: Action, **extra: Any) -> Step:
        step = self.rules.apply(self.state, seat, action)
        self.state = step.state
        self.last_step = step
        self.record["steps"].append(
            {
                "n": len(self.record["steps"]) + 1,
                "seat": seat,
                "action": action,
                **extra,
                "chance": step.chance,
                "events": _events_json(step.events),
            }
        )
        if self.rules.is_over(self.state):
            self.record["result"] = result_of(self.rules, self.state)
        return step


def result_of(rules: Rules, state: Any) -> JSON:
    over = rules.is_over(state)
    return {
        "over": over,
        "placements": rules.placements(state) if over else None,
        "stats": rules.stats(state),
        "state_digest": rules.state_digest(state),
    }


def verify(record: JSON) -> list[str]:
    """Re-run ``record`` with the engine; the list of differences (empty when it replays)."""
    problems: list[str] = []
    if record.get("format") != FORMAT:
        return [f"unknown record format {record.get('format')!r}"]
    rules = get(record["game"])
    if seed_commitment(record["seed"]) != record.get(
        "seed_commitment", seed_commitment(record["seed"])
    ):
        problems.append("the seed does not match its commitment")
    step = rules.new_game(record["seats"], record["options"], record["seed"])
    if step.chance != record["setup"]["chance"]:
        problems.append("set-up: chance outcomes differ")
    if _events_json(step.events) != record["setup"]["events"]:
        problems.append("set-up: events differ")
    state = step.state
    for recorded in record["steps"]:
        n = recorded["n"]
        try:
            if recorded.get("join") is True:
                if recorded["seat"] != state.seats or recorded["action"] != JOIN_ACTION:
                    problems.append(f"step {n}: a late entry must take seat {state.seats}")
                    return problems
                step = rules.add_seat(state)
            else:
                step = rules.apply(state, recorded["seat"], recorded["action"])
        except Exception as error:  # an illegal action in a record is a difference too
            problems.append(f"step {n}: {type(error).__name__}: {error}")
            return problems
        if step.chance != recorded["chance"]:
            problems.append(f"step {n}: chance outcomes differ")
        if _events_json(step.events) != recorded["events"]:
            problems.append(f"step {n}: events differ")
        state = step.state
        if problems:
            return problems
    expected = record.get("result")
    if expected is not None and result_of(rules, state) != expected:
        problems.append("final result differs")
    return problems
