"""Measure the quick-play matcher and write ``bench/matchmaking.md``.

    uv run python bench/matchmaking.py              # both parts
    uv run python bench/matchmaking.py --no-embedded

1. **A pass over 2,000 waiting tickets** across the four games (the pure matcher,
   ``matchmaking.matcher.match_pass``): seat ranges, live and async, ratings around 1,500,
   waits of 0–120 s, 300 blocked pairs, a fifth of the tickets allowing bots after 30–90 s.
   Timed over several seeds; each run is checked: no ticket at two tables, and (the pass being
   complete) no two tickets left waiting that could sit at a two-seat table together.
2. **Two humans on the embedded default**: ``scripts/serve`` on a fresh SQLite file (the
   embedded runner drives the matcher), two guests queue for a 2-seat Fibber's Dice table
   over HTTP; the time from the second ticket's answer until both see their match (polling
   ``GET /api/queue/`` every 20 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import timedelta
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matchmaking.matcher import Ticket, compatible, match_pass  # noqa: E402

GAMES = {"fabfib": (3, 5), "fibber": (2, 6), "fibbers_dice": (2, 6), "skull": (3, 6)}


def tickets(seed: int, count: int = 2000) -> tuple[list[Ticket], list[tuple[int, int]]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        game = rng.choice(list(GAMES))
        lo_g, hi_g = GAMES[game]
        lo = rng.randint(lo_g, min(hi_g, lo_g + 2))
        hi = rng.randint(lo, min(hi_g, lo + 2))
        bots = rng.random() < 0.2
        out.append(
            Ticket(
                id=i + 1,
                player=i + 1,
                game=game,
                time_control=rng.choice(["live", "live", "live", "async"]),
                seats_min=lo,
                seats_max=hi,
                rating=rng.gauss(1500, 250),
                waited=rng.uniform(0, 120),
                bots_after=rng.uniform(30, 90) if bots else None,
                bot_level="basic",
            )
        )
    blocks = [(rng.randint(1, count), rng.randint(1, count)) for _ in range(300)]
    return out, blocks


def pure(seeds: int) -> list[str]:
    times, formed, seated, left, bot_tables, all_complete = [], [], [], [], [], True
    for seed in range(seeds):
        ts, blocks = tickets(seed)
        started = time.perf_counter()
        tables, complete = match_pass(ts, blocks)
        times.append((time.perf_counter() - started) * 1000)
        all_complete = all_complete and complete
        ids = [i for t in tables for i in t.tickets]
        assert len(ids) == len(set(ids)), "a ticket at two tables"
        blocked = {frozenset(b) for b in blocks}
        rest = [t for t in ts if t.id not in set(ids)]
        for a, b in combinations(rest, 2):
            two = max(a.seats_min, b.seats_min) <= 2 <= min(a.seats_max, b.seats_max)
            assert not (two and compatible(a, b, blocked)), "a two-seat table left unformed"
        formed.append(len(tables))
        seated.append(len(ids))
        left.append(len(rest))
        bot_tables.append(sum(1 for t in tables if t.bots))
    return [
        "## A pass over 2,000 waiting tickets (the pure matcher)",
        "",
        f"{seeds} seeds; one pass each (CPython {sys.version.split()[0]}, one core).",
        "",
        "| median ms | max ms | tables formed (median) | of which with bots | tickets seated "
        "| left waiting | every search complete |",
        "|---|---|---|---|---|---|---|",
        f"| {statistics.median(times):.1f} | {max(times):.1f} | {statistics.median(formed):.0f} "
        f"| {statistics.median(bot_tables):.0f} | {statistics.median(seated):.0f} "
        f"| {statistics.median(left):.0f} | {'yes' if all_complete else 'no'} |",
        "",
    ]


def with_database(seeds: int) -> list[str]:
    """The same 2,000 tickets as waiting rows in PostgreSQL (``DATABASE_URL`` must name a
    database whose name contains "bench"; it is migrated), and one full
    ``matchmaking.services.queue_match`` pass each: reading and locking the tickets, the
    matcher, and seating (each table an ordinary started match). Each run is rolled back."""
    url = os.environ.get("DATABASE_URL", "")
    if "postgres" not in url or "bench" not in url.rsplit("/", 1)[-1]:
        raise SystemExit("--database needs DATABASE_URL=postgres://…/<a name with 'bench'>")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from matchmaking import matcher as matcher_module
    from matchmaking import services
    from matchmaking.models import Block
    from matchmaking.models import Ticket as Row

    call_command("migrate", verbosity=0)
    rows = []
    timings: dict[str, list[float]] = {"pass": [], "matcher": [], "seating": [], "tables": []}

    class Rollback(Exception):
        pass

    for seed in range(seeds):
        ts, blocks = tickets(seed)
        spent = {"matcher": 0.0, "seat": 0.0}
        real_pass, real_seat = matcher_module.match_pass, services._seat

        def timed_pass(*a: object, **k: object) -> object:
            t0 = time.perf_counter()
            try:
                return real_pass(*a, **k)  # type: ignore[arg-type]  # noqa: B023 (used in this iteration)
            finally:
                spent["matcher"] += time.perf_counter() - t0  # noqa: B023

        def timed_seat(*a: object, **k: object) -> object:
            t0 = time.perf_counter()
            try:
                return real_seat(*a, **k)  # type: ignore[arg-type]  # noqa: B023 (used in this iteration)
            finally:
                spent["seat"] += time.perf_counter() - t0  # noqa: B023

        try:
            with transaction.atomic():
                now = timezone.now()
                users = User.objects.bulk_create(
                    [User(username=f"bench-{seed}-{t.player}") for t in ts]
                )
                by_player = {t.player: u for t, u in zip(ts, users, strict=True)}
                Row.objects.bulk_create(
                    [
                        Row(
                            user=by_player[t.player],
                            game=t.game,
                            time_control=t.time_control,
                            seats_min=t.seats_min,
                            seats_max=t.seats_max,
                            bots_after=None if t.bots_after is None else int(t.bots_after),
                            bot_level=t.bot_level if t.bots_after is not None else "",
                            rating=t.rating,
                            created_at=now - timedelta(seconds=t.waited),
                            expires_at=now + timedelta(minutes=15),
                        )
                        for t in ts
                    ]
                )
                Block.objects.bulk_create(
                    [
                        Block(blocker=by_player[a], blocked=by_player[b])
                        for a, b in set(blocks)
                        if a != b
                    ],
                    ignore_conflicts=True,
                )
                matcher_module.match_pass, services._seat = timed_pass, timed_seat  # type: ignore[assignment]
                try:
                    t0 = time.perf_counter()
                    started = services.queue_match(now=now)
                    total = time.perf_counter() - t0
                finally:
                    matcher_module.match_pass, services._seat = real_pass, real_seat  # type: ignore[assignment]
                timings["pass"].append(total * 1000)
                timings["matcher"].append(spent["matcher"] * 1000)
                timings["seating"].append(spent["seat"] * 1000)
                timings["tables"].append(len(started))
                raise Rollback
        except Rollback:
            pass
    med = {k: statistics.median(v) for k, v in timings.items()}
    read = med["pass"] - med["matcher"] - med["seating"]
    per_table = med["seating"] / med["tables"] if med["tables"] else 0.0
    rows += [
        "## A full pass with the database (PostgreSQL)",
        "",
        f"The same tickets as above as {len(ts):,} waiting rows (with their users and blocks) in "
        f"PostgreSQL; {seeds} seeds, one `matchmaking.services.queue_match` pass each (its "
        "transaction rolled back afterwards, so the commit is not in the figure); the matcher "
        "and the seating timed inside the same pass.",
        "",
        "| whole pass ms | reading + locking tickets ms | matcher ms | seating ms | tables "
        "started | seating ms per table |",
        "|---|---|---|---|---|---|",
        f"| {med['pass']:.0f} | {read:.0f} | {med['matcher']:.1f} | {med['seating']:.0f} "
        f"| {med['tables']:.0f} | {per_table:.1f} |",
        "",
    ]
    return rows


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(base: str, method: str, path: str, token: str = "", body: object = None) -> object:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def embedded(trials: int) -> list[str]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3",
            "REDIS_URL": "",
            "PORT": str(port),
            "STATIC_ROOT": f"{tmp}/static",
        }
        server = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    urllib.request.urlopen(base + "/livez/", timeout=1)
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the embedded server did not start") from None
                    time.sleep(0.2)
            waits = []
            for _ in range(trials):
                tokens = [
                    _call(base, "POST", "/api/auth/guest/", body={})["token"]  # type: ignore[index]
                    for _ in range(2)
                ]
                body = {"game": "fibbers_dice", "seats_min": 2}
                for token in tokens:
                    _call(base, "POST", "/api/queue/", token, body)
                queued = time.perf_counter()
                pending = set(tokens)
                while pending:
                    for token in list(pending):
                        ticket = _call(base, "GET", "/api/queue/", token)["tickets"][0]  # type: ignore[index]
                        if ticket["match"]:
                            pending.discard(token)
                    time.sleep(0.02)
                    if time.perf_counter() - queued > 30:
                        raise SystemExit("no table within 30 s")
                waits.append(time.perf_counter() - queued)
        finally:
            os.killpg(server.pid, 15)
            server.wait(20)
    return [
        "## Two humans on the embedded default",
        "",
        f"`scripts/serve` (SQLite, the embedded runner, `QUEUE_SECONDS` 0.5); {trials} trials of "
        "two fresh guests queueing for a 2-seat Fibber's Dice table: seconds from the second "
        "ticket's answer until both tickets show their match.",
        "",
        "| median s | max s |",
        "|---|---|",
        f"| {statistics.median(waits):.2f} | {max(waits):.2f} |",
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--no-embedded", action="store_true")
    parser.add_argument(
        "--database",
        action="store_true",
        help="also a full pass with PostgreSQL (DATABASE_URL naming a *bench* database)",
    )
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    lines = [
        "# Quick play: the matcher",
        "",
        f"Generated by `bench/matchmaking.py` at commit `{commit}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} ({os.cpu_count()} cores, shared "
        "with other work).",
        "",
        *pure(args.seeds),
    ]
    if args.database:
        lines += with_database(min(args.seeds, 3))
    if not args.no_embedded:
        lines += embedded(args.trials)
    text = "\n".join(lines)
    (ROOT / "bench" / "matchmaking.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
