"""The production shape in miniature for the fault tests (``test_faults.py``): a PostgreSQL
database of the test's own (created and dropped here), a ``redis-server`` of its own on a free
port (so stopping it touches nothing shared), one API node (gunicorn), one Celery worker and
beat. Every process is stopped in ``stop()``, which the tests call in a ``finally``."""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import psycopg

from games.engine.bots import random_action

from .processes import (
    ROOT,
    Process,
    celery_beat,
    celery_worker,
    free_port,
    gunicorn,
    python,
    server_url,
)

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_SECONDS = 120
#: Local only, in memory only: a restart comes back empty.
REDIS_OPTIONS = ("--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
REQUEST_SECONDS = 10


def has_redis_server() -> bool:
    return os.access(REDIS_SERVER, os.X_OK)


class OwnRedis:
    """A ``redis-server`` of the test's own, in memory only: :meth:`stop` and :meth:`start`
    again is a restart that comes back empty."""

    def __init__(self, logs: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = (logs / "redis.log").open("ab")
        self.popen: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.popen = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), *REDIS_OPTIONS],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        import redis

        give_up = time.monotonic() + 10
        while time.monotonic() < give_up:
            try:
                redis.Redis.from_url(self.url, socket_timeout=1).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self.popen = None


class Shape:
    """API node, Celery worker and beat on a database and a Redis of their own."""

    def __init__(self, tmp: Path, **env: str) -> None:
        self.tmp = tmp
        self.run = uuid.uuid4().hex[:8]
        self.db_name = f"fib_fault_{self.run}"
        self.server = server_url()
        self.database_url = f"{self.server}/{self.db_name}"
        self.processes: dict[str, Process] = {}
        self.redis: OwnRedis | None = None
        self.api = ""
        self.extra_env = env

    def start(self) -> None:
        self.redis = OwnRedis(self.tmp)
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("OTEL_")},
            "DJANGO_SETTINGS_MODULE": "fibserver.settings.production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "FIBSERVER_HTTPS": "false",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis.url,
            "FIBSERVER_TASKS": "celery",
            "FIBSERVER_QUEUE": f"fib-fault-{self.run}",
            "FIBSERVER_SWEEP_SECONDS": "0.5",
            "FIBSERVER_LIVE_MIN_SECONDS": "1",
            "FIBSERVER_BOT_DELAY": "0.05",
            "FIBSERVER_BOT_STALL_SECONDS": "3",
            "THROTTLE_ACTIONS": "100000000/min",
            "THROTTLE_GUEST": "100000000/hour",
            "LOG_LEVEL": "WARNING",
            **self.extra_env,
        }
        self.psql(f'CREATE DATABASE "{self.db_name}"')
        migrate = Process("migrate", python("manage.py", "migrate", "-v0"), self.env, self.tmp)
        assert migrate.popen.wait(timeout=START_SECONDS) == 0, migrate.output()[-3000:]
        migrate.stop()
        port = free_port()
        self.api = f"http://127.0.0.1:{port}"
        self.add("api", gunicorn(port, workers=2))
        self.start_worker()
        self.add("beat", celery_beat(self.tmp / "beat-schedule"))
        self.wait_http(f"{self.api}/readyz/")
        self.wait_for_worker()

    def add(self, name: str, args: list[str]) -> Process:
        self.processes[name] = Process(name, args, self.env, self.tmp)
        return self.processes[name]

    def start_worker(self) -> Process:
        queue = self.env["FIBSERVER_QUEUE"]
        return self.add("worker", celery_worker(f"{queue}@localhost", queue))

    def psql(self, sql: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(f"{self.server}/postgres", autocommit=True) as conn:
            cursor = conn.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def kill_backends(self) -> int:
        """Terminate every PostgreSQL backend of this test's database (a failover, as the
        processes see it); nothing else on the server is touched."""
        rows = self.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{self.db_name}' AND pid <> pg_backend_pid()"
        )
        return len(rows)

    def wait_http(self, url: str) -> None:
        give_up = time.monotonic() + START_SECONDS
        while time.monotonic() < give_up:
            for process in self.processes.values():
                assert process.alive(), f"{process.name} exited: {process.output()[-3000:]}"
            try:
                with urllib.request.urlopen(url, timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"{url} did not answer")

    def wait_for_worker(self, seconds: float = START_SECONDS) -> float:
        """Until the worker answers a ping; returns the seconds waited."""
        from celery import Celery

        assert self.redis is not None
        began = time.monotonic()
        app = Celery(broker=self.redis.url)
        name = f"{self.env['FIBSERVER_QUEUE']}@localhost"
        try:
            while time.monotonic() - began < seconds:
                worker = self.processes["worker"]
                assert worker.alive(), worker.output()[-3000:]
                with contextlib.suppress(Exception):
                    if any(name in reply for reply in app.control.ping(timeout=0.5)):
                        return time.monotonic() - began
                time.sleep(0.2)
            raise AssertionError("the Celery worker did not answer a ping")
        finally:
            app.close()

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()
        try:
            if self.redis is not None:
                self.redis.stop()
        finally:
            self.psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')


# --- Clients -------------------------------------------------------------------------------


def call(
    base: str, method: str, path: str, token: str | None = None, body: Any = None, **headers: str
) -> tuple[int, Any, dict[str, str]]:
    data = None if body is None else orjson.dumps(body)
    request = urllib.request.Request(f"{base}{path}", data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in headers.items():
        request.add_header(name.replace("_", "-"), value)
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as answer:
            raw = answer.read()
            return answer.status, orjson.loads(raw) if raw else None, dict(answer.headers)
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            parsed = orjson.loads(raw) if raw else None
        except orjson.JSONDecodeError:
            parsed = raw.decode(errors="replace")
        return error.code, parsed, dict(error.headers)


@dataclass
class Record:
    lock: threading.Lock = field(default_factory=threading.Lock)
    applied: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    skipped: list[tuple[str, int, int]] = field(default_factory=list)
    outage_answers: list[tuple[int, Any, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def retrying(
    record: Record, give_up: float, method: str, base: str, path: str, **kwargs: Any
) -> tuple[int, Any]:
    """A request sent again (the same idempotency key, if any) while the server is
    unreachable or answers 5xx; 5xx answers are recorded (the error contract)."""
    while time.monotonic() < give_up:
        try:
            status, body, headers = call(base, method, path, **kwargs)
        except OSError:
            time.sleep(0.2)
            continue
        if status < 500:
            return status, body
        with record.lock:
            record.outage_answers.append((status, body, headers.get("Retry-After", "")))
        time.sleep(0.2)
    raise AssertionError(f"{method} {path}: no answer before the end")


def create_match(base: str, decision_seconds: int, points: int) -> tuple[str, list[str]]:
    tokens = []
    for _ in range(2):
        status, guest, _h = call(base, "POST", "/api/auth/guest/", body={"display_name": "P"})
        assert status == 201, guest
        tokens.append(guest["token"])
    body = {
        "game": "fibbers_dice",
        "seats": 2,
        "options": {"points": points},
        "time_control": "live",
        "decision_seconds": decision_seconds,
    }
    status, match, _h = call(base, "POST", "/api/matches/", tokens[0], body)
    assert status == 201, match
    status, joined, _h = call(base, "POST", f"/api/matches/{match['id']}/join/", tokens[1], {})
    assert status == 200, joined
    return match["id"], tokens


def play(base: str, match_id: str, tokens: list[str], record: Record, give_up: float) -> None:
    """Both seats of a match: each acts at its turn, except that every third decision of a
    seat is left for its deadline (a bot takes it; never three in a row, so no seat is marked
    away). Moves carry an ``Idempotency-Key`` and are sent again through any outage."""
    rng = random.Random(match_id)
    decisions = [0, 0]
    decided: dict[int, int] = {}
    path = f"/api/matches/{match_id}/"
    while time.monotonic() < give_up:
        busy = False
        for position, token in enumerate(tokens):
            status, view = retrying(record, give_up, "GET", base, path, token=token)
            assert status == 200, (status, view)
            if view["status"] in ("finished", "aborted"):
                return
            if not view["legal_actions"] or decided.get(position) == view["version"]:
                continue
            decided[position] = view["version"]
            decisions[position] += 1
            busy = True
            if decisions[position] % 3 == 2:  # let this one's deadline pass
                with record.lock:
                    record.skipped.append((match_id, position, view["version"]))
                continue
            action = random_action(view["legal_actions"], rng)
            key = f"{match_id}-{position}-{view['version']}"
            status, answer = retrying(
                record,
                give_up,
                "POST",
                base,
                f"{path}actions/",
                token=token,
                body={**action, "expected_version": view["version"]},
                Idempotency_Key=key,
            )
            if status == 200:
                with record.lock:
                    record.applied[match_id].add(key)
            else:  # a deadline was first: the bot took this decision
                assert status in (403, 409), (status, answer)
        if not busy:
            time.sleep(0.15)
    raise AssertionError(f"{match_id} did not finish")


def start_clients(shape: Shape, record: Record, matches: int, give_up: float) -> list[Any]:
    threads = []
    for _ in range(matches):
        match_id, tokens = create_match(shape.api, decision_seconds=2, points=3)

        def run(match_id: str = match_id, tokens: list[str] = tokens) -> None:
            try:
                play(shape.api, match_id, tokens, record, give_up)
            except BaseException as error:  # reported by the test
                record.errors.append(f"{match_id}: {error!r}")

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        threads.append(thread)
    return threads


# --- What the database says ----------------------------------------------------------------


@dataclass
class Facts:
    statuses: dict[str, str]
    events: list[tuple[Any, ...]]  # match, seq, version, actor, action, by_bot, deadline, at
    now: float


def facts(shape: Shape) -> Facts:
    with psycopg.connect(shape.database_url) as conn:
        statuses: dict[str, str] = dict(
            conn.execute("SELECT id::text, status FROM games_match").fetchall()
        )
        events = conn.execute(
            "SELECT match_id::text, seq, version, actor, action, by_bot, "
            "extract(epoch FROM deadline), extract(epoch FROM created_at) "
            "FROM games_event ORDER BY match_id, seq"
        ).fetchall()
        now = conn.execute("SELECT extract(epoch FROM now())").fetchone()
    assert now is not None
    return Facts(statuses, events, float(now[0]))


def check(record: Record, found: Facts) -> dict[str, Any]:
    """Nothing lost, nothing doubled; returns the figures (deadlines and their lateness)."""
    by_match: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for event in found.events:
        by_match[event[0]].append(event)
    assert set(found.statuses.values()) == {"finished"}, found.statuses
    lateness: list[tuple[float, float]] = []  # (deadline, seconds late)
    moves = 0
    for match_id in found.statuses:
        actions = [e for e in by_match[match_id] if e[4] is not None]
        versions = [e[2] for e in actions]
        assert len(versions) == len(set(versions)), f"a version applied twice in {match_id}"
        own = [e for e in actions if not e[5]]
        assert len(own) == len(record.applied[match_id]), (
            f"{match_id}: {len(own)} moves stored, {len(record.applied[match_id])} answered 200"
        )
        moves += len(own)
        taken = [(e[3], e[6]) for e in actions if e[5] and e[6] is not None]
        assert len(taken) == len(set(taken)), f"a deadline taken twice in {match_id}"
        lateness += [(float(e[6]), float(e[7]) - float(e[6])) for e in actions if e[5] and e[6]]
    for match_id, position, version in record.skipped:
        later = [
            e
            for e in by_match[match_id]
            if e[4] is not None and e[3] == position and e[2] > version
        ]
        assert later and later[0][5] and later[0][6] is not None, (
            f"the deadline {position}@{version} of {match_id} was not taken by a bot"
        )
    return {"moves": moves, "deadlines": lateness}


def lateness_report(deadlines: list[tuple[float, float]], since: float) -> str:
    """Lateness of the deadlines due before and after ``since`` (epoch seconds)."""
    calm = sorted(late for due, late in deadlines if due < since)
    after = sorted(late for due, late in deadlines if due >= since)

    def line(values: list[float]) -> str:
        if not values:
            return "none"
        p50 = values[len(values) // 2]
        return f"{len(values)}, median {p50:.2f} s, max {values[-1]:.2f} s"

    return f"before the fault: {line(calm)}; from the fault on: {line(after)}"


__all__ = ["ROOT"]
