"""Real server processes for the operations tests: each in a process group of its own (so a
kill takes its children too), on a free port, with its output in a file."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.conf import settings as django_settings

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Process:
    def __init__(self, name: str, args: list[str], env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.log_path = logs / f"{name}.log"
        self.log = self.log_path.open("ab")
        self.popen = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole group: a crash, not a shutdown."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)  # what the group left behind
        self.log.close()

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")


def python(*args: str) -> list[str]:
    return [sys.executable, *args]


def wait_http(url: str, seconds: float, process: Process | None = None) -> None:
    """Until ``url`` answers 200 (or the process dies, or time runs out)."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if process is not None and not process.alive():
            raise AssertionError(f"{process.name} exited: {process.output()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    tail = process.output()[-3000:] if process is not None else ""
    raise AssertionError(f"{url} did not answer in {seconds:.0f} s: {tail}")


def gunicorn(port: int, workers: int = 2) -> list[str]:
    return python(
        *["-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "fibserver.wsgi:application"],
        *["-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
    )


def uvicorn(port: int) -> list[str]:
    return python(
        *["-m", "uvicorn", "fibserver.asgi:application", "--host", "127.0.0.1"],
        *["--port", str(port), "--log-level", "warning", "--no-access-log"],
        *["--timeout-graceful-shutdown", "2"],  # as docker-compose.yml's follower
    )


def celery_worker(name: str, queue: str, concurrency: int = 2) -> list[str]:
    return python(
        *["-m", "celery", "-A", "fibserver", "worker", "-Q", queue, "-n", name],
        *["--concurrency", str(concurrency), "--prefetch-multiplier", "1", "-l", "warning"],
    )


def celery_beat(schedule: Path) -> list[str]:
    return python("-m", "celery", "-A", "fibserver", "beat", "-s", str(schedule), "-l", "warning")


def server_url() -> str:
    """The PostgreSQL server of the test settings, for a database of our own."""
    db = django_settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}"
