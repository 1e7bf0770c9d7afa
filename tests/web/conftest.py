"""Browser tests of the web table at /play/: Debian's Chromium, headless, driven by Playwright
for Python, against a real server process run as ``scripts/serve`` runs it (uvicorn on
``fibserver.asgi`` with the development settings, the embedded runner taking bot turns and
enforcing deadlines) on a SQLite file of its own.

Chromium comes from the ``chromium`` Debian package (``.ci/run`` installs it); Playwright's own
browser downloads are never used. Where no Chromium can be found the tests are skipped with a
message saying so."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def chromium_path() -> str | None:
    """Debian's Chromium (or ``CHROMIUM`` from the environment), if there is one."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PlayServer:
    """``scripts/serve``'s server (uvicorn, ``fibserver.settings.dev``, the embedded runner) on
    a fresh SQLite file, with fast bots and a short lowest live decision time for the tests."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "fibserver.settings.dev",
            "DATABASE_URL": f"sqlite:///{tmp / 'play.sqlite3'}",
            "REDIS_URL": "",
            "FIBSERVER_TASKS": "embedded",
            "FIBSERVER_EMBEDDED_RUNNER": "1",
            "FIBSERVER_BOT_DELAY": "0.02",
            "FIBSERVER_SWEEP_SECONDS": "0.25",
            "FIBSERVER_LIVE_MIN_SECONDS": "1",
            "THROTTLE_GUEST": "10000/hour",
            "THROTTLE_REGISTER": "10000/hour",
            "THROTTLE_ACTIONS": "100000/min",
            "SECRET_KEY": "test-" + uuid.uuid4().hex * 2,
            "DB_CONN_MAX_AGE": "0",
        }
        self.log = (tmp / "server.log").open("w")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=self.env, check=True
        )
        self.process = subprocess.Popen(
            [
                *[sys.executable, "-m", "uvicorn", "fibserver.asgi:application"],
                *["--lifespan", "on", "--host", "127.0.0.1", "--port", str(self.port)],
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        for _ in range(400):
            try:
                urllib.request.urlopen(f"{self.url}/healthz/", timeout=1)
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError("the /play/ test server did not come up")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture(scope="session")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        pytest.skip(
            "no Chromium found (/usr/bin/chromium): install Debian's package with "
            "`apt-get install -y chromium` (.ci/run does) to run the browser tests"
        )
    return path


@pytest.fixture(scope="session")
def play_server(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[PlayServer]:
    server = PlayServer(tmp_path_factory.mktemp("play"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_page(browser: Any, play_server: PlayServer) -> Iterator[Any]:
    """``new_page(width=1200, height=900)``: a page in a fresh browser context (its own
    localStorage, so its own player); every page error fails the test."""
    contexts = []
    errors: list[str] = []

    def make(width: int = 1200, height: int = 900) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=play_server.url
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        page.on(
            "console",
            lambda message: (
                errors.append(f"console: {message.text}")
                if message.type == "error" and "status of 409" not in message.text
                else None
            ),  # a 409 is a stale version after a race: the page reloads and goes on
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors
