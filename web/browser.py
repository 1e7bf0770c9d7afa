"""A browser at /play/, for the browser tests (tests/web/) and the screenshots command
(``manage.py web_screenshots``): Debian's Chromium driven by Playwright for Python, against a
real server process run as ``scripts/serve`` runs it, and a player that clicks only what the
page offers. Playwright is a development dependency: import this module only where it is
installed."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from kernel.devserver import ROOT, EmbeddedServer


def chromium_path() -> str | None:
    """Debian's Chromium (or ``CHROMIUM`` from the environment), if there is one."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


_STATIC: dict[str, Path] = {}


def collected_static() -> Path:
    """The static files collected as ``scripts/serve`` collects them (hashed names, gzip
    copies), once per process into a directory of its own."""
    if "root" not in _STATIC:
        root = Path(tempfile.mkdtemp(prefix="fibserver-static-"))
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env={
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "fibserver.settings.dev",
                "FIBSERVER_STATIC_COLLECTED": "1",
                "STATIC_ROOT": str(root),
            },
            check=True,
        )
        _STATIC["root"] = root
    return _STATIC["root"]


class PlayServer(EmbeddedServer):
    """``scripts/serve``'s server (``fibserver.settings.dev``, the embedded runner, the static
    files collected) on a fresh SQLite file, with fast bots and a short lowest live decision
    time for the tests."""

    def __init__(self, tmp: Path, name: str = "play", **env: str) -> None:
        super().__init__(
            tmp,
            {
                "DJANGO_SETTINGS_MODULE": "fibserver.settings.dev",
                "FIBSERVER_STATIC_COLLECTED": "1",
                "STATIC_ROOT": str(collected_static()),
                "FIBSERVER_BOT_DELAY": "0.02",
                "FIBSERVER_SWEEP_SECONDS": "0.25",
                "FIBSERVER_LIVE_MIN_SECONDS": "1",
                "THROTTLE_GUEST": "10000/hour",
                "THROTTLE_REGISTER": "10000/hour",
                "THROTTLE_ACTIONS": "100000/min",
                **env,
            },
            name=name,
        )


def sign_in(page: Any, name: str) -> None:
    page.goto("/play/")
    page.fill("#guest-name", name)
    page.click("#guest-form button[type=submit]")
    page.wait_for_selector("#new-match")


def token(page: Any) -> str:
    value: str = page.evaluate("localStorage.getItem('fibserver.token')")
    return value


def api(page: Any, base: str, path: str) -> Any:
    """GET ``/api{path}`` with the page's own token (what that player may see)."""
    request = urllib.request.Request(
        f"{base}/api{path}", headers={"Authorization": f"Bearer {token(page)}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def create_match(
    page: Any,
    game: str,
    *,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    mode: str = "solo",
    bots: list[str] | None = None,
    seconds: int | None = None,
    visibility: str | None = None,
) -> str:
    """Fill in the page's "New match" form and create it; returns the match id.

    ``bots`` has a level for each place after yours, or ``""`` for a place left open for a
    friend; the bots sit next to you, the open places after them (the form says so)."""
    levels = list(bots or [])
    friends = levels.count("")
    assert levels[len(levels) - friends :] == [""] * friends, "open places come after the bots"
    page.select_option("#nm-game", game)
    page.select_option("#nm-mode", mode)
    for name, value in (options or {}).items():
        selector = f"#nm-opt-{name}"
        if isinstance(value, bool):
            page.set_checked(selector, value)
        elif page.locator(selector).evaluate("el => el.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, str(value))
    if seats is not None:
        page.fill("#nm-seats", str(seats))
        page.dispatch_event("#nm-seats", "change")
    if mode != "solo":
        page.fill("#nm-friends", str(friends))
        page.dispatch_event("#nm-friends", "change")
    for i, level in enumerate(levels[: len(levels) - friends], start=1):
        page.select_option(f"#nm-bot-{i}", level)
    if seconds is not None:
        if mode == "async":
            assert seconds % 3600 == 0, "the form asks for hours per decision in async play"
            page.fill("#nm-hours", str(seconds // 3600))
        else:
            page.fill("#nm-seconds", str(seconds))
    if visibility is not None:
        page.select_option("#nm-visibility", visibility)
    page.click("#nm-create")
    page.wait_for_selector(".table-screen[data-status]")
    match_id: str = page.evaluate("location.hash.split('/')[2]")
    return match_id


def take_turn(page: Any, rng: random.Random) -> bool:
    """One move through the page's controls, chosen at random among those offered; False when
    the page offers none right now."""
    version = page.locator(".table-screen").get_attribute("data-version")
    forms = page.locator(".turn form.action")
    count = forms.count()
    if count == 0:
        return False
    form = forms.nth(rng.randrange(count))
    choices = form.locator("button.choice")
    offered = choices.count()
    if offered:
        choices.nth(rng.randrange(offered)).click(timeout=3000)
    else:
        groups = form.locator(".picks")
        for g in range(groups.count()):
            group = groups.nth(g)
            low, high = int(group.get_attribute("data-min")), int(group.get_attribute("data-max"))
            picks = group.locator("button.pick")
            shown = picks.count()  # a redraw may be under way: never pick more than is shown
            for index in rng.sample(range(shown), rng.randint(min(low, shown), min(high, shown))):
                picks.nth(index).click(timeout=3000)
        selects = form.locator("select")
        for s in range(selects.count()):
            select = selects.nth(s)
            select.select_option(index=rng.randrange(select.locator("option").count()))
        form.locator("button[type=submit]").click(timeout=3000)
    # The page moves on: a new version, or the end screen (a refusal would show an alert).
    page.wait_for_function(
        """v => { const s = document.querySelector('.table-screen');
                  const alert = document.querySelector('.table-screen .error:not([hidden])');
                  if (alert) throw new Error('the page showed: ' + alert.textContent);
                  const over = !!document.getElementById('end-screen');
                  return !s || s.dataset.version !== v || over; }""",
        arg=version,
        timeout=30_000,
    )
    return True


def play_to_end(page: Any, rng: random.Random, stall: float = 120, budget: int = 2000) -> int:
    """Play every decision the page offers until the end screen shows; returns the moves made.

    Fails when the table stops moving (no new version for ``stall`` seconds: the bots and the
    server are quick, but a loaded machine is slow, so there is no limit on the whole match) or
    after ``budget`` moves of our own."""
    from playwright.sync_api import Error

    moves = misses = 0
    seen, since = None, time.monotonic()
    while not page.locator("#end-screen").count():
        version = page.evaluate("document.querySelector('.table-screen')?.dataset.version")
        if version != seen:
            seen, since = version, time.monotonic()
        assert time.monotonic() - since < stall, f"stuck at version {seen} ({moves} moves)"
        assert moves < budget, f"not over after {moves} moves"
        try:
            if take_turn(page, rng):
                moves += 1
            else:
                page.wait_for_timeout(25)
        except Error as error:
            if "the page showed" in str(error):
                raise
            misses += 1  # the table was redrawn under the click (events came in): look again
            assert misses < 50, f"too many redraws under the clicks: {error}"
    return moves
