"""What a finished match reveals: its complete record (hidden information included), the
record re-run step by step by the engine, and its bluff statistics. Nothing here answers
before the match has finished."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

from kernel.errors import Conflict, Invalid, NotFound

from ..engine import registry
from ..engine.replay import FORMAT, JOIN_ACTION, Rerun, RerunError, result_of
from ..models import Event, Match
from .views import render_seat

NOT_FINISHED = "The replay is available once the match has finished."


def read_replay(match: Match) -> dict[str, Any]:
    """The complete record (docs/replay.md), hidden information included: after the end only."""
    if match.status != Match.Status.FINISHED:
        raise NotFound(NOT_FINISHED)
    rules = registry.get(match.game)
    rows = list(Event.objects.filter(match=match).order_by("seq"))
    if not rows or match.state is None:  # a match made by seed_demo keeps no log
        raise NotFound("This match has no recorded log to replay.")
    by_version: dict[int, list[Event]] = {}
    for row in rows:
        by_version.setdefault(row.version, []).append(row)
    versions = sorted(by_version)
    setup = by_version[versions[0]]

    def events_json(group: list[Event]) -> list[dict[str, Any]]:
        return [
            {"type": e.type, "public": e.public, "private": e.private}
            for e in group
            if not (e.type == "action" and len(group) == 1 and e.public == {"seat": e.actor})
        ]

    steps = []
    joins = 0
    for n, version in enumerate(versions[1:], start=1):
        group = by_version[version]
        first = group[0]
        step = {"n": n, "seat": first.actor, "action": first.action}
        if first.action == JOIN_ACTION and first.type == "seat_joined":
            step["join"] = True  # a late entrant (docs/replay.md), re-run with add_seat
            joins += 1
        if any(e.by_bot for e in group):
            step["by_bot"] = True
        step["chance"] = first.chance or []
        step["events"] = events_json(group)
        steps.append(step)
    assert match.state is not None, "a finished match has its final state"
    state = rules.from_json(match.state)
    return {
        "format": FORMAT,
        "game": match.game,
        "seats": match.seat_count - joins,  # the seats it started with
        "options": match.options,
        "seed": match.seed,
        "seed_commitment": match.seed_commitment,
        "setup": {"chance": setup[0].chance or [], "events": events_json(setup)},
        "steps": steps,
        # Exactly what the engine's re-run gives (``verify`` compares it): the statistics of
        # every decision, whoever took it.
        "result": result_of(rules, state),
        # Who decided: each seat's statistics split into its own decisions and those a bot took
        # for it after a deadline (the two add up to ``result.stats``).
        "attribution": [
            {"stats": own, "bot_stats": bot}
            for own, bot in zip(match.stats or [], _takeover_stats(match), strict=True)
        ],
    }


# --- The step-by-step replay -------------------------------------------------------------------

#: How many matches' re-runs a process keeps (least recently used out first). A re-run keeps
#: its record and the engine state after every 16th step: for a 1,200-step Fibber match 234 KB
#: of record and 105 KB of states as JSON, a few times that as Python objects.
REPLAY_RERUNS = 16
_reruns: OrderedDict[tuple[Any, int], tuple[threading.Lock, Rerun]] = OrderedDict()
_reruns_lock = threading.Lock()
_STEP_NUMBER = re.compile(r"[0-9]+")


def step_number(value: str | int) -> int:
    """A step number as a path segment (REST) or an argument (GraphQL): a whole number from 0,
    else ``400 invalid``. Past the last step is ``404`` (:func:`read_replay_step`)."""
    if type(value) is int and value >= 0:
        return value
    if isinstance(value, str) and _STEP_NUMBER.fullmatch(value):
        if len(value) > 9:  # a whole number, but far past the last step of any match
            raise NotFound("No such step: that is past the last step of this match.")
        return int(value)
    raise Invalid(
        "'n' must be a whole number from 0 (the set-up) to the match's last step.", field="n"
    )


def _rerun_of(match: Match) -> tuple[threading.Lock, Rerun]:
    """The re-run of a finished match's record, from the process's cache or read now. A
    finished match never changes; its version is in the key all the same."""
    key = (match.pk, match.version)
    with _reruns_lock:
        entry = _reruns.get(key)
        if entry is not None:
            _reruns.move_to_end(key)
            return entry
    try:
        rerun = Rerun(read_replay(match))  # the read and the set-up outside the lock
    except RerunError as error:
        raise Conflict(f"The record does not re-run: {error.reason}") from None
    with _reruns_lock:
        entry = _reruns.setdefault(key, (threading.Lock(), rerun))
        _reruns.move_to_end(key)
        while len(_reruns) > REPLAY_RERUNS:
            _reruns.popitem(last=False)
    return entry


def read_replay_step(match: Match, n: int) -> dict[str, Any]:
    """The match after step ``n`` of its record (0: the set-up), re-run by the engine from the
    revealed seed and checked against the record on the way (docs/replay.md "Step by step"):
    every seat's view, everyone's legal actions, the step taken. After the end only."""
    if match.status != Match.Status.FINISHED:
        raise NotFound(NOT_FINISHED)
    lock, rerun = _rerun_of(match)
    if n > rerun.last:
        raise NotFound(f"No step {n}: this match has steps 0 (the set-up) to {rerun.last}.")
    with lock:  # a re-run moves forward from its kept states: one request at a time
        try:
            body = rerun.step_json(n)
        except RerunError as error:
            raise Conflict(f"The record does not re-run: {error.reason}") from None
    return {"match": str(match.pk), "game": match.game, **body}


def _takeover_stats(match: Match) -> list[dict[str, int]]:
    return match.takeover_stats or [{} for _ in range(match.seat_count)]


def read_stats(match: Match) -> dict[str, Any]:
    """Bluff statistics: hidden from everyone, the players included, until the match ends."""
    if match.status != Match.Status.FINISHED or match.stats is None:
        raise NotFound("Statistics are revealed once the match has finished.")
    seats = list(match.seats.select_related("user").order_by("position"))
    takeover = _takeover_stats(match)
    return {
        "match": str(match.pk),
        "game": match.game,
        "placements": match.placements,
        "seats": [
            {
                **render_seat(seat),
                "stats": match.stats[seat.position],
                # what bots did for this seat after its deadlines passed, counted apart
                "bot_stats": takeover[seat.position],
            }
            for seat in seats
        ],
    }
