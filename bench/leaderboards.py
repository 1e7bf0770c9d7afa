"""Leaderboard and player-statistics latency on a seeded database, through a real server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fib_ratings_bench \
        uv run python manage.py migrate
    DATABASE_URL=... uv run python manage.py seed_demo --players 10000 --matches 100000
    DATABASE_URL=... uv run python bench/leaderboards.py --requests 1000

Starts gunicorn (sync workers, as in production) on a local port, then sends requests over
keep-alive HTTP connections: leaderboard pages (every game and board, first pages and deep
pages, ``around=me`` for random players) and player-statistics pages of random players. One
client measures latency (p50/p99); four at once measure throughput. It also prints the SQL of
each page with PostgreSQL's ``EXPLAIN (ANALYZE, BUFFERS)``. Writes ``bench/leaderboards.md``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games import boards  # noqa: E402
from games.engine import registry  # noqa: E402
from games.models import Career, Match, RatingPoint, Seat  # noqa: E402
from games.reads import leaderboards  # noqa: E402

PORT = 8765
SERVER_LOG = Path(tempfile.gettempdir()) / "fib-bench-leaderboards-server.log"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Client:
    def __init__(self, token: str | None = None) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, token: str | None = None) -> tuple[int, float]:
        headers = {"Authorization": f"Bearer {token}"} if token else self.headers
        started = time.perf_counter()
        self.http.request("GET", path, headers=headers)
        response = self.http.getresponse()
        response.read()
        return response.status, (time.perf_counter() - started) * 1000


def leaderboard_paths(rng: random.Random, counts: dict[tuple[str, str], int]) -> str:
    game = rng.choice(registry.game_ids())
    board = rng.choice(boards.boards_of(game))
    count = counts.get((game, board), 0)
    deep = rng.random() < 0.3 and count > 50
    offset = rng.randrange(0, max(1, count - 50)) if deep else 0
    return f"/api/leaderboards/{game}/?board={board}&limit=50&offset={offset}"


def run(
    name: str, requests: int, make: Callable[[random.Random], tuple[str, str | None]], clients: int
) -> dict[str, Any]:
    """``requests`` requests from ``clients`` threads; latency of each and the total rate."""
    times: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    per_client = requests // clients

    def work(index: int) -> None:
        rng = random.Random(f"{name}:{index}")
        client = Client()
        for _ in range(per_client):
            path, token = make(rng)
            status, ms = client.get(path, token)
            with lock:
                times.append(ms)
                statuses[status] = statuses.get(status, 0) + 1

    for n in range(20):  # warm up each worker's connection
        Client().get(*make(random.Random(n)))
    started = time.perf_counter()
    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - started
    return {
        "name": name,
        "clients": clients,
        "requests": len(times),
        "statuses": statuses,
        "p50": percentile(times, 0.5),
        "p90": percentile(times, 0.9),
        "p99": percentile(times, 0.99),
        "max": max(times),
        "mean": statistics.fmean(times),
        "rate": len(times) / seconds,
    }


def explain(label: str, reader: Callable[[], Any]) -> str:
    """The queries one reader sends, each with its EXPLAIN (ANALYZE, BUFFERS)."""
    with CaptureQueriesContext(connection) as captured:
        reader()
    statements = [q["sql"].split()[0].upper() for q in captured.captured_queries]
    selects = statements.count("SELECT")
    others = ", ".join(s for s in statements if s != "SELECT")
    parts = [f"### {label}\n", f"{selects} queries (and {others}: the snapshot).\n"]
    for query in captured.captured_queries:
        sql = query["sql"]
        if not sql.lstrip().upper().startswith("SELECT"):
            continue
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        parts.append(f"```sql\n{sql}\n```\n```\n{plan}\n```\n")
    return "\n".join(parts)


def main() -> None:
    global PORT
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000, help="per measurement")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--out", default=str(ROOT / "bench" / "leaderboards.md"))
    parser.add_argument("--port", type=int, default=PORT, help="the server's local port")
    args = parser.parse_args()
    PORT = args.port
    assert connection.vendor == "postgresql", "run it on PostgreSQL (DATABASE_URL)"
    sizes = {
        "players with a career": Career.objects.values("user_id").distinct().count(),
        "matches": Match.objects.count(),
        "seats": Seat.objects.count(),
        "careers": Career.objects.count(),
        "rating points": RatingPoint.objects.count(),
    }
    assert sizes["matches"] >= 1000, "seed first: manage.py seed_demo"
    counts = {
        (game, board): Career.objects.filter(game=game, **{f"board_{board}__isnull": False}).count()
        for game in registry.game_ids()
        for board in boards.boards_of(game)
    }
    on_boards = {
        game: list(
            Career.objects.filter(game=game, board_wins__isnull=False).values_list(
                "user_id", flat=True
            )[:2000]
        )
        for game in registry.game_ids()
    }
    sample = sorted({u for ids in on_boards.values() for u in ids})[:500]
    tokens = {t.user_id: t.key for t in Token.objects.filter(user_id__in=sample)}
    Token.objects.bulk_create(
        [Token(user_id=u, key=Token.generate_key()) for u in sample if u not in tokens]
    )
    tokens = {t.user_id: t.key for t in Token.objects.filter(user_id__in=sample)}
    players = list(Career.objects.values_list("user_id", "game"))
    connection.close()

    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "fibserver.wsgi",
            "-b",
            f"127.0.0.1:{PORT}",
            "-w",
            str(args.workers),
            "--timeout",
            "120",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "DB_CONN_MAX_AGE": "600", "LOG_LEVEL": "ERROR"},
        stderr=open(SERVER_LOG, "w"),  # noqa: SIM115
        start_new_session=True,
    )
    try:
        for _ in range(100):
            try:
                Client().get("/healthz/")
                break
            except OSError:
                time.sleep(0.2)

        def board_page(rng: random.Random) -> tuple[str, str | None]:
            return leaderboard_paths(rng, counts), None

        def around_me(rng: random.Random) -> tuple[str, str | None]:
            game = rng.choice(registry.game_ids())
            mine = [u for u in on_boards[game] if u in tokens]
            user = rng.choice(mine)
            return f"/api/leaderboards/{game}/?board=wins&around=me", tokens[user]

        def player_stats(rng: random.Random) -> tuple[str, str | None]:
            user, game = rng.choice(players)
            return f"/api/players/{user}/stats/?game={game}", None

        def profile(rng: random.Random) -> tuple[str, str | None]:
            return f"/api/players/{rng.choice(players)[0]}/", None

        results = []
        for clients in (1, 4):
            results.append(run("leaderboard page", args.requests, board_page, clients))
            results.append(run("leaderboard around=me", args.requests, around_me, clients))
            results.append(run("player stats page", args.requests, player_stats, clients))
            results.append(run("player profile", args.requests, profile, clients))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    heavy = Career.objects.order_by("-rated_matches").values_list("user_id", "game").first()
    assert heavy is not None
    deep_game = "fabfib"
    deep = counts[(deep_game, "rating")]
    around_user = on_boards[deep_game][len(on_boards[deep_game]) // 2]
    plans = [
        explain(
            "Leaderboard, first page (fabfib, rating)",
            lambda: leaderboards.leaderboard(game="fabfib", board="rating"),
        ),
        explain(
            f"Leaderboard, a deep page (fabfib, rating, offset {max(0, deep - 50)})",
            lambda: leaderboards.leaderboard(
                game="fabfib", board="rating", offset=max(0, deep - 50)
            ),
        ),
        explain(
            "Leaderboard around a player, active within 30 days (fabfib, wins)",
            lambda: leaderboards.leaderboard(
                game="fabfib", board="wins", around=around_user, active_days=30
            ),
        ),
        explain(
            f"Player statistics, the player with most rated matches ({heavy[1]})",
            lambda: leaderboards.player_stats(heavy[0], game=heavy[1]),
        ),
    ]
    write(args, sizes, counts, results, plans)


def write(
    args: argparse.Namespace,
    sizes: dict[str, int],
    counts: dict[tuple[str, str], int],
    results: list[dict[str, Any]],
    plans: list[str],
) -> None:
    lines = [
        "# Leaderboards and player statistics",
        "",
        f"Generated by `bench/leaderboards.py --requests {args.requests}` on {date.today()} "
        "against PostgreSQL, through gunicorn "
        f"({args.workers} sync workers) over keep-alive HTTP from the same machine: a shared "
        "2-core machine on which other work was running, so the figures are indicative.",
        "",
        "Database: " + ", ".join(f"{v:,} {k}" for k, v in sizes.items()) + ".",
        "",
        "Players on each board: "
        + "; ".join(f"{g}/{b} {n:,}" for (g, b), n in sorted(counts.items()))
        + ".",
        "",
        "| request | clients | requests | p50 ms | p90 ms | p99 ms | max ms | req/s | statuses |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['name']} | {r['clients']} | {r['requests']} | {r['p50']:.1f} | "
            f"{r['p90']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['rate']:.0f} | "
            f"{json.dumps(r['statuses'])} |"
        )
    lines += [
        "",
        "Leaderboard pages are 50 entries of a random game and board; 30 % of them deep "
        "(a random offset). `around=me` is the wins board centred on a random player on it. "
        "Player statistics are a random player's page in one of their games.",
        "",
        "## Query plans",
        "",
        "Each page reads the careers the end-of-match work maintains: one partial index per "
        "board, in the board's order; rating history through its (user, game, record) index.",
        "",
        *plans,
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:30]))


if __name__ == "__main__":
    main()
