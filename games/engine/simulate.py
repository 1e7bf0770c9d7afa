"""Bot-only matches played entirely in the engine (no database), for simulate and tests."""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from .bots import Bot, make_bot
from .core import JSON, Rules
from .replay import Recorder

MAX_ACTIONS = 200_000


def match_seed(seed: int | str, index: int) -> str:
    """The secret seed of match ``index`` of a simulation run with master ``seed``."""
    return hashlib.sha256(f"fibserver-sim:{seed}:{index}".encode()).hexdigest()


@dataclasses.dataclass
class MatchResult:
    index: int
    seed: str
    finished: bool
    actions: int
    errors: list[str]
    placements: list[int] | None
    record: JSON | None
    #: why the match ended (``Rules.end_reason``), ``None`` when it did not
    end_reason: str | None = None
    #: the game's summary of the final state (``Rules.summary``), ``None`` when unfinished
    summary: JSON | None = None


def play_match(
    rules: Rules,
    seats: int,
    options: JSON | None,
    seed: str,
    levels: Sequence[str],
    *,
    bot_seed: int | str = 0,
    check: bool = True,
    max_actions: int = MAX_ACTIONS,
    index: int = 0,
    bots: Sequence[Bot] | None = None,
) -> MatchResult:
    """Play one match with a bot per seat; every bot sees only its seat's view. ``bots``:
    bot objects to play instead of new bots of ``levels``."""
    scheduler = random.Random(f"schedule:{bot_seed}:{seed}")
    if bots is None:
        bots = [
            make_bot(rules.game_id, level, random.Random(f"bot:{bot_seed}:{seed}:{s}"))
            for s, level in enumerate(levels)
        ]
    errors: list[str] = []
    recorder = Recorder(rules, seats, options, seed)
    actions = 0
    try:
        while not rules.is_over(recorder.state) and actions < max_actions:
            state = recorder.state
            to_act = rules.to_act(state)
            if check:
                errors.extend(f"action {actions}: {p}" for p in rules.invariants(state))
                if not to_act:
                    errors.append(f"action {actions}: nobody must act in an unfinished match")
                for s in range(seats):
                    if (s in to_act) != bool(rules.legal_actions(state, s)):
                        errors.append(
                            f"action {actions}: seat {s} legal actions disagree with to_act"
                        )
                if errors:
                    break
            seat = to_act[0] if len(to_act) == 1 else scheduler.choice(to_act)
            action = bots[seat].choose(rules.view(state, seat))
            recorder.apply(seat, action)
            actions += 1
        if check and not errors:
            errors.extend(f"final: {p}" for p in rules.invariants(recorder.state))
    except Exception as error:  # a crash is counted and reported, not raised
        errors.append(f"action {actions}: {type(error).__name__}: {error}")
    finished = rules.is_over(recorder.state)
    if not finished and not errors:
        errors.append(f"not finished after {actions} actions")
    return MatchResult(
        index=index,
        seed=seed,
        finished=finished,
        actions=actions,
        errors=errors,
        placements=rules.placements(recorder.state) if finished else None,
        record=recorder.record,
        end_reason=rules.end_reason(recorder.state) if finished else None,
        summary=rules.summary(recorder.state) if finished else None,
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n`` (shared wins count as
    fractions)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def simulate(
    rules: Rules,
    *,
    matches: int,
    seats: int,
    seed: int | str,
    options: JSON | None = None,
    levels: Sequence[str] | None = None,
    check: bool = True,
    keep_records: bool = False,
    on_result: Any = None,
) -> JSON:
    """Play ``matches`` bot matches and summarise them as one JSON-able dict."""
    levels = list(levels or ["random"] * seats)
    if len(levels) != seats:
        raise ValueError(f"{len(levels)} bot levels given for {seats} seats")
    rules.normalize_options(seats, dict(options or {}))  # fail fast on bad options
    started = time.perf_counter()
    lengths: list[int] = []
    finished = 0
    errors: list[JSON] = []
    wins = [0.0] * seats
    place_sums = [0] * seats
    reasons: dict[str, int] = {}
    plays: list[int] = []  # games that count plays (Fibber: discards) in their summary
    for index in range(matches):
        result = play_match(
            rules,
            seats,
            options,
            match_seed(seed, index),
            levels,
            bot_seed=seed,
            check=check,
            index=index,
        )
        lengths.append(result.actions)
        if result.finished and not result.errors:
            finished += 1
        if result.errors:
            errors.append({"match": index, "seed": result.seed, "errors": result.errors[:5]})
        if result.end_reason is not None:
            reasons[result.end_reason] = reasons.get(result.end_reason, 0) + 1
        if result.summary is not None and "plays" in result.summary:
            plays.append(result.summary["plays"])
        if result.placements:
            winners = [s for s, p in enumerate(result.placements) if p == 1]
            for s in winners:
                wins[s] += 1 / len(winners)
            for s, p in enumerate(result.placements):
                place_sums[s] += p
        if on_result is not None:
            on_result(result)
        if not keep_records:
            result.record = None
    seconds = time.perf_counter() - started
    done = max(1, sum(1 for _ in lengths))
    return {
        "game": rules.game_id,
        "matches": matches,
        "seats": seats,
        "seed": seed,
        "options": rules.normalize_options(seats, dict(options or {})),
        "bots": levels,
        "finished": finished,
        "errors": len(errors),
        "error_samples": errors[:10],
        "mean_actions": round(statistics.fmean(lengths), 2) if lengths else 0.0,
        "actions": {
            "median": percentile(lengths, 0.5),
            "p50": percentile(lengths, 0.5),
            "p99": percentile(lengths, 0.99),
            "max": max(lengths, default=0),
        },
        # The share of the matches that ended each way (unfinished matches have none).
        "end_reasons": {
            reason: round(n / max(1, matches), 4) for reason, n in sorted(reasons.items())
        },
        "win_rate": [round(w / done, 4) for w in wins],
        "win_rate_ci95": [[round(x, 4) for x in wilson(w, done)] for w in wins],
        # per level: the share of matches a seat of that level won, over its seats (seats of
        # one match are not independent, so the interval is a little narrow for a level
        # seated more than once)
        "levels": _levels(levels, wins, done),
        "mean_placement": [round(p / done, 3) for p in place_sums],
        **(
            {
                "plays": {
                    "median": percentile(plays, 0.5),
                    "p99": percentile(plays, 0.99),
                    "max": max(plays),
                }
            }
            if plays
            else {}
        ),
        "seconds": round(seconds, 3),
        "matches_per_second": round(matches / seconds, 1) if seconds else None,
    }


def _levels(levels: Sequence[str], wins: Sequence[float], done: int) -> JSON:
    out: JSON = {}
    for level in sorted(set(levels)):
        seats = [s for s, name in enumerate(levels) if name == level]
        won = sum(wins[s] for s in seats)
        n = done * len(seats)
        out[level] = {
            "seats": len(seats),
            "win_rate": round(won / n, 4),
            "ci95": [round(x, 4) for x in wilson(won, n)],
        }
    return out
