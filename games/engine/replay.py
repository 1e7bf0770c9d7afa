"""The complete record of a match, and re-running it (docs/replay.md).

A record holds the seed, seats, options, every action with its seat, every chance outcome,
every event with all its private parts, and the result. ``verify`` re-runs the actions with
the engine from the seed and confirms that every chance outcome, every event and the final
state are the same. :class:`Rerun` re-runs a record step by step: the state after any step,
checked against the record on the way (the step-by-step replay viewer reads it).
"""

from __future__ import annotations

import dataclasses
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
        "end_reason": rules.end_reason(state) if over else None,
        "stats": rules.stats(state),
        "state_digest": rules.state_digest(state),
    }


def result_differs(actual: JSON, expected: JSON) -> bool:
    """Whether a re-run's result differs from a recorded one. Records written before results
    named the end reason have none; everything they do have must match."""
    if "end_reason" not in expected:
        actual = {k: v for k, v in actual.items() if k != "end_reason"}
    return actual != expected


def _run_step(rules: Rules, state: Any, recorded: JSON) -> Step:
    """Re-run one recorded step (an action, or a late entry) on ``state``; raises
    :class:`RerunError` when the record says something the engine cannot do."""
    n = recorded["n"]
    try:
        if recorded.get("join") is True:
            if recorded["seat"] != state.seats or recorded["action"] != JOIN_ACTION:
                raise RerunError(f"step {n}: a late entry must take seat {state.seats}")
            return rules.add_seat(state)
        return rules.apply(state, recorded["seat"], recorded["action"])
    except RerunError:
        raise
    except Exception as error:  # an illegal action in a record is a difference too
        raise RerunError(f"step {n}: {type(error).__name__}: {error}") from None


def _differences(name: str, step: Step, recorded: JSON) -> list[str]:
    """How the engine's ``step`` differs from the ``recorded`` one: chance outcomes, events."""
    out = []
    if step.chance != recorded["chance"]:
        out.append(f"{name}: chance outcomes differ")
    if _events_json(step.events) != recorded["events"]:
        out.append(f"{name}: events differ")
    return out


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
    problems += _differences("set-up", step, record["setup"])
    state = step.state
    for recorded in record["steps"]:
        try:
            step = _run_step(rules, state, recorded)
        except RerunError as error:
            problems.append(error.reason)
            return problems
        problems += _differences(f"step {recorded['n']}", step, recorded)
        state = step.state
        if problems:
            return problems
    expected = record.get("result")
    if expected is not None and result_differs(result_of(rules, state), expected):
        problems.append("final result differs")
    return problems


# --- Step by step -------------------------------------------------------------------------


class RerunError(Exception):
    """The record cannot be re-run that far: an unknown format, or a step the engine refuses
    (an illegal action, a late entry into the wrong seat). ``reason`` says which step."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    """The match after step ``n`` of a record (0: after the set-up), as the engine re-ran it.

    ``events`` and ``chance`` are what the engine produced at that step; ``differences`` lists
    every way the re-run differed from the record in the set-up and steps 1 … n (and, at the
    last step, in the result): empty when it matched. Never change ``state``: it is shared."""

    n: int
    state: Any
    events: list[Event]
    chance: list[list[Any]]
    differences: tuple[str, ...]

    @property
    def matched(self) -> bool:
        return not self.differences


class Rerun:
    """Re-runs a record with the engine, step by step, to the state after any step ``n``.

    Every step is re-run once in order from the set-up and checked against the record as it
    goes (chance outcomes and events, as :func:`verify` does); the states after every
    ``every``-th step are kept, so ``at(n)`` re-runs at most ``every - 1`` steps from the
    nearest one (none when stepping on by one from the last point asked for). Not safe to
    call from two threads at once: the caller serialises. Memory: about
    ``steps / every + 2`` states.
    """

    def __init__(self, record: JSON, every: int = 16) -> None:
        if record.get("format") != FORMAT:
            raise RerunError(f"unknown record format {record.get('format')!r}")
        if every < 1:
            raise ValueError("every must be at least 1")
        self.record = record
        self.rules: Rules = get(record["game"])
        self.every = every
        self.steps: list[JSON] = list(record["steps"])
        #: the number of steps of the record: ``at`` takes 0 … ``last``
        self.last = len(self.steps)
        step = self.rules.new_game(record["seats"], record["options"], record["seed"])
        found = _differences("set-up", step, record["setup"])
        self._found: list[tuple[int, str]] = [(0, d) for d in found]
        first = Point(0, step.state, step.events, step.chance, tuple(found))
        self._kept: dict[int, Point] = {0: first}
        self._latest = first
        self._checked = 0  # every step up to this one has been re-run and checked
        self._broken: tuple[int, str] | None = None  # the first step the engine refused

    def at(self, n: int) -> Point:
        """The match after step ``n`` (``0 <= n <= last``); :class:`RerunError` when the
        record cannot be re-run that far, :class:`IndexError` for an ``n`` out of range."""
        if type(n) is not int or not 0 <= n <= self.last:
            raise IndexError(f"no step {n!r}: steps run from 0 (the set-up) to {self.last}")
        if self._broken is not None and n >= self._broken[0]:
            raise RerunError(self._broken[1])
        start = self._kept[max(k for k in self._kept if k <= n)]
        if start.n < self._latest.n <= n:
            start = self._latest
        point = start
        while point.n < n:
            point = self._next(point)
        self._latest = point
        return point

    def _next(self, point: Point) -> Point:
        n = point.n + 1
        recorded = self.steps[n - 1]
        try:
            step = _run_step(self.rules, point.state, recorded)
        except RerunError as error:
            self._broken = (n, error.reason)
            raise
        if n > self._checked:
            found = _differences(f"step {n}", step, recorded)
            if n == self.last:
                expected = self.record.get("result")
                if expected is not None and result_differs(
                    result_of(self.rules, step.state), expected
                ):
                    found.append("final result differs")
            self._found += [(n, d) for d in found]
            self._checked = n
        differences = tuple(d for k, d in self._found if k <= n)
        new = Point(n, step.state, step.events, step.chance, differences)
        if n % self.every == 0 or n == self.last:
            self._kept[n] = new
        return new

    def step_json(self, n: int) -> JSON:
        """What the replay viewer shows after step ``n`` (docs/replay.md "Step by step"):
        the recorded step, the engine's views of every seat and of a spectator at that point
        (everything is revealed once a match has ended), each seat's legal actions then, and
        whether the re-run matched the record so far."""
        point = self.at(n)
        rules, state = self.rules, point.state
        # The spectator's view holds the public part once; each seat's view adds only its
        # private part and legal actions (``Rules.view`` is built from the same two hooks).
        spectator = rules.view(state, None)
        del spectator["legal_actions"]
        seats = range(state.seats)
        if n == 0:
            step: JSON = {"n": 0}  # the set-up: no seat acted
        else:
            recorded = self.steps[n - 1]
            step = {"n": n, "seat": recorded["seat"], "action": recorded["action"]}
            for flag in ("join", "by_bot"):
                if recorded.get(flag) is True:
                    step[flag] = True
        step["chance"] = point.chance
        step["events"] = _events_json(point.events)
        return {
            "n": n,
            "last": self.last,
            "step": step,
            "view": spectator,
            "private": [rules.private_view(state, seat) for seat in seats],
            "legal_actions": [rules.legal_actions(state, seat) for seat in seats],
            "matched": point.matched,
            "differences": list(point.differences),
        }


def state_after(record: JSON, n: int) -> Point:
    """The match after step ``n`` of ``record``, re-run from its seed and checked on the way
    (a one-off :class:`Rerun`)."""
    return Rerun(record).at(n)
