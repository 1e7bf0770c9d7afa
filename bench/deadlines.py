"""Measure deadline lateness with a real Celery worker and beat.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fibserver_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 uv run python bench/deadlines.py --matches 100

Creates live matches whose humans never act (2-second decisions), so every decision times out
and a bot takes it for the seat. Lateness = when the bot's event was written − the deadline it
took over (``Event.deadline``, set by the database clock). Writes ``bench/deadlines.md``.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")
os.environ.setdefault("FIBSERVER_LIVE_MIN_SECONDS", "1")
os.environ["FIBSERVER_TASKS"] = "celery"
os.environ.setdefault("FIBSERVER_QUEUE", "fibserver-bench")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from accounts.services import guest_create  # noqa: E402
from games import services  # noqa: E402
from games.models import Event, Match  # noqa: E402


def add_pending(count: int) -> None:
    """``count`` active matches whose deadlines are a day away: what the sweep's index holds
    besides the deadlines that fall due during the run. Then VACUUM ANALYZE, as autovacuum
    would, so the planner and the index's visibility map know the table."""
    from datetime import timedelta

    from django.db import connection
    from django.utils import timezone

    if not count:
        return
    started = time.monotonic()
    later = timezone.now() + timedelta(days=1)
    for first in range(0, count, 5000):
        Match.objects.bulk_create(
            [
                Match(
                    game="fabfib",
                    seat_count=3,
                    status=Match.Status.ACTIVE,
                    decision_seconds=600,
                    seed="",
                    seed_commitment="",
                    deadline=later + timedelta(seconds=n),
                )
                for n in range(first, min(count, first + 5000))
            ]
        )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_match")
    print(f"{count} pending deadlines added in {time.monotonic() - started:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=2, help="seconds per decision")
    parser.add_argument("--deadlines", type=int, default=300, help="stop after this many")
    parser.add_argument(
        "--pending", type=int, default=0, help="other matches with a deadline a day away"
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "deadlines.md"))
    args = parser.parse_args()
    from django.conf import settings

    from bench.guard import require_benchmark_database

    require_benchmark_database()
    call_command("migrate", verbosity=0)
    Match.objects.all().delete()
    add_pending(args.pending)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "fibserver",
            "worker",
            "-B",
            "-s",
            "/tmp/fib-bench-beat",
            "-Q",
            os.environ["FIBSERVER_QUEUE"],
            "--concurrency",
            "2",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "DB_CONN_MAX_AGE": "0"},
        start_new_session=True,
    )
    try:
        # Deadlines set before the worker listens would only measure its start-up.
        from fibserver.celery import app

        for _ in range(120):
            if app.control.ping(timeout=1.0):
                break
        time.sleep(2)  # and beat's first sweep
        started = time.monotonic()
        for _ in range(args.matches):
            users = [guest_create()[0] for _ in range(3)]
            match = services.match_create(
                user=users[0], game="fabfib", seats=3, decision_seconds=args.seconds
            )
            for user in users[1:]:
                services.match_join(match_id=match.pk, user=user)
            time.sleep(0.02)
        while Event.objects.filter(by_bot=True).count() < args.deadlines:
            if time.monotonic() - started > 600:
                break
            time.sleep(0.5)
        rows = list(
            Event.objects.filter(by_bot=True)
            .exclude(deadline=None)
            .values_list("created_at", "deadline")
        )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
    late = sorted((c - d).total_seconds() * 1000 for c, d in rows if d is not None)
    q = lambda p: late[min(len(late) - 1, int(p * (len(late) - 1)))]  # noqa: E731
    mean = statistics.fmean(late)
    text = f"""# Deadline lateness

Generated by `bench/deadlines.py --matches {args.matches} --seconds {args.seconds}
--pending {args.pending}` on
{time.strftime("%Y-%m-%d")}: a real Celery worker (2 processes, prefetch 1, late acks) with
embedded beat sweeping every {settings.FIBSERVER["SWEEP_SECONDS"]} s, Redis broker, PostgreSQL.
{args.matches} live Fab Fib matches of 3 humans who never act, so every decision times out and a
bot takes it for the seat, beside {args.pending:,} other active matches whose deadlines are a day
away (`--pending`: what the sweep's deadline index holds besides). Lateness = bot event written −
the deadline (database clock).

| deadlines | p50 ms | p90 ms | p99 ms | max ms | mean ms |
|---|---|---|---|---|---|
| {len(late)} | {q(0.5):.0f} | {q(0.9):.0f} | {q(0.99):.0f} | {late[-1]:.0f} | {mean:.0f} |

Each deadline within the timer horizon has a precise timer armed for it (a Celery task with an
ETA: one armed per match, `Match.timer_at`, sent by the step that sets the deadline, or by a
stale timer for the deadline it finds) and the sweep catches any the timers miss; both take the
decision under the match row lock with the version the timer was set for, so a late duplicate
does nothing.
"""
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
