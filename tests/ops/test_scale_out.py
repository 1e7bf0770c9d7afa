"""Scale-out: the production shape on several nodes, as local processes, loses nothing when a
node dies.

Two API nodes (gunicorn, 2 sync workers each), two followers (uvicorn), two Celery workers and
one beat, on a PostgreSQL database of the test's own (created and dropped here) and a Redis
database number of its own (with a key prefix of this run). 20 live Fibber's Dice matches of
two humans are played at once by client threads that send each request to the other API node
than the last and follow the match on a follower (each seat on another one, and a spectator
too); every seat lets one decision's deadline pass, so a bot takes it. Mid-play one API node,
one follower and one worker are killed (SIGKILL, every process of each); the clients retry on
the nodes left (a move with the same ``Idempotency-Key``, a long-poll from the last ``seq``
seen) and the sweep on the surviving worker finds the deadlines the dead one held.

Then, exactly: every match finished; every move a client was answered 200 for is applied once
(its action row), and no other; no version is applied twice; every deadline a seat let pass
was taken by a bot once, and no deadline twice; every follower received every ``seq`` of its
match once; and every match re-runs from its seed to its stored state. The figures are printed
(``-s``) and written to ``scale-out.txt`` in the test's temporary directory.
"""

from __future__ import annotations

import http.client
import os
import random
import secrets
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import orjson
import psycopg
import pytest
from django.conf import settings as django_settings

from games.engine import registry
from games.engine.bots import random_action

from .processes import (
    Process,
    celery_beat,
    celery_worker,
    free_port,
    gunicorn,
    python,
    server_url,
    uvicorn,
    wait_http,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not django_settings.REDIS_URL
        or django_settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="needs Redis and PostgreSQL (CI has both)",
    ),
]

MATCHES = 20
SEATS = 2
GAME = "fibbers_dice"
OPTIONS = {"points": 5}  # about 24 decisions a match
DECISION_SECONDS = 3
#: Each seat lets its decision number SKIP_AT pass (a bot takes it when the deadline fires).
SKIP_AT = 2
#: The kill comes once this many moves were applied, or after KILL_AFTER seconds of play.
KILL_AT_MOVES = MATCHES * 8
KILL_AFTER = 60.0
#: Generous limits for a loaded 2-core machine; the guarantees are asserted exactly.
START_SECONDS = 180
PLAY_SECONDS = 200
REQUEST_SECONDS = 30
OVER = ("finished", "aborted")


# --- The deployment ----------------------------------------------------------------------------


def _own_redis_url() -> str:
    """REDIS_URL with a database number of this test's own (8 away from the suite's)."""
    parts = urlsplit(str(django_settings.REDIS_URL))
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(base + 8) % 16}"))


class Deployment:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.run = uuid.uuid4().hex[:8]
        self.db_name = f"fib_scale_{self.run}"
        self.server = server_url()
        self.database_url = f"{self.server}/{self.db_name}"
        self.redis_url = _own_redis_url()
        self.prefix = f"fib-scale-{self.run}:"
        self.queue = f"fib-scale-{self.run}"
        self.token = secrets.token_urlsafe(24)
        self.processes: dict[str, Process] = {}
        self.api: list[str] = []
        self.follow: list[str] = []
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("OTEL_")},
            "DJANGO_SETTINGS_MODULE": "fibserver.settings.production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "FIBSERVER_HTTPS": "false",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "FIBSERVER_TASKS": "celery",
            "FIBSERVER_QUEUE": self.queue,
            "FIBSERVER_BROKER_PREFIX": self.prefix,
            "FIBSERVER_SWEEP_SECONDS": "0.5",
            "FIBSERVER_LIVE_MIN_SECONDS": "1",
            "FIBSERVER_BOT_DELAY": "0.05",
            "THROTTLE_ACTIONS": "100000000/min",
            "THROTTLE_GUEST": "100000000/hour",
            "METRICS_TOKEN": self.token,
            "LOG_LEVEL": "WARNING",
        }

    def psql(self, sql: str) -> None:
        with psycopg.connect(f"{self.server}/postgres", autocommit=True) as conn:
            conn.execute(sql)

    def start(self) -> None:
        self.psql(f'CREATE DATABASE "{self.db_name}"')
        migrate = Process("migrate", python("manage.py", "migrate", "-v0"), self.env, self.tmp)
        assert migrate.popen.wait(timeout=START_SECONDS) == 0, migrate.output()[-3000:]
        migrate.stop()
        for n in range(2):
            port = free_port()
            self.add(f"api{n}", gunicorn(port, workers=2), metrics=True)
            self.api.append(f"http://127.0.0.1:{port}")
            port = free_port()
            self.add(
                f"follow{n}", uvicorn(port), DB_CONN_MAX_AGE="0", FOLLOWER_DB_KEEP_SECONDS="60"
            )
            self.follow.append(f"http://127.0.0.1:{port}")
            self.add(
                f"worker{n}",
                celery_worker(f"{self.queue}-{n}@localhost", self.queue),
                metrics=True,
                METRICS_PORT=str(free_port()),
                METRICS_HOST="127.0.0.1",
            )
        self.add("beat", celery_beat(self.tmp / "beat-schedule"))
        for n in range(2):
            wait_http(f"{self.api[n]}/readyz/", START_SECONDS, self.processes[f"api{n}"])
            wait_http(f"{self.follow[n]}/readyz/", START_SECONDS, self.processes[f"follow{n}"])
        self.wait_for_workers()

    def add(self, name: str, args: list[str], metrics: bool = False, **env: str) -> None:
        extra = dict(env)
        if metrics:
            folder = self.tmp / f"metrics-{name}"
            folder.mkdir()
            extra["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
        self.processes[name] = Process(name, args, {**self.env, **extra}, self.tmp)

    def wait_for_workers(self) -> None:
        from celery import Celery

        app = Celery(
            broker=self.redis_url, broker_transport_options={"global_keyprefix": self.prefix}
        )
        names = [f"{self.queue}-{n}@localhost" for n in range(2)]
        try:
            give_up = time.monotonic() + START_SECONDS
            while time.monotonic() < give_up:
                answered = {name for reply in app.control.ping(timeout=1) for name in reply}
                if set(names) <= answered:
                    return
                for n in range(2):
                    worker = self.processes[f"worker{n}"]
                    assert worker.alive(), worker.output()[-3000:]
            raise AssertionError("the Celery workers did not answer a ping")
        finally:
            app.close()

    def kill(self, *names: str) -> None:
        for name in names:
            self.processes[name].kill()

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()
        try:
            self.psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        finally:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            try:
                keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
                if keys:
                    client.delete(*keys)
            finally:
                client.close()


# --- The clients -------------------------------------------------------------------------------


class Down(Exception):
    """No node answered (every one tried was unreachable)."""


def call(
    base: str,
    method: str,
    path: str,
    token: str | None = None,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = REQUEST_SECONDS,
) -> tuple[int, Any]:
    """One request: ``(status, JSON body)``; ``OSError`` or ``HTTPException`` when the node is
    unreachable or its answer is cut off."""
    data = None if body is None else orjson.dumps(body)
    request = urllib.request.Request(f"{base}{path}", data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            raw = answer.read()
            return answer.status, orjson.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, orjson.loads(raw) if raw else None


def first_answer(
    nodes: list[str], start: int, method: str, path: str, **kwargs: Any
) -> tuple[int, Any]:
    """The request to ``nodes[start]``; where that node is down, to the next one, and so on,
    for up to a minute (a move is sent again with the same ``Idempotency-Key``)."""
    give_up = time.monotonic() + 60
    attempt = start
    while time.monotonic() < give_up:
        try:
            return call(nodes[attempt % len(nodes)], method, path, **kwargs)
        except (OSError, http.client.HTTPException):  # refused, reset, or cut off mid-answer
            attempt += 1
            time.sleep(0.05)
    raise Down(f"{method} {path}")


@dataclass
class Seat:
    match: int
    position: int
    token: str
    user: int


@dataclass
class Record:
    """What the clients saw and did."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    applied: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    skipped: list[tuple[str, int, int]] = field(default_factory=list)
    seen: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(list))
    refused: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    finished_at: dict[str, float] = field(default_factory=dict)


class Clients:
    def __init__(self, deployment: Deployment, record: Record, stop_at: float) -> None:
        self.d = deployment
        self.r = record
        self.stop_at = stop_at

    def follow(self, match_id: str, who: str, token: str | None, node: int) -> None:
        """Follow a match to its end from ``seq`` 0 on follower ``node`` (the other one where
        it is down), recording every ``seq`` received."""
        after = 0
        path = f"/api/matches/{match_id}/events/"
        while time.monotonic() < self.stop_at:
            status, page = first_answer(
                self.d.follow, node, "GET", f"{path}?after={after}&wait=10", token=token
            )
            assert status == 200, (status, page)
            with self.r.lock:
                self.r.seen[(match_id, who)].extend(e["seq"] for e in page["events"])
            if page["events"]:
                after = page["events"][-1]["seq"]
            if not page["events"] and page["status"] in OVER:
                return
        raise AssertionError(f"{who} stopped following {match_id} at seq {after}")

    def play(self, match_id: str, seat: Seat, follower: int) -> None:
        rng = random.Random(f"{match_id}-{seat.position}")
        node = seat.position  # the API node of the next request, alternating
        after = 0
        decisions = 0
        decided: int | None = None
        events_path = f"/api/matches/{match_id}/events/"
        while time.monotonic() < self.stop_at:
            status, page = first_answer(
                self.d.follow,
                follower,
                "GET",
                f"{events_path}?after={after}&wait=10",
                token=seat.token,
            )
            assert status == 200, (status, page)
            with self.r.lock:
                self.r.seen[(match_id, f"seat{seat.position}")].extend(
                    e["seq"] for e in page["events"]
                )
            if page["events"]:
                after = page["events"][-1]["seq"]
                if page["more"]:
                    continue
            if page["status"] in OVER:
                if not page["events"]:
                    with self.r.lock:
                        self.r.finished_at.setdefault(match_id, time.monotonic())
                    return
                continue
            status, view = first_answer(
                self.d.api, node, "GET", f"/api/matches/{match_id}/", token=seat.token
            )
            node += 1
            assert status == 200, (status, view)
            if not view["legal_actions"] or view["version"] == decided:
                continue
            decided = view["version"]
            decisions += 1
            if decisions == SKIP_AT:  # let this one's deadline pass
                with self.r.lock:
                    self.r.skipped.append((match_id, seat.position, view["version"]))
                continue
            action = random_action(view["legal_actions"], rng)
            key = f"{match_id}-{seat.position}-{view['version']}"
            status, answer = first_answer(
                self.d.api,
                node,
                "POST",
                f"/api/matches/{match_id}/actions/",
                token=seat.token,
                body={**action, "expected_version": view["version"]},
                headers={"Idempotency-Key": key, "X-Request-ID": f"scale-{key}"},
            )
            node += 1
            with self.r.lock:
                if status == 200:
                    self.r.applied[match_id].add(key)
                    self.r.moves += 1
                else:
                    self.r.refused[status] += 1
            assert status in (200, 403, 409), (status, answer)  # 403/409: the bot was first
        raise AssertionError(f"seat {seat.position} of {match_id} did not see the end")


def thread(target: Any, *args: Any, errors: list[str]) -> threading.Thread:
    def run() -> None:
        try:
            target(*args)
        except BaseException as error:  # reported by the test, not lost in a thread
            errors.append(f"{target.__name__}{args[:2]}: {error!r}")

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    return worker


def prepare(d: Deployment, m: int) -> tuple[str, list[Seat]]:
    """Match ``m``: two guests (on alternate nodes), the match, the join that starts it."""
    seats = []
    for position in range(SEATS):
        status, guest = call(
            d.api[(m + position) % 2], "POST", "/api/auth/guest/", body={"display_name": "P"}
        )
        assert status == 201, guest
        seats.append(Seat(m, position, guest["token"], guest["user"]["id"]))
    body = {
        "game": GAME,
        "seats": SEATS,
        "options": OPTIONS,
        "time_control": "live",
        "decision_seconds": DECISION_SECONDS,
    }
    status, match = call(d.api[m % 2], "POST", "/api/matches/", seats[0].token, body)
    assert status == 201, match
    for seat in seats[1:]:
        status, joined = call(
            d.api[(m + 1) % 2], "POST", f"/api/matches/{match['id']}/join/", seat.token, {}
        )
        assert status == 200, joined
    return match["id"], seats


# --- What the database says --------------------------------------------------------------------


def database_facts(d: Deployment) -> dict[str, Any]:
    with psycopg.connect(d.database_url) as conn:
        matches = conn.execute(
            "SELECT id::text, game, seat_count, options, seed, state, status, last_seq "
            "FROM games_match"
        ).fetchall()
        events = conn.execute(
            "SELECT match_id::text, seq, version, actor, action, by_bot, deadline, "
            "extract(epoch FROM created_at) FROM games_event ORDER BY match_id, seq"
        ).fetchall()
    return {"matches": matches, "events": events}


def replays(match: tuple[Any, ...], events: list[tuple[Any, ...]]) -> bool:
    _id, game, seat_count, options, seed, state, _status, _last = match
    rules = registry.get(game)
    engine = rules.new_game(seat_count, options, seed).state
    for _m, _seq, _version, actor, action, _by_bot, _deadline, _at in events:
        if action is not None:
            engine = rules.apply(engine, actor, action).state
    return bool(rules.to_json(engine) == state)


def counted(tmp: Path, kind: str, name: str, **labels: str) -> float:
    """``name`` summed over the metrics directories of every node of ``kind``."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    total = 0.0
    for folder in sorted(tmp.glob(f"metrics-{kind}*")):
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(folder))
        for family in registry.collect():
            for sample in family.samples:
                if sample.name == name and labels.items() <= sample.labels.items():
                    total += sample.value
    return total


# --- The test ----------------------------------------------------------------------------------


def test_twenty_matches_on_two_nodes_each_lose_nothing_when_a_node_of_each_kind_dies(tmp_path):
    began = time.monotonic()
    d = Deployment(tmp_path)
    try:
        d.start()
        started = time.monotonic()
        record = Record()
        clients = Clients(d, record, stop_at=time.monotonic() + PLAY_SECONDS)
        threads = []
        matches = []
        play_began = time.monotonic()
        for m in range(MATCHES):  # its clients start as soon as it has started
            match_id, seats = prepare(d, m)
            matches.append((match_id, seats))
            for seat in seats:  # each seat follows on another follower than the last seat
                follower = (m + seat.position) % 2
                threads.append(thread(clients.play, match_id, seat, follower, errors=record.errors))
            threads.append(
                thread(
                    clients.follow, match_id, "spectator", None, (m + 1) % 2, errors=record.errors
                )
            )
        while record.moves < KILL_AT_MOVES and time.monotonic() - play_began < KILL_AFTER:
            assert not record.errors, record.errors
            time.sleep(0.1)
        moves_at_kill = record.moves
        killed_at, killed_wall = time.monotonic(), time.time()
        d.kill("api0", "follow0", "worker0")
        for worker in threads:
            worker.join(timeout=max(1.0, clients.stop_at - time.monotonic() + 5))
        done = time.monotonic()
        assert not record.errors, record.errors
        assert not any(worker.is_alive() for worker in threads), "some clients never finished"
        facts = database_facts(d)
    finally:
        logs = {name: p.log_path for name, p in d.processes.items()}
        d.stop()

    by_match: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for event in facts["events"]:
        by_match[event[0]].append(event)
    ours = {match_id for match_id, _ in matches}
    stored = {m[0]: m for m in facts["matches"]}
    assert set(stored) == ours

    # Every match finished, and re-runs from its seed to its stored state.
    assert {m[6] for m in stored.values()} == {"finished"}, logs
    assert all(replays(stored[mid], by_match[mid]) for mid in ours)

    moves = takeovers = 0
    for match_id in ours:
        rows = by_match[match_id]
        actions = [e for e in rows if e[4] is not None]
        # Nothing doubled: one action per version.
        versions = [e[2] for e in actions]
        assert len(versions) == len(set(versions)), match_id
        # Every move a client was answered 200 for is applied once, and no other.
        own = [e for e in actions if not e[5]]
        assert len(own) == len(record.applied[match_id]), match_id
        moves += len(own)
        # Every deadline taken once: a bot decision per (seat, deadline), never two.
        taken = [(e[3], e[6]) for e in actions if e[5]]
        assert all(deadline is not None for _, deadline in taken)
        assert len(taken) == len(set(taken)), match_id
        takeovers += len(taken)
        # Every follower received every seq of its match, once.
        last = stored[match_id][7]
        for who in ("seat0", "seat1", "spectator"):
            seqs = record.seen[(match_id, who)]
            assert seqs == list(range(1, last + 1)), (match_id, who, seqs[:5], last)
    # Every decision a seat let pass was taken by a bot for it: the seat's next action.
    planned = set()
    for match_id, position, version in record.skipped:
        later = [
            e
            for e in by_match[match_id]
            if e[4] is not None and e[3] == position and e[2] > version
        ]
        assert later and later[0][5] and later[0][6] is not None, (match_id, position, version)
        planned.add((match_id, later[0][2]))
    assert record.skipped, "no deadline was left to pass"
    # The others ran out on their own (a client slower than the deadline on a loaded machine,
    # or waiting on a node that had just died): when, relative to the kill.
    unplanned = sorted(
        float(e[7]) - killed_wall
        for e in facts["events"]
        if e[4] is not None and e[5] and (e[0], e[2]) not in planned
    )

    # The metrics of every process, the killed ones' included (their files outlive them): a
    # move or a deadline is counted just after its commit, so a process killed in between
    # may have missed one of its own (2 processes of each kind were killed).
    counted_moves = counted(tmp_path, "api", "fibserver_moves_applied_total", by="player")
    counted_deadlines = counted(tmp_path, "worker", "fibserver_deadlines_fired_total")
    assert moves - 2 <= counted_moves <= moves
    assert takeovers - 2 <= counted_deadlines <= takeovers

    others = ", ".join(f"{t:+.1f} s" for t in unplanned) or "none"
    deliveries = sum(len(v) for v in record.seen.values())
    applied = sum(map(len, record.applied.values()))
    figures = (
        f"scale-out: {MATCHES} matches ({GAME}, {SEATS} humans, {DECISION_SECONDS} s a decision) "
        f"on 2 API nodes x 2 gunicorn workers, 2 followers, 2 Celery workers x 2, 1 beat\n"
        f"  start-up {started - began:.1f} s; play {done - play_began:.1f} s; "
        f"kill after {killed_at - play_began:.1f} s at {moves_at_kill} moves "
        f"(api0, follow0, worker0); all finished {done - killed_at:.1f} s after the kill; "
        f"last match ended {max(record.finished_at.values()) - killed_at:.1f} s after it\n"
        f"  moves applied by players {moves} (= client 200s {applied}; counted by the API "
        f"nodes' metrics {counted_moves:.0f}), deadlines fired {takeovers} (seats that let "
        f"one pass on purpose: {len(record.skipped)}; counted by the workers' metrics "
        f"{counted_deadlines:.0f}; the others, from the kill: {others}), "
        f"events {len(facts['events'])}, events delivered to {len(record.seen)} followers "
        f"{deliveries} (each every seq once), refused moves {dict(record.refused)}\n"
    )
    (tmp_path / "scale-out.txt").write_text(figures)
    print("\n" + figures)
