"""Browser tests of the web table at /play/: Debian's Chromium, headless, driven by Playwright
for Python, against a real server process run as ``scripts/serve`` runs it (uvicorn on
``fibserver.asgi`` with the development settings, the embedded runner taking bot turns and
enforcing deadlines) on a SQLite file of its own.

Chromium comes from the ``chromium`` Debian package (``.ci/run`` installs it); Playwright's own
browser downloads are never used. Where no Chromium can be found the tests are skipped with a
message saying so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from web.browser import PlayServer, chromium_path


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
    """``new_page(width=1200, height=900, server=None, offline_ok=False, refusals=())``: a page
    in a fresh browser context (its own localStorage, so its own player) on ``server`` (the
    session's server by default); every page error fails the test, and so does every console
    error but a 409 (a stale version after a race, which the page handles), with
    ``offline_ok`` a refused connection (a test that stops the server), and the statuses in
    ``refusals`` (a test that asks for a refusal)."""
    contexts = []
    errors: list[str] = []

    def make(
        width: int = 1200,
        height: int = 900,
        server: Any = None,
        offline_ok: bool = False,
        refusals: tuple[int, ...] = (),
    ) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=(server or play_server).url
        )
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        allowed = [f"status of {status}" for status in (409, *refusals)]
        allowed += ["ERR_CONNECTION_REFUSED"] if offline_ok else []
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        page.on(
            "console",
            lambda message: (
                errors.append(f"console: {message.text}")
                if message.type == "error" and not any(a in message.text for a in allowed)
                else None
            ),
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors
