"""Solve heads-up Fibber's Dice exactly (offline; needs SciPy, a development dependency).

Every stage of :mod:`games.engine.fibbers_dice.headsup` (who rolls, the standing announcement,
at one point state) is a zero-sum signalling game: the roller's 21 possible rolls, the
announcements above the standing one, and the responder's call-or-believe for each announcement
it sees. It is solved by two linear programs, one per side, solved apart (HiGHS through
``scipy.optimize.linprog``):

* the **roller's**: realisation weights ``x[r, m]`` (the chance of rolling ``r`` and
  announcing ``m``, summing to the chance of ``r`` over ``m``) maximising the sum over ``m``
  of the responder's best answer to what ``m`` says of the roll;
* the **responder's**: a chance ``c[m]`` of calling each announcement minimising the roller's
  best announcement for each roll.

Both optima are the stage's value (minimax); the two are checked to agree within
:data:`AGREE` for every stage, and a best response to the solution (computed by
:func:`games.engine.fibbers_dice.headsup.value`, without linear programs) is the independent
check of the whole.

``python -m games.solvers.fibbers_dice [--points N] [--out PATH]`` writes the
equilibrium the server ships (``games/engine/fibbers_dice/headsup.json.gz``; all point states
up to 10 points each, about a minute).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import linprog

from games.engine.fibbers_dice.headsup import (
    DATA,
    NONE,
    OTHER,
    STARTER,
    TOP,
    Point,
    Solution,
    Stage,
    Stakes,
    lose_values,
)
from games.engine.fibbers_dice.headsup import N as SCORES
from games.engine.fibbers_dice.scores import P_EQ

#: The two programs of a stage must agree this closely (chances of winning).
AGREE = 1e-7
#: Probabilities below this are dropped from the shipped mixes; the rest are renormalised.
DROP = 1e-5
#: How much of the stage's value the refining program may give up (rounding only).
REFINE = 1e-10
#: What the refining program counts against an announcement below the roll.
UNDER = 1e-3
#: Digits kept of each probability and value.
DIGITS = 9


class SolverError(RuntimeError):
    pass


def solve_stage(
    stakes: Stakes, role: int, standing: int, believed: dict[int, float]
) -> tuple[float, list[dict[int, float]], dict[int, float]]:
    """One stage: the roller's value, its announcement mix per roll and the responder's chance
    of calling each announcement. ``believed[m]``: the roller's value when ``m`` is believed
    (one minus the responder's value as the roller over ``m``)."""
    messages = list(range(standing + 1, SCORES))
    answered = [m for m in messages if m != TOP]
    called = np.array(
        [[stakes.called(role, r, m) for m in messages] for r in range(SCORES)], dtype=float
    )
    value_x, mixes = _roller_program(messages, answered, called, believed)
    value_c, calls = _responder_program(messages, answered, called, believed)
    if abs(value_x - value_c) > AGREE:
        raise SolverError(
            f"stage ({role}, {standing}): the programs disagree ({value_x} against {value_c})"
        )
    return value_x, mixes, calls


def _roller_program(
    messages: list[int], answered: list[int], called: np.ndarray, believed: dict[int, float]
) -> tuple[float, list[dict[int, float]]]:
    n_x = SCORES * len(messages)
    n = n_x + len(answered)

    def x(r: int, j: int) -> int:
        return r * len(messages) + j

    cost = np.zeros(n)
    if messages[-1] == TOP:  # Max is shown at once: its payoff needs no answer
        j = len(messages) - 1
        for r in range(SCORES):
            cost[x(r, j)] = -called[r, j]
    a_ub = np.zeros((2 * len(answered), n))
    for k, m in enumerate(answered):
        j = messages.index(m)
        t = n_x + k
        cost[t] = -1.0
        a_ub[2 * k, t] = a_ub[2 * k + 1, t] = 1.0
        for r in range(SCORES):
            a_ub[2 * k, x(r, j)] = -called[r, j]  # t_m <= payoff when called
            a_ub[2 * k + 1, x(r, j)] = -believed[m]  # t_m <= payoff when believed
    a_eq = np.zeros((SCORES, n))
    for r in range(SCORES):
        for j in range(len(messages)):
            a_eq[r, x(r, j)] = 1.0
    bounds = [(0.0, None)] * n_x + [(None, None)] * len(answered)
    result = linprog(
        cost,
        A_ub=a_ub if answered else None,
        b_ub=np.zeros(2 * len(answered)) if answered else None,
        A_eq=a_eq,
        b_eq=np.array(P_EQ),
        bounds=bounds,
        method="highs",
    )
    if result.status != 0:
        raise SolverError(f"the roller's program failed: {result.message}")
    value = -float(result.fun)
    # Among the optimal strategies, the one that does best against a responder who answers
    # by a coin: it never gives up a point that an error of the responder would give it
    # (such as announcing less than a rolled Max when the lower announcement is always called);
    # and, where that leaves a choice, no announcement below the roll.
    tremble = np.zeros(n)
    for j, m in enumerate(messages):
        for r in range(SCORES):
            pay = called[r, j] if m == TOP else 0.5 * (called[r, j] + believed[m])
            tremble[x(r, j)] = -pay + (UNDER if m < r else 0.0)
    result = linprog(
        tremble,
        A_ub=np.vstack([a_ub, cost]),
        b_ub=np.append(np.zeros(2 * len(answered)), -(value - REFINE)),
        A_eq=a_eq,
        b_eq=np.array(P_EQ),
        bounds=bounds,
        method="highs",
    )
    if result.status != 0:
        raise SolverError(f"the roller's refining program failed: {result.message}")
    mixes = []
    for r in range(SCORES):
        weights = {m: float(result.x[x(r, j)]) / P_EQ[r] for j, m in enumerate(messages)}
        mixes.append(_clean(weights))
    return value, mixes


def _responder_program(
    messages: list[int], answered: list[int], called: np.ndarray, believed: dict[int, float]
) -> tuple[float, dict[int, float]]:
    # variables: c[m] for m in answered, then z[r]
    n = len(answered) + SCORES
    cost = np.zeros(n)
    cost[len(answered) :] = P_EQ
    rows, rhs = [], []
    for r in range(SCORES):
        for k, m in enumerate(answered):
            # z_r >= c_m * called + (1 - c_m) * believed
            row = np.zeros(n)
            j = messages.index(m)
            row[k] = called[r, j] - believed[m]
            row[len(answered) + r] = -1.0
            rows.append(row)
            rhs.append(-believed[m])
    bounds: list[tuple[float | None, float | None]] = [(0.0, 1.0)] * len(answered)
    for r in range(SCORES):
        floor = called[r, len(messages) - 1] if messages[-1] == TOP else None
        bounds.append((floor, None))
    result = linprog(
        cost,
        A_ub=np.array(rows) if rows else None,
        b_ub=np.array(rhs) if rows else None,
        bounds=bounds,
        method="highs",
    )
    if result.status != 0:
        raise SolverError(f"the responder's program failed: {result.message}")
    calls = {m: _round(min(1.0, max(0.0, float(result.x[k])))) for k, m in enumerate(answered)}
    return float(result.fun), calls


def _round(p: float) -> float:
    return round(p, DIGITS)


def _clean(weights: dict[int, float]) -> dict[int, float]:
    kept = {m: w for m, w in weights.items() if w > DROP}
    total = sum(kept.values())
    return {m: _round(w / total) for m, w in sorted(kept.items())}


def solve_point(
    point: Point, values: dict[Point, float]
) -> tuple[float, dict[Stage, list[dict[int, float]]], dict[Stage, dict[int, float]]]:
    """Every stage of one point state, the point states with fewer points being in
    ``values``; the starter's chance of winning and the strategies."""
    stakes = Stakes(lose_values(point, values))
    roller: dict[tuple[int, int], float] = {}  # (role, standing) -> roller's value
    announce: dict[Stage, list[dict[int, float]]] = {}
    calls: dict[Stage, dict[int, float]] = {}
    for standing in range(TOP - 1, NONE - 1, -1):
        for role in (STARTER, OTHER) if standing != NONE else (STARTER,):
            other = 1 - role
            believed = {m: 1.0 - roller[(other, m)] for m in range(standing + 1, TOP)}
            v, mixes, c = solve_stage(stakes, role, standing, believed)
            roller[(role, standing)] = v
            announce[(role, standing)] = mixes
            calls[(role, standing)] = c
    return _round(roller[(STARTER, NONE)]), announce, calls


def solve(points_max: int, progress: bool = False) -> Solution:
    """The equilibrium of every point state up to ``points_max`` points each."""
    values: dict[Point, float] = {}
    announce, calls = {}, {}
    for total in range(2, 2 * points_max + 1):
        for s in range(max(1, total - points_max), min(points_max, total - 1) + 1):
            point = (s, total - s)
            values[point], announce[point], calls[point] = solve_point(point, values)
            if progress:
                print(f"{point}: starter wins {values[point]:.4f}", file=sys.stderr)
    return Solution(points_max, values, announce, calls)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=10, help="most points each (1-10)")
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    solution = solve(args.points, progress=True)
    solution.write(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
