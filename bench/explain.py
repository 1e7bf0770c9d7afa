"""The hot statements as PostgreSQL plans and runs them: ``EXPLAIN (ANALYZE, BUFFERS)`` of a
move's read and write, a view's read and a conditional GET's tag read.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fib_perf_bench \
    REDIS_URL=redis://127.0.0.1:6379/7 uv run python bench/explain.py

It prepares matches as ``bench/perf.py`` does (Fibber's Dice, 2 seats; the dedicated benchmark
database and Redis database are emptied first), plays a match some moves in, captures the
statements (text and parameters) that a move, a view and a conditional GET send through the
API's WSGI application (inside a transaction rolled back afterwards, so the move's write,
explained next, finds the match as the move did), and runs each again under ``EXPLAIN
(ANALYZE, BUFFERS)`` — inside a transaction that is rolled back, so nothing changes. Prints,
per statement, the plan's top lines, the planning and execution times (median of ``--runs``)
and the buffers.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django.core import signals
from django.db import close_old_connections, connection, transaction

from bench import hotpath, perf


def captured(app: Any, env: dict[str, Any]) -> list[tuple[str, Any]]:
    """The statements one request sends: ``(text, parameters)``."""
    seen: list[tuple[str, Any]] = []

    def keep(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.lstrip().split(None, 1)[0].upper() in ("SELECT", "WITH", "INSERT", "UPDATE"):
            seen.append((sql, params))  # not the harness's savepoints
        return execute(sql, params, many, context)

    # As Django's test client does: a request inside a transaction must not close the
    # connection at its start and end.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        with transaction.atomic(), connection.execute_wrapper(keep):
            status, _headers, body = hotpath.call(app, env)
            assert status in (200, 304), (status, body[:300])
            transaction.set_rollback(True)  # the move explained next finds the match as it was
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    return seen


def explain(sql: str, params: Any, runs: int) -> dict[str, Any]:
    plans: list[list[str]] = []
    for _ in range(runs):
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
                plans.append([row[0] for row in cursor.fetchall()])
            transaction.set_rollback(True)  # a write explained changes nothing

    def times(label: str) -> float:
        found = [
            float(m.group(1))
            for plan in plans
            for line in plan
            if (m := re.match(rf"{label} Time: ([\d.]+) ms", line))
        ]
        return statistics.median(found) if found else float("nan")

    last = plans[-1]
    return {
        "planning": times("Planning"),
        "execution": times("Execution"),
        "buffers": [line.strip() for line in last if "Buffers:" in line][:1],
        "plan": last,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--moves", type=int, default=6, help="moves played before measuring")
    parser.add_argument("--plan-lines", type=int, default=12)
    args = parser.parse_args()
    hotpath.reset_database()
    data = perf.prepare(1, 20, 0)
    from fibserver.wsgi import application

    script = max(data["scripts"][0], key=lambda s: len(s.moves))
    assert len(script.moves) > args.moves + 1, "no match that long: ask for fewer --moves"
    path = f"/api/matches/{script.match_id}/actions/"
    for token, body in script.moves[: args.moves]:
        assert hotpath.call(application, hotpath.environ("POST", path, token, body))[0] == 200
    token, body = script.moves[args.moves]
    wanted = {
        "a move (read and write)": hotpath.environ("POST", path, token, body),
        "a view": hotpath.environ("GET", f"/api/matches/{script.match_id}/", token),
    }
    statements: list[tuple[str, str, Any]] = []
    for name, env in wanted.items():
        for sql, params in captured(application, env):
            statements.append((name, sql, params))
    _s, headers, _b = hotpath.call(
        application, hotpath.environ("GET", f"/api/matches/{script.match_id}/", token)
    )
    tag_env = hotpath.environ(
        "GET", f"/api/matches/{script.match_id}/", token, etag=headers["ETag"]
    )
    for sql, params in captured(application, tag_env):
        statements.append(("a conditional GET (304)", sql, params))
    print(f"{len(statements)} statements; EXPLAIN (ANALYZE, BUFFERS), median of {args.runs} runs")
    for name, sql, params in statements:
        found = explain(sql, params, args.runs)
        first = " ".join(sql.split())[:90]
        print(f"\n## {name}: {first}…")
        print(
            f"planning {found['planning']:.3f} ms, execution {found['execution']:.3f} ms; "
            f"{found['buffers'][0] if found['buffers'] else 'no buffers line'}"
        )
        for line in found["plan"][: args.plan_lines]:
            print("    " + line)


if __name__ == "__main__":
    main()
