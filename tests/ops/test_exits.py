"""Clean exits: every kind of process exits within ``EXIT_SECONDS`` of SIGTERM (or of its last
line, for a command) after it has moved a match, with its wake-ups flushed or dropped
knowingly (``kernel/wake.py``): the API node (gunicorn), the follower with a long-poll still
waiting (uvicorn), the Celery worker, beat, a Django process that moved a match in-process
and ended, and the embedded default (``scripts/serve``'s server). The times are printed."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings as django_settings

from kernel.devserver import EmbeddedServer

from .faults import Shape, call, create_match, has_redis_server
from .processes import ROOT, free_port, uvicorn

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        django_settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="needs PostgreSQL (CI has it)",
    ),
    pytest.mark.skipif(not has_redis_server(), reason="needs the redis-server program"),
]

EXIT_SECONDS = 5.0

MOVE = """
import random, time
from django.test import Client
from games.engine.bots import random_action
client = Client(HTTP_HOST="localhost")
guest = client.post("/api/auth/guest/", {}, content_type="application/json").json()
auth = {"HTTP_AUTHORIZATION": "Bearer " + guest["token"]}
match = client.post("/api/matches/", {"game": "fabfib", "seats": 3, "bots": ["random"] * 2},
                    content_type="application/json", **auth).json()
for _ in range(100):
    view = client.get(f"/api/matches/{match['id']}/", **auth).json()
    if view["legal_actions"]:
        break
    time.sleep(0.1)
action = random_action(view["legal_actions"], random.Random(1))
answer = client.post(f"/api/matches/{match['id']}/actions/",
                     {**action, "expected_version": view["version"]},
                     content_type="application/json", **auth)
print("last line", answer.status_code, flush=True)
"""


def _terminate(process: subprocess.Popen[bytes]) -> float:
    """SIGTERM the process group; the seconds until the process exited."""
    began = time.monotonic()
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return time.monotonic() - began


def _move(base: str) -> None:
    """One move through ``base``: the match's first seat to act makes one."""
    import random

    from games.engine.bots import random_action

    match_id, tokens = create_match(base, decision_seconds=60, points=3)
    for token in tokens:
        status, view, _h = call(base, "GET", f"/api/matches/{match_id}/", token)
        if view["legal_actions"]:
            action = random_action(view["legal_actions"], random.Random(1))
            body = {**action, "expected_version": view["version"]}
            status, answer, _h = call(
                base, "POST", f"/api/matches/{match_id}/actions/", token, body
            )
            assert status == 200, answer
            return
    raise AssertionError("nobody could move")


def test_every_process_exits_within_five_seconds_after_moving_a_match(tmp_path):
    shape = Shape(tmp_path)
    times: dict[str, float] = {}
    try:
        shape.start()
        port = free_port()
        follow = shape.add("follow", uvicorn(port))
        follower = f"http://127.0.0.1:{port}"
        shape.wait_http(f"{follower}/readyz/")
        _move(shape.api)  # the worker plays the bots' turns, beat sends the sweep
        match_id, tokens = create_match(shape.api, decision_seconds=60, points=3)
        path = f"/api/matches/{match_id}/events/?after=1000&wait=30"

        def long_poll() -> None:
            with contextlib.suppress(Exception):  # cut off when the follower stops
                call(follower, "GET", path, tokens[0])

        # A long-poll still waiting when the follower stops.
        waiting = threading.Thread(target=long_poll, daemon=True)
        waiting.start()
        time.sleep(1.0)
        # A Django process that moves a match in-process and ends: from its last line.
        command = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", MOVE],
            cwd=ROOT,
            env=shape.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            assert command.stdout is not None
            line = command.stdout.readline()
            last_line = time.monotonic()
            assert line.startswith(b"last line 200"), line
            command.wait(timeout=30)
            times["command (from its last line)"] = time.monotonic() - last_line
        finally:
            if command.poll() is None:
                os.killpg(command.pid, signal.SIGKILL)
                command.wait()
        for name in ("follow", "api", "worker", "beat"):
            times[name] = _terminate(shape.processes[name].popen)
        assert not follow.alive()
    finally:
        shape.stop()
    embedded = EmbeddedServer(tmp_path, {}, name="embedded-exit")
    try:
        _move(embedded.url)
        times["embedded (scripts/serve)"] = _terminate_embedded(embedded)
    finally:
        embedded.stop()
    print("\nexits: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in times.items()))
    slow = {name: round(seconds, 2) for name, seconds in times.items() if seconds > EXIT_SECONDS}
    assert not slow, f"exited more than {EXIT_SECONDS} s after SIGTERM or their last line: {slow}"


def _terminate_embedded(server: EmbeddedServer) -> float:
    began = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
    return time.monotonic() - began
