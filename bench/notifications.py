"""Notifications: reminder lateness and webhook delivery throughput.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fibserver_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 uv run python bench/notifications.py

1. **Reminders**: ``--reminders`` seats with a pending async decision, each with its reminder
   due within the next ``--spread`` seconds; the sweep's reminder pass (what Celery beat or the
   embedded runner runs every ``SWEEP_SECONDS``) runs on its schedule in this process. Lateness
   = when a reminder entered the inbox (its ``created_at``, set by the database clock when it
   fires) − when it was due.
2. **Webhooks**: ``--webhooks`` notifications for 100 users, each with a webhook to a local
   receiver (a separate process counting what it is sent); the outbox relay hands them to a real
   Celery worker (``--concurrency`` processes, Redis broker, PostgreSQL) as on the production
   shape. Throughput = deliveries received ÷ (last received − relay started); loss = created −
   received once every delivery is ``sent``.

Writes ``bench/notifications.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")
os.environ["FIBSERVER_TASKS"] = "celery"
os.environ.setdefault("FIBSERVER_QUEUE", "fibserver-bench-notifications")
os.environ["NOTIFICATIONS_WEBHOOK_ALLOW_HTTP"] = "1"
os.environ["NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE"] = "1"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import Match, Seat  # noqa: E402
from notifications import services, tasks  # noqa: E402
from notifications.models import Delivery, Kind, Notification, Webhook  # noqa: E402

RECEIVER = r"""
import json, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
stats = {"count": 0, "first": None, "last": None, "ids": set()}
lock = threading.Lock()
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        note = json.loads(body)["notification"]["id"]
        now = time.time()
        with lock:
            stats["count"] += 1
            stats["ids"].add(note)
            stats["first"] = stats["first"] or now
            stats["last"] = now
        self.send_response(204); self.send_header("Content-Length", "0"); self.end_headers()
    def do_GET(self):
        with lock:
            out = {k: (len(v) if k == "ids" else v) for k, v in stats.items()}
        data = json.dumps(out).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(data)))
        self.end_headers(); self.wfile.write(data)
    def log_message(self, *a):
        pass
server = ThreadingHTTPServer(("127.0.0.1", 0), H)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
"""


#: Seconds from the start of the set-up to the first reminder's due time (writing 10,000 rows
#: and their matches takes a few seconds on the bench machine).
SETUP_SECONDS = 15


def quantile(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(p * (len(values) - 1)))]


def users(count: int) -> list[User]:
    made = User.objects.bulk_create(
        [User(username=f"bench-{time.time_ns()}-{n}", is_guest=True) for n in range(count)]
    )
    return list(User.objects.filter(pk__in=[u.pk for u in made]).order_by("pk"))


def reminders(count: int, spread: float) -> dict[str, float]:
    """``count`` due reminders over ``spread`` seconds, fired by the sweep's pass."""
    from django.conf import settings

    people = users(count)
    now = timezone.now()
    decision = 86400
    matches = Match.objects.bulk_create(
        [
            Match(
                game="fibber",
                seat_count=2,
                status=Match.Status.ACTIVE,
                time_control="async",
                decision_seconds=decision,
                seed="",
                seed_commitment="",
            )
            for _ in range(count)
        ],
        batch_size=2000,
    )
    seats, rows = [], []
    start = now + timedelta(seconds=SETUP_SECONDS)  # the first is due once all are written
    for n, (match, user) in enumerate(zip(matches, people, strict=True)):
        due = start + timedelta(seconds=spread * n / count)
        deadline = due + timedelta(seconds=decision * 0.2)
        seats.append(Seat(match=match, position=0, user=user, must_act=True, deadline=deadline))
        rows.append(
            Notification(
                user=user,
                kind=Kind.DEADLINE_REMINDER,
                match=match,
                version=1,
                seat=0,
                data={"game": "fibber", "deadline": deadline.isoformat()},
                key=f"remind:{match.pk}:1:0",
                due_at=due,
            )
        )
    Seat.objects.bulk_create(seats, batch_size=2000)
    Notification.objects.bulk_create(rows, batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE notifications_notification")
    due_of = {
        r.pk: r.due_at or now for r in Notification.objects.filter(kind=Kind.DEADLINE_REMINDER)
    }
    every = settings.FIBSERVER["SWEEP_SECONDS"]
    passes = []
    until = time.monotonic() + SETUP_SECONDS + spread + 10
    while time.monotonic() < until:
        began = time.monotonic()
        while services.reminders_fire(limit=1000) == 1000:
            pass
        passes.append(time.monotonic() - began)
        if not Notification.objects.filter(kind=Kind.DEADLINE_REMINDER, due_at__isnull=False):
            break
        time.sleep(max(0.0, every - (time.monotonic() - began)))
    fired = dict(
        Notification.objects.filter(
            kind=Kind.DEADLINE_REMINDER, due_at__isnull=True, pk__in=due_of
        ).values_list("pk", "created_at")
    )
    late = sorted((fired[pk] - due_of[pk]).total_seconds() for pk in fired)
    return {
        "count": count,
        "fired": len(fired),
        "p50": quantile(late, 0.5),
        "p99": quantile(late, 0.99),
        "max": late[-1],
        "longest_pass": max(passes),
        "sweep": every,
    }


def webhooks(count: int, concurrency: int) -> dict[str, float]:
    receiver = subprocess.Popen([sys.executable, "-c", RECEIVER], stdout=subprocess.PIPE, text=True)
    port = int(receiver.stdout.readline())  # type: ignore[union-attr]
    url = f"http://127.0.0.1:{port}/hook"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "fibserver",
            "worker",
            "-Q",
            os.environ["FIBSERVER_QUEUE"],
            "--concurrency",
            str(concurrency),
            "--prefetch-multiplier",
            "16",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "DB_CONN_MAX_AGE": "60"},
        start_new_session=True,
    )
    try:
        from fibserver.celery import app

        for _ in range(120):
            if app.control.ping(timeout=1.0):
                break
        people = users(100)
        for user in people:
            Webhook.objects.create(user=user, url=url, secret="s" * 64)
        Notification.objects.bulk_create(
            [
                Notification(
                    user=people[n % 100],
                    kind=Kind.YOUR_TURN,
                    data={"game": "fibber", "deadline": None},
                    key=f"bench:{n}",
                )
                for n in range(count)
            ],
            batch_size=5000,
        )
        started = time.time()
        tasks.relay()
        relayed = time.time() - started
        for _ in range(600):
            stats = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/").read())
            if stats["count"] >= count:
                break
            time.sleep(0.5)
        time.sleep(2)  # anything sent twice would arrive now
        stats = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/").read())
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
        receiver.terminate()
    sent = Delivery.objects.filter(status=Delivery.Status.SENT).count()
    seconds = stats["last"] - started
    return {
        "count": count,
        "received": stats["count"],
        "distinct": stats["ids"],
        "sent": sent,
        "seconds": seconds,
        "rate": stats["count"] / seconds,
        "relay": relayed,
        "concurrency": concurrency,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reminders", type=int, default=10_000)
    parser.add_argument("--spread", type=float, default=10.0)
    parser.add_argument("--webhooks", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--out", default=str(ROOT / "bench" / "notifications.md"))
    args = parser.parse_args()
    from bench.guard import require_benchmark_database

    require_benchmark_database()
    call_command("migrate", verbosity=0)
    Notification.objects.all().delete()
    Match.objects.all().delete()
    r = reminders(args.reminders, args.spread)
    print(r, flush=True)
    w = webhooks(args.webhooks, args.concurrency)
    print(w, flush=True)
    reminder_row = (
        f"| {r['count']:,} | {r['fired']:,} | {r['p50']:.2f} | {r['p99']:.2f} | {r['max']:.2f} "
        f"| {r['longest_pass']:.2f} |"
    )
    webhook_row = (
        f"| {w['count']:,} | {w['received']:,} | {w['distinct']:,} | {w['sent']:,} "
        f"| {w['seconds']:.1f} | {w['rate']:,.0f} | {w['relay']:.1f} |"
    )
    text = f"""# Notifications

Generated by `bench/notifications.py --reminders {args.reminders} --spread {args.spread:g}
--webhooks {args.webhooks} --concurrency {args.concurrency}` on {time.strftime("%Y-%m-%d")}
(2 cores, shared with other work), PostgreSQL and Redis.

## Reminders

{r["count"]:,} seats with a pending async decision, their reminders due over {args.spread:g} s
(≈ {r["count"] / args.spread:,.0f} a second); the sweep's reminder pass every {r["sweep"]:g} s, in
batches of 1,000 until none is due. Lateness = entered the inbox (database clock) − due.

| reminders | fired | p50 s | p99 s | max s | longest pass s |
|---|---|---|---|---|---|
{reminder_row}

## Webhooks

{w["count"]:,} notifications for 100 users with a webhook each to a local receiver (its own
process, a thread per connection); the outbox relay creates the deliveries and sends a
Celery task per 50 to a real worker ({w["concurrency"]} processes, prefetch 16); each task signs
and POSTs its 50 side by side (8 threads, kept-alive connections). Received = POSTs counted by
the receiver; distinct = distinct notification ids among them.

| notifications | received | distinct | deliveries `sent` | seconds | deliveries/s | relay s |
|---|---|---|---|---|---|---|
{webhook_row}

## The move path

A step's notifications are written with the step: on the optimistic move path (PostgreSQL) as
a CTE of the move's one statement (no statement of their own, for any number of recipients);
on the locked path as one bulk `INSERT` (`tests/notifications/test_outbox.py` counts both, with
10 recipients).
"""
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
