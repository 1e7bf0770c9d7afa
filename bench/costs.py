"""What one request costs, in one process, part by part: the CPU side of
``bench/perf.py``'s ratios.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fib_perf_costs \
    REDIS_URL=redis://127.0.0.1:6379/7 uv run python bench/costs.py

It prepares matches as ``bench/perf.py`` does (its ``prepare``), then calls the API's WSGI
application (``fibserver.wsgi``, the fast lane's entry included) directly — no gunicorn, no
sockets to a client, no other process competing for the cores — and measures, in batches
interleaved with each other (a shared machine's speed drifts; each figure is the median and the
fastest of its batches), the CPU time of this process and of its PostgreSQL backend per operation:

- the building blocks: a Redis command, a PostgreSQL round trip (``SELECT 1``), the move's read
  (prepared), Django's request cycle (``/healthz/``, the full handler);
- the floor move and the move, the floor GET, a view, a 304.

Writes ``bench/costs.md`` (``--out``). The gunicorn side (accepting, parsing, writing and
closing a connection) is not in these figures: ``bench/perf.py`` serves the same requests
through gunicorn, and ``--hello`` here measures a gunicorn worker answering a constant body.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from api import rediscache  # noqa: E402
from bench import perf  # noqa: E402  (sets up Django with the benchmark's settings)
from games import hotsql  # noqa: E402
from games.reads.store import READ_SQL  # noqa: E402

CLK = os.sysconf("SC_CLK_TCK")
HEALTHZ = "Django's request cycle (/healthz/)"


def environ(method: str, path: str, token: str | None = None, body: Any = None) -> dict[str, Any]:
    raw = orjson.dumps(body) if body is not None else b""
    env: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "HTTP_HOST": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "CONTENT_LENGTH": str(len(raw)),
    }
    if body is not None:
        env["CONTENT_TYPE"] = "application/json"
    if token:
        env["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return env


class App:
    def __init__(self) -> None:
        from fibserver.wsgi import application

        self.application = application
        self.statuses: dict[str, dict[int, int]] = {}

    def call(self, name: str, env: dict[str, Any]) -> bytes:
        counts = self.statuses.setdefault(name, {})

        def start_response(status: str, _headers: Any, _exc: Any = None) -> None:
            code = int(status.split()[0])
            counts[code] = counts.get(code, 0) + 1

        result = self.application(env, start_response)
        try:
            return b"".join(result)
        finally:
            result.close()


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=40, help="operations per batch")
    parser.add_argument("--matches", type=int, default=40, help="Skull matches to move in")
    parser.add_argument("--out", default=str(ROOT / "bench" / "costs.md"))
    parser.add_argument("--hello", action="store_true", help="also a gunicorn hello-world")
    args = parser.parse_args()
    db = perf.settings.DATABASES["default"]
    assert "bench" in db["NAME"] or "perf" in db["NAME"], "use a dedicated benchmark database"
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE games_match, accounts_user CASCADE")
    data = perf.prepare(1, args.matches, 0)
    moves = [(s.match_id, t, b) for s in data["scripts"][0] for t, b in s.moves]
    view_id, view_token = data["views"][0]
    floor_id = data["floors"][0]
    app = App()
    tag = _etag(app, view_id, view_token)
    redis = rediscache.client()
    assert redis is not None, "needs Redis"
    redis.set("bench-costs", b"x" * 200)
    queue = iter(moves)

    def move() -> None:
        match_id, token, body = next(queue)
        app.call("move", environ("POST", f"/api/matches/{match_id}/actions/", token, body))

    floor_body = {"type": "play", "card": 1}

    def read() -> None:
        with hotsql.cursor() as cursor:
            cursor.execute(READ_SQL, [perf.settings.FIBSERVER["RECENT_EVENTS"], moves[0][0]])
            cursor.fetchall()

    def select_1() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchall()

    def redis_get() -> None:
        redis.get("bench-costs")

    def floor_move() -> None:
        app.call("floor move", environ("POST", f"/bench/floor/{floor_id}/move/", None, floor_body))

    def floor_get() -> None:
        app.call("floor GET", environ("GET", f"/bench/floor/{floor_id}/"))

    def healthz() -> None:
        app.call(HEALTHZ, environ("GET", "/healthz/"))

    def view() -> None:
        app.call("view GET 200", environ("GET", f"/api/matches/{view_id}/", view_token))

    def not_modified() -> None:
        env = environ("GET", f"/api/matches/{view_id}/", view_token)
        env["HTTP_IF_NONE_MATCH"] = tag
        app.call("view GET 304", env)

    parts: list[tuple[str, Callable[[], None]]] = [
        ("Redis GET (redis-py, hiredis)", redis_get),
        ("PostgreSQL round trip (SELECT 1)", select_1),
        ("the move's read, prepared", read),
        (HEALTHZ, healthz),
        ("floor move", floor_move),
        ("move", move),
        ("floor GET", floor_get),
        ("view GET 200", view),
        ("view GET 304", not_modified),
    ]
    for _name, job in parts:  # warm every path (imports, prepared statements, caches)
        for _ in range(10):
            job()
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in parts}
    rounds = (len(moves) - 10) // args.batch
    for _ in range(rounds):
        for name, job in parts:
            connection.ensure_connection()
            backend = connection.connection.info.backend_pid
            app0, db0 = time.process_time(), backend_cpu(backend)
            for _ in range(args.batch):
                job()
            if connection.connection is None or connection.connection.info.backend_pid != backend:
                continue  # the connection was replaced meanwhile: its backend's CPU is lost
            samples[name].append(
                (
                    1000 * (time.process_time() - app0) / args.batch,
                    1000 * (backend_cpu(backend) - db0) / args.batch,
                )
            )
    hello = _hello() if args.hello else None
    text = _report(args, samples, rounds, app.statuses, hello)
    Path(args.out).write_text(text)
    print(text)


def _etag(app: App, match_id: str, token: str) -> str:
    head: list[Any] = []
    result = app.application(
        environ("GET", f"/api/matches/{match_id}/", token), lambda s, h, *_: head.append(h)
    )
    result.close()
    return dict(head[0])["ETag"]


def _hello() -> float:
    """CPU per request of gunicorn sync workers answering a constant body (its own cost)."""
    port = perf.API_PORT + 50
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "bench.perf_hello:application",
            "-w",
            "4",
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        start_new_session=True,
    )
    try:
        time.sleep(3)
        workers = perf.children(server.pid)
        raw = perf.http("GET", "/")
        before = sum(perf.proc_cpu(p) for p in workers)
        run = uvloop.run(
            perf.closed_loop("hello", port, 8, 3.0, lambda _i: iter(lambda: (raw, (200,)), None))
        )
        return 1000 * (sum(perf.proc_cpu(p) for p in workers) - before) / run.count
    finally:
        server.terminate()
        server.wait(10)


def _report(
    args: argparse.Namespace,
    samples: dict[str, list[tuple[float, float]]],
    rounds: int,
    statuses: dict[str, dict[int, int]],
    hello: float | None,
) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# What one request costs, part by part",
        "",
        f"Generated by `bench/costs.py` at commit `{commit}` on {now}: the API's WSGI application "
        f"called in-process (no gunicorn, no client sockets), {rounds} interleaved batches of "
        f"{args.batch} per row. CPU per operation of this process (app, in ms: the median of the "
        "batches and the fastest batch) and of its PostgreSQL backend (DB: over all batches, "
        "the kernel counts it in 10 ms ticks).",
        "",
        "| operation | app median | app fastest | DB mean | statuses |",
        "|---|---|---|---|---|",
    ]
    for name, values in samples.items():
        app = [a for a, _ in values]
        dbs = [d for _, d in values]
        status = statuses.get(name, {})
        lines.append(
            f"| {name} | {statistics.median(app):.2f} | {min(app):.2f} | "
            f"{sum(dbs) / len(dbs):.2f} | "
            f"{', '.join(f'{k}: {v}' for k, v in sorted(status.items())) or '—'} |"
        )
    if hello is not None:
        lines += [
            "",
            f"A gunicorn sync worker answering a constant body (`bench/perf_hello.py`, 4 "
            f"workers, 8 clients): {hello:.2f} ms of worker CPU per request.",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
