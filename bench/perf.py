"""The performance benchmark: the production shape, measured against a floor.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fib_perf_bench \
    REDIS_URL=redis://127.0.0.1:6379/7 uv run python bench/perf.py

One command, bounded run time (about three minutes with the defaults). It

1. migrates the (dedicated!) database it is given and empties it and the Redis database;
2. prepares matches in-process: Skull, four human seats, live time control (600 s per
   decision, so no deadline passes during the run), and a script of legal moves for each,
   computed with the engine from the stored state (the engine is deterministic given its
   state, so the server reaches the same states); a few lobby matches for the open list;
3. starts the production shape locally (docker-compose.yml): gunicorn with 4 sync workers for
   the API (``bench.perf_settings``: the production settings, DEBUG off, plus the floor's
   URLs), uvicorn for the follower (``DB_CONN_MAX_AGE=0`` as in docker-compose), a Celery
   worker and Celery beat, on the PostgreSQL and Redis given;
4. runs every scenario ``--rounds`` times, interleaved (floor, API, floor, API, ...), with a
   lean asyncio load generator (raw HTTP/1.1 on sockets) in closed loop at ``--clients``
   clients; measures throughput, p50/p99 latency and the server CPU per request (gunicorn
   workers, and apart the PostgreSQL backends of the benchmark database, from /proc);
5. follower delivery latency with many long-poll waiters (anonymous spectators on the
   follower), woken by moves paced to a target number of deliveries per second;
6. writes ``bench/RESULTS.md`` (``--out``).

The floor is the reference app kept outside the repository (its folder: ``PERF_FLOOR``, by
default ``shared/bench/floor`` beside the checkout's folder), a plain Django + DRF app (its
move: one ``select_for_update``, one ``save(update_fields=...)``, one event insert, a ~960 B
answer; its GET one ``values_list`` and the same answer). It is started from there, untouched:
in a temporary virtualenv (``uv venv`` + its ``requirements.txt``, or ``--floor-venv``), on a
database of its own next to the benchmark's (``<name>_floor``, migrated and seeded with its
``seed`` command), with gunicorn and the same number of sync workers as the API. Every
scenario runs against it and the project in turn, round after round (floor, project, floor,
project, ...), with the same client and load; the report gives the median over the rounds of
each round's project ÷ floor, and the server CPU per request by process (the gunicorn
workers, the PostgreSQL backends of the scenario's database, the Redis server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The API's port, the follower's is the next one (``PERF_PORT``, or ``--port``): several
#: benchmarks on one machine each take their own pair.
API_PORT = int(os.environ.get("PERF_PORT", "8101"))
FOLLOW_PORT = API_PORT + 1
FLOOR_PORT = API_PORT + 2
#: The shared floor, read-only: started from there, nothing of it copied here.
FLOOR_DIR = Path(os.environ.get("PERF_FLOOR", ROOT.parent / "shared" / "bench" / "floor"))
#: The game and seats the moves are measured with (as the floor's reference figures were).
GAME, SEATS = "fibbers_dice", 2
HOST = "127.0.0.1"
QUEUE = "fib-perf"


def bench_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="bench.perf_settings",
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        FIBSERVER_HTTPS="false",
        FIBSERVER_TASKS="celery",
        FIBSERVER_QUEUE=QUEUE,
        THROTTLE_ACTIONS="100000000/min",
        LOG_LEVEL="WARNING",
    )
    return env


os.environ.update(bench_env())
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # this process only: the meters read the DB

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from accounts.services import guest_create  # noqa: E402
from games import services  # noqa: E402
from games.engine import registry  # noqa: E402
from games.engine.bots import make_bot  # noqa: E402
from games.models import Event, Match  # noqa: E402

CLK = os.sysconf("SC_CLK_TCK")
#: The load average when the benchmark started (written into the report).
STARTED_LOAD = os.getloadavg()
#: What follows this line in the results file is kept across runs (earlier runs, profiles).
NOTES = "## Notes (kept across runs)"


# --- The load generator ------------------------------------------------------------------


class Conn:
    """One HTTP/1.1 client connection; reconnects when the server closes (gunicorn's sync
    workers close after every response)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, raw: bytes) -> tuple[int, bytes, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        self.writer.write(raw)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        lower = head.lower()
        m = re.search(rb"\r\ncontent-length: *(\d+)", lower)
        body = await self.reader.readexactly(int(m.group(1))) if m else b""
        if b"\r\nconnection: close" in lower:
            self.close()
        return status, head, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def http(
    method: str, path: str, token: str | None = None, body: Any = None, **headers: str
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    for name, value in headers.items():
        lines.append(f"{name.replace('_', '-')}: {value}")
    data = b""
    if body is not None:
        data = orjson.dumps(body)
        lines.append("Content-Type: application/json")
    lines.append(f"Content-Length: {len(data)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


@dataclass
class Run:
    name: str
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    app_cpu: float = 0.0
    db_cpu: float = 0.0
    redis_cpu: float = 0.0
    #: The follower process's (uvicorn's) CPU over an API scenario: what waking followers of
    #: the scenario's changes costs there (a floor's or the followers' own run: 0).
    follow_cpu: float = 0.0
    #: The Celery worker's CPU over an API scenario (its processes): the follow-up work of the
    #: scenario's moves (results, ratings and notifications when a match ends; bots).
    work_cpu: float = 0.0
    client_cpu: float = 0.0
    #: Requests per second of each round (the medians of the ratios are taken over these).
    rounds: list[float] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.latencies)

    def merge(self, other: Run) -> None:
        self.latencies += other.latencies
        for k, v in other.statuses.items():
            self.statuses[k] = self.statuses.get(k, 0) + v
        self.seconds += other.seconds
        self.app_cpu += other.app_cpu
        self.db_cpu += other.db_cpu
        self.redis_cpu += other.redis_cpu
        self.follow_cpu += other.follow_cpu
        self.work_cpu += other.work_cpu
        self.client_cpu += other.client_cpu
        if other.seconds:
            self.rounds.append(other.count / other.seconds)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# A request source: per client, an iterator of (raw request, expected statuses).
Source = Callable[[int], Iterator[tuple[bytes, tuple[int, ...]]]]


async def closed_loop(
    name: str,
    port: int,
    clients: int,
    seconds: float,
    source: Source,
    most: int = 0,
    floor: bool = False,
) -> Run:
    """``clients`` clients in closed loop for ``seconds`` (or ``most`` requests each)."""
    run = Run(name)
    stop = time.monotonic() + seconds
    meter = CpuMeter(floor=floor)

    async def client(index: int) -> None:
        conn = Conn(port)
        requests = source(index)
        try:
            sent = 0
            while time.monotonic() < stop and not (most and sent >= most):
                sent += 1
                raw, _ok = next(requests, (b"", ()))
                if not raw:
                    break
                t0 = time.perf_counter()
                status, _head, _body = await conn.request(raw)
                run.latencies.append(time.perf_counter() - t0)
                run.statuses[status] = run.statuses.get(status, 0) + 1
        finally:
            conn.close()

    with client_gc_pauses():  # the generator's own pauses out of the latencies
        meter.start()
        t0 = time.monotonic()
        await asyncio.gather(*(client(i) for i in range(clients)))
        run.seconds = time.monotonic() - t0
        meter.stop(run)
    return run


# --- CPU accounting ----------------------------------------------------------------------


def proc_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


class Servers:
    api_pids: list[int] = []
    follow_pids: list[int] = []
    worker_pid: int = 0
    floor_pids: list[int] = []
    floor_db: str = ""
    redis_pid: int = 0


def worker_pids() -> list[int]:
    """The Celery worker's processes (its main process and its pool's children)."""
    if not Servers.worker_pid:
        return []
    return [Servers.worker_pid, *children(Servers.worker_pid)]


def db_backends(database: str = "") -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = COALESCE(NULLIF(%s, ''), "
            "current_database()) AND pid <> pg_backend_pid()",
            [database],
        )
        return [r[0] for r in cursor.fetchall()]


class CpuMeter:
    """Server CPU seconds over a window: the API's (the follower's, the floor's) processes,
    the database backends of its database (backends opened during the window count from
    zero; those closed during it are lost, which under-counts the follower's short
    connections) and the Redis server (shared with whatever else uses it on the machine)."""

    def __init__(self, follower: bool = False, floor: bool = False) -> None:
        self.follower = follower
        self.floor = floor

    def _pids(self) -> list[int]:
        if self.floor:
            return Servers.floor_pids
        return Servers.follow_pids if self.follower else Servers.api_pids

    def _db(self) -> str:
        return Servers.floor_db if self.floor else ""

    def start(self) -> None:
        self.app0 = {p: proc_cpu(p) for p in self._pids()}
        self.db0 = {p: proc_cpu(p) for p in db_backends(self._db())}
        self.redis0 = proc_cpu(Servers.redis_pid) if Servers.redis_pid else 0.0
        self.side = [] if self.floor or self.follower else Servers.follow_pids
        self.side0 = {p: proc_cpu(p) for p in self.side}
        self.work = [] if self.floor or self.follower else worker_pids()
        self.work0 = {p: proc_cpu(p) for p in self.work}
        self.me0 = time.process_time()

    def stop(self, run: Run) -> None:
        run.app_cpu += sum(proc_cpu(p) - self.app0.get(p, 0.0) for p in self._pids())
        run.db_cpu += sum(proc_cpu(p) - self.db0.get(p, 0.0) for p in db_backends(self._db()))
        if Servers.redis_pid:
            run.redis_cpu += proc_cpu(Servers.redis_pid) - self.redis0
        run.follow_cpu += sum(proc_cpu(p) - self.side0.get(p, 0.0) for p in self.side)
        run.work_cpu += sum(proc_cpu(p) - self.work0.get(p, 0.0) for p in self.work)
        run.client_cpu += time.process_time() - self.me0


# --- Preparation -------------------------------------------------------------------------


@dataclass
class Script:
    match_id: str
    moves: list[tuple[str, dict[str, Any]]]  # (token, body)


def new_match(game: str, seats: int, players: list[tuple[Any, str]]) -> Match:
    match = services.match_create(
        user=players[0][0], game=game, seats=seats, time_control="live", decision_seconds=600
    )
    for user, _token in players[1:seats]:
        match = services.match_join(match_id=match.pk, user=user)
    return match


def seat_tokens(match: Match, players: list[tuple[Any, str]]) -> dict[int, str]:
    by_user = {user.pk: token for user, token in players}
    return {s.position: by_user[s.user_id] for s in match.seats.all() if s.user_id}


def script_of(match: Match, tokens: dict[int, str], rng: random.Random) -> Script:
    """Every move to the end of the match, as the seats' players send them."""
    rules = registry.get(match.game)
    assert match.state is not None
    state = rules.from_json(match.state)
    version = match.version
    bots = [make_bot(match.game, "random", random.Random(rng.random())) for _ in range(4)]
    moves = []
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        action = bots[seat].choose(rules.view(state, seat))
        moves.append((tokens[seat], {**action, "expected_version": version}))
        state = rules.apply(state, seat, action).state
        version += 1
    return Script(str(match.pk), moves)


def prepare(clients: int, matches_per_client: int, follow_matches: int) -> dict[str, Any]:
    rng = random.Random(16)
    t0 = time.monotonic()
    users = [guest_create(display_name=f"Bench {i}") for i in range(clients * 4)]
    per_client: list[list[Script]] = []
    for c in range(clients):
        players = users[c * 4 : c * 4 + SEATS]
        scripts = []
        for _ in range(matches_per_client):
            match = new_match(GAME, SEATS, players)
            tokens = seat_tokens(match, players)
            scripts.append(script_of(match, tokens, rng))
        per_client.append(scripts)
    # Views: one mid-game match per client (its first moves applied in-process).
    views = []
    for c in range(clients):
        players = users[c * 4 : c * 4 + SEATS]
        match = new_match(GAME, SEATS, players)
        tokens = seat_tokens(match, players)
        script = script_of(match, tokens, rng)
        for token, body in script.moves[:2]:
            user = next(u for u, t in players if t == token)
            action = {k: v for k, v in body.items() if k != "expected_version"}
            services.action_submit(match_id=match.pk, user=user, action=action)
        views.append((str(match.pk), players[0][1]))
    # Lobby matches for the open list.
    for i in range(30):
        services.match_create(user=users[i % len(users)][0], game="fabfib", seats=5)
    # Followed matches: scripts played by the move driver, watched by spectators.
    follow = []
    for i in range(follow_matches):
        players = users[(i % clients) * 4 : (i % clients) * 4 + 4]
        match = new_match("skull", 4, players)
        tokens = seat_tokens(match, players)
        follow.append(script_of(match, tokens, rng))
    moves = sum(len(s.moves) for scripts in per_client for s in scripts)
    print(f"prepared {moves} moves in {time.monotonic() - t0:.1f} s", flush=True)
    return {
        "scripts": per_client,
        "views": views,
        "follow": follow,
        "tokens": [t for _, t in users],
    }


# --- Servers -----------------------------------------------------------------------------


@contextlib.contextmanager
def production_shape(workers: int, worker_class: str = "sync", threads: int = 1) -> Iterator[None]:
    env = bench_env()
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    procs = []
    py = sys.executable

    log = open(f"/tmp/fib-perf-servers-{API_PORT}.log", "ab")  # noqa: SIM115 (open while they run)

    def start(args: list[str], **extra: str) -> subprocess.Popen[bytes]:
        p = subprocess.Popen(
            args,
            cwd=ROOT,
            env={**env, **extra},
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        procs.append(p)
        return p

    if worker_class == "granian":
        api_command = [
            py,
            "-m",
            "granian",
            "--interface",
            "wsgi",
            "fibserver.wsgi:application",
            "--workers",
            str(workers),
            "--blocking-threads",
            str(threads),
            "--host",
            HOST,
            "--port",
            str(API_PORT),
            "--log-level",
            "warning",
            "--no-access-log",
        ]
    else:
        api_command = [
            py,
            "-m",
            "gunicorn",
            "fibserver.wsgi:application",
            "-w",
            str(workers),
            "-k",
            worker_class,
            *(["--threads", str(threads)] if worker_class == "gthread" else []),
            "-b",
            f"{HOST}:{API_PORT}",
            "--log-level",
            "warning",
        ]
    api = start(api_command)
    follow = start(
        [
            py,
            "-m",
            "uvicorn",
            "fibserver.asgi:application",
            "--host",
            HOST,
            "--port",
            str(FOLLOW_PORT),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        DB_CONN_MAX_AGE="0",
        FOLLOWER_DB_KEEP_SECONDS="60",
    )
    worker = start(
        [
            py,
            "-m",
            "celery",
            "-A",
            "fibserver",
            "worker",
            "-Q",
            QUEUE,
            "-c",
            "2",
            "--prefetch-multiplier",
            "1",
            "-l",
            "warning",
        ]
    )
    start(
        [
            py,
            "-m",
            "celery",
            "-A",
            "fibserver",
            "beat",
            "-s",
            f"/tmp/fib-perf-beat-{API_PORT}",
            "-l",
            "warning",
        ]
    )
    try:
        for port in (API_PORT, FOLLOW_PORT):
            wait_for_port(port)
        Servers.api_pids = children(api.pid)
        Servers.follow_pids = [follow.pid]
        Servers.worker_pid = worker.pid
        assert len(Servers.api_pids) == workers, Servers.api_pids
        yield
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


@contextlib.contextmanager
def shared_floor(workers: int, venv: str) -> Iterator[None]:
    """The shared floor app, started from its folder (read-only, nothing copied): a virtualenv
    with its requirements (``venv``, or a new temporary one), its own database next to the
    benchmark's, migrated and seeded with its ``seed`` command, gunicorn with ``workers`` sync
    workers on ``FLOOR_PORT``."""
    import shutil
    import tempfile

    app = FLOOR_DIR / "floorapp"
    assert app.is_dir(), f"no floor at {FLOOR_DIR}"
    if not venv:
        venv = str(Path(tempfile.mkdtemp(prefix="fib-perf-floor-")) / "venv")
        uv = shutil.which("uv")
        assert uv, "uv is needed to make the floor's virtualenv (or pass --floor-venv)"
        subprocess.run([uv, "venv", "-q", "--python", "3.11", venv], check=True)
        subprocess.run(
            [
                uv,
                "pip",
                "install",
                "-q",
                "-p",
                f"{venv}/bin/python",
                "-r",
                str(FLOOR_DIR / "requirements.txt"),
            ],
            check=True,
        )
    db = settings.DATABASES["default"]
    name = f"{db['NAME']}_floor"
    Servers.floor_db = name
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{name}"')
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PGFLOOR_PORT": str(db.get("PORT") or 5432),
        "FLOOR_DB": name,
    }
    py = f"{venv}/bin/python"
    for command in (["migrate", "-v", "0"], ["seed"]):
        subprocess.run([py, "manage.py", *command], cwd=app, env=env, check=True)
    log = open(f"/tmp/fib-perf-floor-{API_PORT}.log", "ab")  # noqa: SIM115 (open while it runs)
    server = subprocess.Popen(
        [
            f"{venv}/bin/gunicorn",
            "floorproj.wsgi:application",
            "-w",
            str(workers),
            "-k",
            "sync",
            "-b",
            f"{HOST}:{FLOOR_PORT}",
            "--log-level",
            "warning",
        ],
        cwd=app,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        wait_for_port(FLOOR_PORT)
        Servers.floor_pids = children(server.pid)
        assert len(Servers.floor_pids) == workers, Servers.floor_pids
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


def wait_for_port(port: int) -> None:
    import socket

    for _ in range(100):
        with contextlib.suppress(OSError):
            socket.create_connection((HOST, port), timeout=1).close()
            break
        time.sleep(0.2)
    time.sleep(2)


def floor_move_body() -> dict[str, Any]:
    """The floor's own move body (its ``payloads.MOVE``), read from its folder."""
    sys.path.insert(0, str(FLOOR_DIR))
    try:
        import payloads  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(FLOOR_DIR))
    return {"move": payloads.MOVE}


# --- Scenarios ---------------------------------------------------------------------------


def move_source(scripts: list[list[Script]]) -> Source:
    def source(index: int) -> Iterator[tuple[bytes, tuple[int, ...]]]:
        while scripts[index]:
            script = scripts[index][0]
            while script.moves:
                token, body = script.moves.pop(0)
                yield http("POST", f"/api/matches/{script.match_id}/actions/", token, body), (200,)
            scripts[index].pop(0)

    return source


def move_get_source(scripts: list[list[Script]]) -> Source:
    """Each move, then the view of the seat to act next (as its player's client would fetch
    it, woken by the move): two requests a move."""

    def source(index: int) -> Iterator[tuple[bytes, tuple[int, ...]]]:
        while scripts[index]:
            script = scripts[index][0]
            while script.moves:
                token, body = script.moves.pop(0)
                yield http("POST", f"/api/matches/{script.match_id}/actions/", token, body), (200,)
                after = script.moves[0][0] if script.moves else token
                yield http("GET", f"/api/matches/{script.match_id}/", after), (200,)
            scripts[index].pop(0)

    return source


def floor_move_source(with_get: bool = False) -> Source:
    """The floor's move on a match of its own per client (ids 1 to 1,000), and its GET."""
    body = floor_move_body()

    def source(index: int) -> Iterator[tuple[bytes, tuple[int, ...]]]:
        raw = http("POST", f"/move/{index % 1000 + 1}", None, body)
        get = http("GET", f"/view/{index % 1000 + 1}")
        while True:
            yield raw, (200,)
            if with_get:
                yield get, (200,)

    return source


def repeat(make: Callable[[int], bytes]) -> Source:
    def source(index: int) -> Iterator[tuple[bytes, tuple[int, ...]]]:
        raw = make(index)
        while True:
            yield raw, (200, 304)

    return source


async def etags(views: list[tuple[str, str]]) -> list[str]:
    out = []
    for match_id, token in views:
        conn = Conn(API_PORT)
        _s, head, _b = await conn.request(http("GET", f"/api/matches/{match_id}/", token))
        conn.close()
        m = re.search(rb"\r\netag: *([^\r]+)", head.lower())
        assert m, head
        out.append(m.group(1).decode())
    return out


async def follower_run(
    scripts: list[Script], waiters: int, deliveries: float, seconds: float, name: str
) -> tuple[Run, dict[str, Any]]:
    """``waiters`` spectators long-poll the followed matches (spread evenly) on the follower;
    moves are sent at ``deliveries / waiters-per-match`` per second. Latency = the waiter
    receives the event − the move's request was sent (an upper bound of "after commit")."""
    run = Run(name)
    per_match = min(40, waiters)
    scripts = [s for s in scripts if s.moves][: -(-waiters // per_match)]
    rate = deliveries / per_match
    sent: dict[tuple[str, int], float] = {}
    done = asyncio.Event()
    parked = 0
    errors = {"waiter": 0, "move": 0}

    async def waiter(match_id: str, after: int) -> None:
        nonlocal parked
        conn = Conn(FOLLOW_PORT)
        first = True
        try:
            while not done.is_set():
                raw = http("GET", f"/api/matches/{match_id}/events/?after={after}&wait=30")
                if first:
                    parked += 1
                    first = False
                status, _h, body = await conn.request(raw)
                now, wall = time.perf_counter(), time.time()
                if status != 200:
                    errors["waiter"] += 1
                    await asyncio.sleep(0.5)
                    continue
                page = orjson.loads(body)
                seen = set()
                for event in page["events"]:
                    v = event["version"]
                    if v not in seen and (match_id, v) in sent:
                        seen.add(v)
                        run.latencies.append(now - sent[(match_id, v)])
                        received.append((match_id, v, wall))
                        marks["last"] = max(marks["last"], now)
                after = page["last_seq"]
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            errors["waiter"] += 1
        finally:
            conn.close()

    def start_of(match_id: str) -> tuple[int, int]:
        return Match.objects.values_list("last_seq", "version").get(pk=match_id)

    starts = {s.match_id: await asyncio.to_thread(start_of, s.match_id) for s in scripts}
    received: list[tuple[str, int, float]] = []
    #: The first move sent and the last delivery received (perf_counter): the delivery window.
    marks = {"first": 0.0, "last": 0.0}
    move_latencies: list[float] = []
    tasks = []
    for s in scripts:
        for _ in range(per_match):
            tasks.append(asyncio.create_task(waiter(s.match_id, starts[s.match_id][0])))
            if len(tasks) % 100 == 0:
                await asyncio.sleep(0.05)  # connect gradually: the listen backlog is finite
    for _ in range(200):
        if parked >= len(tasks):
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(3)  # let every waiter park on the follower
    meter = CpuMeter(follower=True)
    meter.start()
    t0 = time.monotonic()
    moves = 0
    busy: set[str] = set()
    inflight: set[asyncio.Task[None]] = set()

    async def move(match_id: str, raw: bytes, version: int) -> None:
        conn = Conn(API_PORT)
        try:
            sent[(match_id, version)] = time.perf_counter()
            marks["first"] = marks["first"] or sent[(match_id, version)]
            status, _h, _b = await conn.request(raw)
            move_latencies.append(time.perf_counter() - sent[(match_id, version)])
            if status != 200:
                errors["move"] += 1
        finally:
            conn.close()
            busy.discard(match_id)

    next_at = time.monotonic()
    i = 0
    while time.monotonic() - t0 < seconds:
        if all(not s.moves for s in scripts):
            break
        script = scripts[i % len(scripts)]
        i += 1
        if not script.moves or script.match_id in busy:
            await asyncio.sleep(0)
            continue
        now = time.monotonic()
        if next_at > now:
            await asyncio.sleep(next_at - now)
        next_at += 1 / rate
        token, body = script.moves.pop(0)
        busy.add(script.match_id)
        raw = http("POST", f"/api/matches/{script.match_id}/actions/", token, body)
        task = asyncio.create_task(move(script.match_id, raw, body["expected_version"] + 1))
        inflight.add(task)
        task.add_done_callback(inflight.discard)
        moves += 1
    await asyncio.gather(*inflight, return_exceptions=True)
    await asyncio.sleep(1.0)  # the last deliveries
    run.seconds = time.monotonic() - t0
    meter.stop(run)
    done.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    expected = moves * per_match

    def written() -> dict[tuple[str, int], float]:
        rows = Event.objects.filter(match_id__in=[s.match_id for s in scripts]).values_list(
            "match_id", "version", "created_at"
        )
        out: dict[tuple[str, int], float] = {}
        for match_id, version, created in rows:
            key = (str(match_id), version)
            out[key] = min(out.get(key, created.timestamp()), created.timestamp())
        return out

    at = await asyncio.to_thread(written)
    after_write = [wall - at[(m, v)] for m, v, wall in received if (m, v) in at]
    return run, {
        "after_write": after_write,
        "waiters": len(tasks),
        "moves": moves,
        "expected": expected,
        "rate": rate,
        "errors": errors,
        "window": marks["last"] - marks["first"] if marks["last"] else 0.0,
        "move_p99": pct(move_latencies, 99),
    }


def settle_database() -> None:
    """After the scenarios' thousands of moves: vacuum the tables they rewrote and checkpoint,
    so the followers' paced moves do not meet autovacuum's or a checkpoint's I/O (their commits
    stalled 200-600 ms in runs without this, which the deliveries then carried)."""
    with connection.cursor() as cursor:
        for table in ("games_match", "games_seat", "games_event"):
            cursor.execute(f"VACUUM (ANALYZE) {table}")
        cursor.execute("CHECKPOINT")
    connection.close()


@contextlib.contextmanager
def client_gc_pauses() -> Iterator[list[float]]:
    """The load generator's own garbage-collection pauses (seconds) while it runs: a pause
    delays every delivery it is receiving, and would be counted as the server's latency (a
    first version of this run measured 120-140 ms pauses with 4,000 waiters, which were its
    p99). So the collector is off meanwhile (what is allocated in a few seconds fits in memory
    easily) and what was loaded before is frozen; the pauses are still recorded, if any."""
    pauses: list[float] = []
    gc.collect()
    gc.freeze()
    gc.disable()
    started: list[float] = []

    def callback(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            pauses.append(time.perf_counter() - started.pop())

    gc.callbacks.append(callback)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(callback)
        gc.enable()
        gc.unfreeze()


# --- Report ------------------------------------------------------------------------------


def median_ratio(run: Run, floor: Run) -> float:
    """The median over the rounds of this round's rate ÷ the floor's in the same round."""
    ratios = sorted(a / b for a, b in zip(run.rounds, floor.rounds, strict=False) if b)
    if not ratios:
        return float("nan")
    mid = len(ratios) // 2
    return ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2


def row(run: Run, floor: Run | None) -> str:
    rps = run.count / run.seconds if run.seconds else 0.0
    ratio = f"{median_ratio(run, floor):.2f}×" if floor and floor.count else "—"
    spread = (
        f"{min(run.rounds):,.0f}–{max(run.rounds):,.0f}" if len(run.rounds) > 1 else f"{rps:,.0f}"
    )

    def per(seconds: float) -> float:
        return 1000 * seconds / run.count if run.count else float("nan")

    cpu_ratio = total_ratio = "—"
    if floor and floor.count and floor.app_cpu:
        cpu_ratio = f"{(run.app_cpu / run.count) / (floor.app_cpu / floor.count):.2f}×"
        mine = run.app_cpu + run.db_cpu + run.redis_cpu + run.follow_cpu + run.work_cpu
        theirs = floor.app_cpu + floor.db_cpu + floor.redis_cpu
        total_ratio = f"{(mine / run.count) / (theirs / floor.count):.2f}×"
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(run.statuses.items()))
    return (
        f"| {run.name} | {run.count} | {rps:,.0f} | {spread} | {ratio} "
        f"| {1000 * pct(run.latencies, 50):.1f} | {1000 * pct(run.latencies, 99):.1f} "
        f"| {per(run.app_cpu):.2f} | {per(run.db_cpu):.2f} | {per(run.redis_cpu):.2f} "
        f"| {per(run.follow_cpu):.2f} | {per(run.work_cpu):.2f} | {cpu_ratio} "
        f"| {total_ratio} | {statuses} |"
    )


async def main_async(args: argparse.Namespace, data: dict[str, Any]) -> str:
    views = data["views"]
    tags = await etags(views)
    n = args.clients
    scenarios: list[tuple[str, str | None, Source]] = [
        ("floor move", None, floor_move_source()),
        ("move", "floor move", move_source(data["scripts"])),
        ("floor move + GET", None, floor_move_source(with_get=True)),
        ("move + next seat's GET", "floor move + GET", move_get_source(data["scripts"])),
        ("floor GET", None, repeat(lambda i: http("GET", f"/view/{i % 1000 + 1}"))),
        (
            "view GET 200",
            "floor GET",
            repeat(lambda i: http("GET", f"/api/matches/{views[i][0]}/", views[i][1])),
        ),
        (
            "view GET 304",
            "floor GET",
            repeat(
                lambda i: http(
                    "GET", f"/api/matches/{views[i][0]}/", views[i][1], If_None_Match=tags[i]
                )
            ),
        ),
        ("open list", "floor GET", repeat(lambda i: http("GET", "/api/matches/?game=fabfib"))),
        (
            "my matches",
            "floor GET",
            repeat(lambda i: http("GET", "/api/matches/?mine=true", views[i][1])),
        ),
        (
            "inbox (me/turns)",
            "floor GET",
            repeat(lambda i: http("GET", "/api/me/turns/", views[i][1])),
        ),
    ]
    if args.only:
        keep = {name.strip() for name in args.only.split(",")}
        scenarios = [sc for sc in scenarios if sc[0] in keep]
    totals: dict[str, Run] = {name: Run(name) for name, _, _ in scenarios}

    def port(name: str) -> int:
        return FLOOR_PORT if name.startswith("floor") else API_PORT

    for name, _floor, source in scenarios:  # warm every worker up (first requests import)
        await closed_loop(name, port(name), n, 60, source, most=args.warmup)
    for r in range(args.rounds):
        for name, _floor, source in scenarios:
            floor = name.startswith("floor")
            run = await closed_loop(name, port(name), n, args.seconds, source, floor=floor)
            totals[name].merge(run)
            print(
                f"round {r + 1} {name}: {run.count / run.seconds:,.0f}/s "
                f"p99 {1000 * pct(run.latencies, 99):.1f} ms {run.statuses}",
                flush=True,
            )
    profiles = []
    if args.profile:
        for name, _floor, source in scenarios:
            if name in ("move", "view GET 200"):
                profiles.append((name, await profiled(name, n, args.seconds * 2, source)))
    follows = []
    await asyncio.to_thread(settle_database)
    for waiters in args.waiters:
        with client_gc_pauses() as pauses:
            fr, info = await follower_run(
                data["follow"], waiters, args.deliveries, args.follow_seconds, f"{waiters} waiters"
            )
        info["client_gc_ms"] = 1000 * max(pauses, default=0.0)
        follows.append((fr, info))
        print(
            f"followers {waiters}: after write p99 {1000 * pct(info['after_write'], 99):.0f} ms"
            f" p50 {1000 * pct(fr.latencies, 50):.0f} ms "
            f"p99 {1000 * pct(fr.latencies, 99):.0f} ms {len(fr.latencies)}/{info['expected']} "
            f"{ {k: v for k, v in info.items() if k != 'after_write'} }",
            flush=True,
        )
    text = report(args, scenarios, totals, follows)
    for name, summary in profiles:
        text += f"\n### Profile: {name} (py-spy, every gunicorn worker, not in the figures)\n\n"
        text += summary
    return text


async def profiled(name: str, clients: int, seconds: float, source: Source) -> str:
    """The scenario once more with py-spy sampling every API worker and the Celery worker's
    processes (``--format raw``: folded stacks; the files are kept in a temporary folder named
    in the report), summarised as the share of samples each frame is on the stack of (inclusive) and
    at the top of (self)."""
    import shutil
    import tempfile

    spy = shutil.which("py-spy")
    if spy is None:
        return "py-spy is not installed (`uv tool install py-spy`).\n"
    folder = Path(tempfile.mkdtemp(prefix="fib-perf-prof-"))
    spies = [
        subprocess.Popen(
            [
                spy,
                "record",
                "--pid",
                str(pid),
                "--format",
                "raw",
                "--rate",
                "250",
                "--nonblocking",
                "--duration",
                str(int(seconds) + 1),
                "--output",
                str(folder / f"{pid}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for pid in [*Servers.api_pids, *worker_pids()]
    ]
    await asyncio.sleep(1.0)
    await closed_loop(name, API_PORT, clients, seconds, source)
    for spy_process in spies:
        await asyncio.to_thread(spy_process.wait)
    return f"Folded stacks: `{folder}`.\n\n" + summarize(folder)


def summarize(folder: Path) -> str:
    """Folded py-spy stacks in ``folder`` (one file per process: the API's workers, then the
    Celery worker's processes): inclusive and self shares of the busy samples."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for path in folder.glob("*.txt"):
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            n = int(count)
            frames = [
                f.split(" (")[0] + " (" + f.split(" (")[-1].split(":")[0].rsplit("/", 1)[-1] + ")"
                if " (" in f
                else f
                for f in stack.split(";")
            ]
            total += n
            for frame in set(frames):
                inclusive[frame] = inclusive.get(frame, 0) + n
            own[frames[-1]] = own.get(frames[-1], 0) + n
    if not total:
        return "No samples.\n"
    lines = [
        f"{total} samples of busy threads. Inclusive (on the stack), the top 40 under 70 %:",
        "",
        "| % | frame |",
        "|---|---|",
    ]
    # Below the request handling every request shares (gunicorn, middleware, DRF dispatch).
    below = [(f, n) for f, n in inclusive.items() if n / total < 0.7]
    for frame, n in sorted(below, key=lambda kv: -kv[1])[:40]:
        lines.append(f"| {100 * n / total:.1f} | `{frame}` |")
    lines += ["", "Self (top of the stack), top 15:", "", "| % | frame |", "|---|---|"]
    for frame, n in sorted(own.items(), key=lambda kv: -kv[1])[:15]:
        lines.append(f"| {100 * n / total:.1f} | `{frame}` |")
    return "\n".join(lines) + "\n"


def breakdown(scenarios: list[Any], totals: dict[str, Run]) -> list[str]:
    """Where a move's time goes: per request of each move scenario (and its floor), the CPU
    each process spent, the load generator's, and what the machine's cores had to give per
    request at the rate reached (cores × the time between two requests); the rest is idle
    or the machine's other work."""
    cores = os.cpu_count() or 1
    names = [
        name
        for pair in scenarios
        if "move" in pair[0] and not pair[0].startswith("floor")
        for name in (pair[1], pair[0])
        if name and totals.get(name) and totals[name].count
    ]
    if not names:
        return []
    lines = [
        "",
        "Where a move's time goes (ms per request; a move and its GET count as two requests):",
        "",
        "| scenario | p50 latency | server | PostgreSQL | Redis | follower | Celery worker "
        f"| load generator | all measured | {cores} cores' time per request "
        "| idle or other work |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in names:
        run = totals[name]
        n = run.count

        def ms(seconds: float, n: int = n) -> float:
            return 1000 * seconds / n

        parts = [
            run.app_cpu,
            run.db_cpu,
            run.redis_cpu,
            run.follow_cpu,
            run.work_cpu,
            run.client_cpu,
        ]
        have = 1000 * cores * run.seconds / n
        used = ms(sum(parts))
        lines.append(
            f"| {name} | {1000 * pct(run.latencies, 50):.1f} | "
            + " | ".join(f"{ms(x):.2f}" for x in parts)
            + f" | {used:.2f} | {have:.2f} | {have - used:.2f} |"
        )
    return lines


def api_server(args: argparse.Namespace) -> str:
    if args.worker_class == "granian":
        return (
            f"granian (WSGI) {args.workers} workers × {args.threads} blocking threads (keep-alive)"
        )
    if args.worker_class == "gthread":
        return f"gunicorn {args.workers} gthread workers × {args.threads} threads (keep-alive)"
    return f"gunicorn {args.workers} sync workers"


def report(
    args: argparse.Namespace,
    scenarios: list[Any],
    totals: dict[str, Run],
    follows: list[tuple[Run, dict[str, Any]]],
) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    start = " / ".join(f"{x:.1f}" for x in STARTED_LOAD)
    threads = f" --threads {args.threads}" if args.worker_class != "sync" else ""
    lines = [
        "# Performance: the production shape against the shared floor",
        "",
        f"Generated by `bench/perf.py --rounds {args.rounds} --seconds {args.seconds} "
        f"--clients {args.clients} --workers {args.workers} --worker-class {args.worker_class}"
        f"{threads}` at commit `{commit}` on "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC ({os.cpu_count()} cores; load average "
        f"{start} at the start, {load} at the end: gate each run with the shared quiet gate kept "
        "beside the repository with the floor, and keep what it prints with the figures). "
        "The floor: the shared reference app "
        f"(kept beside the repository, not in it), gunicorn {args.workers} sync workers; "
        f"the API: {api_server(args)}, "
        "uvicorn (follower), a Celery worker and beat, "
        "PostgreSQL, Redis, DEBUG off (production settings); moves: Fibber's Dice, 2 seats. "
        f"Every scenario ran {args.rounds}× for {args.seconds} s, interleaved (floor, project, "
        f"floor, project, ...), at {args.clients} clients in closed loop with the same client.",
        "",
        "| scenario | requests | req/s | req/s by round | ÷ floor (median of rounds) "
        "| p50 ms | p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | Redis CPU ms/req "
        "| follower CPU ms/req | Celery worker CPU ms/req | server CPU ÷ floor "
        "| all CPU ÷ floor | statuses |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, floor, _ in scenarios:
        lines.append(row(totals[name], totals.get(floor) if floor else None))
    lines += [
        "",
        "`÷ floor` is the median over the rounds of the throughput over the floor's in the same "
        "round (moves: the floor's move; a move and the next seat's GET: the floor's move and "
        "its GET, two requests a move on both sides; reads: the floor's GET). Server CPU: the "
        "gunicorn workers' user+system time per request; PostgreSQL CPU: the backends of the "
        "scenario's database; Redis CPU: the Redis server's (shared with the machine's other "
        "work, so an upper bound); follower CPU: the follower process's (uvicorn: what the "
        "wake-ups of the scenario's changes cost there); Celery worker CPU: the worker's "
        "processes' (the follow-up work of the scenario's moves: results, ratings and "
        "notifications when a match ends); all CPU: the five together.",
    ]
    lines += breakdown(scenarios, totals)
    if not follows:
        return "\n".join(lines) + "\n"
    lines += [
        "",
        "## Followers",
        "",
        f"Anonymous spectators long-poll `/api/matches/{{id}}/events/?wait=30` on the follower "
        f"(uvicorn, one process); moves through the API paced for about {args.deliveries:.0f} "
        "deliveries/s (deliveries/s: those received over the time from the first move sent to "
        "the last delivery); latency = a waiter receives the event − the move's request was sent "
        "(so it includes the move itself), and − the event row was written (`created_at`, "
        "just before the commit: the delivery latency after commit, plus the rest of the "
        f"move's transaction); {args.follow_seconds} s per level.",
        "",
        "| waiters | moves | deliveries expected | delivered | deliveries/s | p50 ms | p99 ms "
        "| max ms | p50 ms after write | p99 ms after write | the moves' own p99 ms "
        "| follower CPU ms/delivery | longest client GC pause ms | errors |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for fr, info in follows:
        got = len(fr.latencies)
        per = 1000 * fr.app_cpu / got if got else float("nan")
        lines.append(
            f"| {info['waiters']} | {info['moves']} | {info['expected']} | {got} | "
            f"{got / info['window'] if info['window'] else 0:,.0f} | "
            f"{1000 * pct(fr.latencies, 50):.0f} | "
            f"{1000 * pct(fr.latencies, 99):.0f} | {1000 * max(fr.latencies or [0]):.0f} | "
            f"{1000 * pct(info['after_write'], 50):.0f} | "
            f"{1000 * pct(info['after_write'], 99):.0f} | {1000 * info['move_p99']:.0f} | "
            f"{per:.2f} | "
            f"{info['client_gc_ms']:.0f} | {info['errors']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    global API_PORT, FOLLOW_PORT, FLOOR_PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--warmup", type=int, default=10, help="requests per client, scenario")
    parser.add_argument("--workers", type=int, default=5)
    parser.add_argument(
        "--floor-venv", default="", help="a virtualenv with the floor's requirements (or a new one)"
    )
    parser.add_argument(
        "--worker-class",
        choices=["sync", "gthread", "granian"],
        default="sync",
        help="the API's gunicorn worker class, or granian (WSGI) in gunicorn's place (the "
        "floor's stays gunicorn sync)",
    )
    parser.add_argument(
        "--threads", type=int, default=4, help="threads per gthread (granian: blocking) worker"
    )
    parser.add_argument("--matches", type=int, default=120, help="move matches per client")
    parser.add_argument("--follow-matches", type=int, default=100)
    parser.add_argument("--waiters", type=int, nargs="*", default=[1000, 4000])
    parser.add_argument("--deliveries", type=float, default=1000.0)
    parser.add_argument("--follow-seconds", type=float, default=8.0)
    parser.add_argument("--out", default=str(ROOT / "bench" / "RESULTS.md"))
    parser.add_argument("--profile", action="store_true", help="py-spy the API workers after")
    parser.add_argument(
        "--only", default="", help="comma-separated scenario names (a quick look, not a report)"
    )
    parser.add_argument(
        "--port", type=int, default=API_PORT, help="the API's port; the follower's is the next"
    )
    args = parser.parse_args()
    API_PORT, FOLLOW_PORT, FLOOR_PORT = args.port, args.port + 1, args.port + 2
    db = settings.DATABASES["default"]
    assert "postgresql" in db["ENGINE"] and settings.REDIS_URL, "needs PostgreSQL and Redis"
    assert "bench" in db["NAME"] or "perf" in db["NAME"], "use a dedicated benchmark database"
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE games_match, accounts_user CASCADE")
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    data = prepare(args.clients, args.matches, args.follow_matches)
    connection.close()
    Servers.redis_pid = int(redis.Redis.from_url(settings.REDIS_URL).info("server")["process_id"])
    with (
        shared_floor(args.workers, args.floor_venv),
        production_shape(args.workers, args.worker_class, args.threads),
    ):
        # uvloop: the load generator's own CPU per request is less than half of asyncio's
        # loop (0.12 against 0.28 ms against a hello-world gunicorn here), so it takes less of
        # the two cores the servers are measured on.
        text = uvloop.run(main_async(args, data))
    out = Path(args.out)
    kept = out.read_text().split(NOTES, 1)[1] if out.exists() and NOTES in out.read_text() else ""
    out.write_text(text + "\n" + NOTES + kept)
    print(text)


if __name__ == "__main__":
    main()
