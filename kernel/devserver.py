"""The embedded default as a child process: ``scripts/serve``'s server (uvicorn on
``fibserver.asgi``, the embedded runner on) on a fresh SQLite file, for the tests that talk to a
real server over a socket and for ``manage.py web_screenshots``. Nothing here runs in a server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# On a loaded machine (CI runs the suite on every core) importing Django and migrating a fresh
# database can take a while: wait this long for /healthz/ while the process is alive.
START_SECONDS = 120


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class EmbeddedServer:
    """Migrate ``tmp/<name>.sqlite3`` and serve it on a free port; ``env`` adds to (or overrides)
    the environment of ``scripts/serve`` with the embedded runner. The server's output goes to
    ``tmp/<name>.log``, which the error names if the server does not come up."""

    def __init__(self, tmp: Path, env: dict[str, str], name: str = "embedded") -> None:
        self.db = tmp / f"{name}.sqlite3"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.db}",
            "REDIS_URL": "",
            "FIBSERVER_TASKS": "embedded",
            "FIBSERVER_EMBEDDED_RUNNER": "1",
            "SECRET_KEY": "test-" + uuid.uuid4().hex * 2,
            "DB_CONN_MAX_AGE": "0",
            **env,
        }
        self.log_path = tmp / f"{name}.log"
        self.log = self.log_path.open("w")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"],
            cwd=ROOT,
            env=self.env,
            check=True,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.serve()

    def serve(self) -> None:
        """Start the server process (again, after :meth:`halt`: same port, same database) and
        wait until it answers."""
        self.process = subprocess.Popen(
            [
                *[sys.executable, "-m", "uvicorn", "fibserver.asgi:application"],
                *["--lifespan", "on", "--host", "127.0.0.1", "--port", str(self.port)],
                *["--timeout-graceful-shutdown", "2"],  # as scripts/serve
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                urllib.request.urlopen(f"{self.url}/healthz/", timeout=2)
                return
            except OSError:
                time.sleep(0.1)
        code = self.process.poll()
        self.stop()
        raise AssertionError(
            f"the embedded server did not come up in {START_SECONDS} s (exit code {code});"
            f" its output: {self.log_path}"
        )

    def halt(self) -> None:
        """Stop the server process; :meth:`serve` starts it again (an outage, for the tests)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.halt()
        self.log.close()
