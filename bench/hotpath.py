"""The hot path in one process: what a move and a view cost in Python, without sockets.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fib_perf_bench \
    REDIS_URL=redis://127.0.0.1:6379/7 uv run python bench/hotpath.py [--profile]

``bench/perf.py`` measures the production shape against the shared floor over HTTP; this
measures the same requests handed straight to the API's WSGI application (``fibserver.wsgi``)
in this process, so that each step of the hot path can be weighed on its own, quickly:

- **move**: the CPU (this process: the application and its publisher thread) and the
  PostgreSQL backend's CPU per ``POST /api/matches/{id}/actions/`` of whole Fibber's Dice
  matches, 2 seats, as ``bench/perf.py`` plays them;
- **view 200 / 304**: the same for ``GET /api/matches/{id}/`` (with ``If-None-Match`` current);
- **engine step** and **rendering**: the rules' ``apply`` and the caller's view rendered from a
  stored match, alone.

``--profile`` adds cProfile's top functions for the move. Uses the dedicated benchmark
database and Redis database (emptied first) and the production settings (``bench.perf``'s).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django.core.management import call_command
from django.db import connection

from bench import perf


def environ(method: str, path: str, token: str, body: Any = None, etag: str = "") -> dict[str, Any]:
    data = b"" if body is None else orjson.dumps(body)
    env: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8101",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Bearer {token}",
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if body is not None:
        env["CONTENT_TYPE"] = "application/json"
        env["CONTENT_LENGTH"] = str(len(data))
    if etag:
        env["HTTP_IF_NONE_MATCH"] = etag
    return env


def backend_cpu() -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    return perf.proc_cpu(pid)


def call(app: Callable[..., Any], env: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    head: list[Any] = []
    out = app(env, lambda status, headers, exc_info=None: head.append((status, headers)))
    body = b"".join(out)
    if hasattr(out, "close"):
        out.close()
    return int(head[0][0][:3]), dict(head[0][1]), body


def measure(name: str, app: Any, envs: list[dict[str, Any]], expect: int) -> dict[str, Any]:
    db0, cpu0, wall0 = backend_cpu(), time.process_time(), time.perf_counter()
    statuses: dict[int, int] = {}
    for env in envs:
        status, _headers, _body = call(app, env)
        statuses[status] = statuses.get(status, 0) + 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    db = backend_cpu() - db0
    n = len(envs)
    print(
        f"{name:10} {n:6} requests  {1000 * cpu / n:6.3f} ms CPU  {1000 * db / n:6.3f} ms "
        f"PostgreSQL CPU  {1000 * wall / n:6.3f} ms wall  {statuses}",
        flush=True,
    )
    if statuses.get(expect, 0) != n:
        raise SystemExit(f"{name}: expected {expect} for every request, got {statuses}")
    return {"cpu": cpu / n, "db": db / n, "wall": wall / n}


def alone(name: str, fn: Callable[[], Any], n: int) -> None:
    t0 = time.process_time()
    for _ in range(n):
        fn()
    print(f"{name:24} {1e6 * (time.process_time() - t0) / n:8.1f} µs", flush=True)


def move_envs(script: perf.Script) -> list[dict[str, Any]]:
    path = f"/api/matches/{script.match_id}/actions/"
    return [environ("POST", path, token, body) for token, body in script.moves]


def timed(name: str, fn: Callable[[], Any], per: int, unit: str) -> None:
    db0, cpu0 = backend_cpu(), time.process_time()
    fn()
    cpu, db = time.process_time() - cpu0, backend_cpu() - db0
    print(
        f"{name:28} {1000 * cpu / per:7.3f} ms CPU  {1000 * db / per:7.3f} ms PostgreSQL CPU "
        f"per {unit} ({per})",
        flush=True,
    )


def follow_up(scripts: list[perf.Script]) -> None:
    """What the Celery worker does after the moves: the periodic jobs of one tick of
    ``SWEEP_SECONDS`` with nothing to do, the relay of the moves' notifications, the
    end-of-match work of the finished matches."""
    from games import tasks as game_tasks
    from notifications import tasks as note_tasks
    from notifications.deliveries import mobile_platforms
    from notifications.models import Notification
    from tournaments import tasks as tournament_tasks

    mobile_platforms()  # imports the push clients: once per worker, not per relay
    pending = Notification.objects.filter(dispatched=False, due_at__isnull=True).count()
    if os.environ.get("HOTPATH_PROFILE_RELAY"):
        profiler = cProfile.Profile()
        profiler.runcall(note_tasks.relay)
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
        stats.print_stats(int(os.environ.get("HOTPATH_TOP", "35")))
        print(out.getvalue())
    timed("relay of the moves' notes", note_tasks.relay, max(pending, 1), "notification")
    finished = [s.match_id for s in scripts]
    if os.environ.get("HOTPATH_PROFILE_RESULTS"):
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [game_tasks.record_results(m) for m in finished[:50]])
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
        stats.print_stats(int(os.environ.get("HOTPATH_TOP", "35")))
        print(out.getvalue())
        finished = finished[50:]
    timed(
        "end-of-match work",
        lambda: [game_tasks.record_results(m) for m in finished],
        len(finished),
        "match",
    )

    def tick() -> None:
        game_tasks.sweep()
        tournament_tasks.start_due()
        note_tasks.relay()

    def ticks() -> None:
        for _ in range(100):
            tick()

    timed("one idle tick (sweep+relay…)", ticks, 100, "tick")


def reset_database() -> None:
    """Migrate and empty the dedicated benchmark database and Redis database."""
    db = perf.settings.DATABASES["default"]
    assert "bench" in db["NAME"] or "perf" in db["NAME"], "use a dedicated benchmark database"
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE games_match, accounts_user CASCADE")
    import redis

    redis.Redis.from_url(str(perf.settings.REDIS_URL)).flushdb()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=120)
    parser.add_argument("--views", type=int, default=3000)
    parser.add_argument("--profile", action="store_true", help="cProfile the ordinary moves")
    parser.add_argument("--profile-final", action="store_true", help="cProfile the final moves")
    args = parser.parse_args()
    reset_database()
    data = perf.prepare(2, args.matches // 2, 0)

    from fibserver.wsgi import application

    scripts = [s for per_client in data["scripts"] for s in per_client]
    warm, scripts = scripts[:10], scripts[10:]
    measure("warm-up", application, [env for s in warm for env in move_envs(s)], 200)
    # A match's last move ends it (the finisher: results, ratings, statistics, notifications);
    # the others are the ordinary move. Measured apart, over the same matches, in turn.
    ordinary = [move_envs(s)[:-1] for s in scripts]
    final = [move_envs(s)[-1:] for s in scripts]
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    measure("move", application, [env for envs in ordinary for env in envs], 200)
    if args.profile:
        profiler.disable()
    if args.profile_final:
        profiler = cProfile.Profile()
        profiler.enable()
    measure("final move", application, [env for envs in final for env in envs], 200)
    if args.profile or args.profile_final:
        profiler.disable()
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            top = int(os.environ.get("HOTPATH_TOP", "35"))
            pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(top)
            print(out.getvalue())

    follow_up(scripts)

    match_id, token = data["views"][0]
    _s, headers, _b = call(application, environ("GET", f"/api/matches/{match_id}/", token))
    etag = headers["ETag"]
    views = [environ("GET", f"/api/matches/{match_id}/", token) for _ in range(args.views)]
    measure("view 200", application, views, 200)
    path = f"/api/matches/{match_id}/"
    cond = [environ("GET", path, token, etag=etag) for _ in range(args.views)]
    measure("view 304", application, cond, 304)

    from games.engine import registry
    from games.models import Match
    from games.reads import views as reads

    match = Match.objects.get(pk=match_id)
    rules = registry.get(match.game)
    stored: dict[str, Any] = match.state or {}
    state = rules.from_json(stored)
    seat = rules.to_act(state)[0]
    legal = rules.view(state, seat)
    bot = perf.make_bot(match.game, "random", random.Random(1))
    action = bot.choose(legal)
    alone("engine: from_json", lambda: rules.from_json(stored), 5000)
    alone("engine: apply", lambda: rules.apply(state, seat, action), 5000)
    alone("engine: to_json", lambda: rules.to_json(state), 5000)
    user = match.seats.get(position=0).user
    alone("render: read_view", lambda: reads.read_view(match_id, user, None), 2000)


if __name__ == "__main__":
    main()
