"""Faults the production shape heals from by itself (issue 44; docs/operations.md, "Outages").

Each test starts the shape in miniature (``faults.py``: one API node, one Celery worker, beat,
on a PostgreSQL database and a ``redis-server`` of its own), has client threads play live
Fibber's Dice matches (2 s a decision; every third decision of a seat is left to its deadline,
so a bot takes it) and, mid-play, does one harm:

- **database failover**: every PostgreSQL backend of the test's database is terminated, twice;
- **Redis restart**: the Redis server is stopped for 20 s and started again empty;
- **killed worker**: the Celery worker is SIGKILLed and a new one started (a supervisor's job).

Then, exactly: every match finished; every move answered 200 is stored once and no other; no
version applied twice; every deadline a seat let pass was taken by a bot, and none twice; the
worker and beat that lived through the fault are still running; every 5xx a client saw was
503 ``unavailable`` with ``Retry-After``; and every deadline was taken
within ``RECOVERY_SECONDS`` of its time or of the end of the fault, whichever is later (the
worker is back at work that soon). The lateness is printed (``-s``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.conf import settings as django_settings

from .faults import Record, Shape, check, facts, has_redis_server, lateness_report, start_clients

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        django_settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="needs PostgreSQL (CI has it)",
    ),
    pytest.mark.skipif(not has_redis_server(), reason="needs the redis-server program"),
]

MATCHES = 4
PLAY_BEFORE_FAULT = 5.0
PLAY_SECONDS = 150
#: The worker is back at work this soon after the database or Redis answers again.
RECOVERY_SECONDS = 10.0


def scenario(tmp_path, name: str, fault: Callable[[Shape], None], survivors: tuple[str, ...]):
    shape = Shape(tmp_path)
    try:
        shape.start()
        record = Record()
        give_up = time.monotonic() + PLAY_SECONDS
        threads = start_clients(shape, record, MATCHES, give_up)
        time.sleep(PLAY_BEFORE_FAULT)
        fault_began = time.time()
        fault(shape)
        fault_ended = time.time()
        for thread in threads:
            thread.join(timeout=max(1.0, give_up - time.monotonic()))
        finished = time.time()
        assert not record.errors, record.errors
        for survivor in survivors:  # lived through the fault without a restart
            process = shape.processes[survivor]
            assert process.alive(), f"{survivor} exited: {process.output()[-3000:]}"
            assert "Unrecoverable error" not in process.output()
        found = facts(shape)
    finally:
        shape.stop()
    figures = check(record, found)
    late = [
        (due, late)
        for due, late in figures["deadlines"]
        if due + late > max(due, fault_ended) + RECOVERY_SECONDS
    ]
    # Back at work: the longest a deadline waited past its time or the fault's end.
    recovery = max(
        (due + late - max(due, fault_ended) for due, late in figures["deadlines"]), default=0.0
    )
    report = (
        f"{name}: {MATCHES} matches, {figures['moves']} moves by players (each stored once), "
        f"{len(figures['deadlines'])} deadlines taken by bots (none twice, "
        f"{len(record.skipped)} let pass on purpose); fault {fault_ended - fault_began:.1f} s; "
        f"all finished {finished - fault_ended:.1f} s after it; lateness "
        + lateness_report(figures["deadlines"], fault_began)
        + f"; back at work within {recovery:.2f} s of the fault's end"
        + f"; 5xx answers during the fault: {len(record.outage_answers)}"
    )
    print("\n" + report)
    (tmp_path / "faults.txt").write_text(report + "\n")
    # Every 5xx a client saw was 503 "unavailable" with Retry-After, never a bare 500.
    for status, body, retry_after in record.outage_answers:
        assert status == 503 and body["error"]["code"] == "unavailable", (status, body)
        assert retry_after.isdigit(), retry_after
    assert not late, (
        f"deadlines taken more than {RECOVERY_SECONDS} s after their time or the fault's end: "
        f"{[(round(d - fault_ended, 1), round(s, 1)) for d, s in late]}"
    )
    return record


def test_a_database_failover_loses_no_move_and_no_deadline(tmp_path):
    def failover(shape: Shape) -> None:
        assert shape.kill_backends() > 0
        time.sleep(1.0)
        shape.kill_backends()

    scenario(tmp_path, "database failover", failover, survivors=("api", "worker", "beat"))


def test_a_redis_restart_loses_no_move_and_no_deadline(tmp_path):
    def restart(shape: Shape) -> None:
        assert shape.redis is not None
        shape.redis.stop()
        time.sleep(20)
        shape.redis.start()  # empty: the queued tasks and the timers are gone

    scenario(tmp_path, "Redis restart", restart, survivors=("api", "worker", "beat"))


def test_a_killed_worker_loses_no_deadline(tmp_path):
    def kill(shape: Shape) -> None:
        shape.processes["worker"].kill()
        time.sleep(2.0)
        shape.processes["worker"].stop()
        shape.start_worker()  # what a supervisor does
        shape.wait_for_worker()

    scenario(tmp_path, "killed worker", kill, survivors=("api", "beat"))
