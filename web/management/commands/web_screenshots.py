"""``manage.py web_screenshots``: pictures of each game's table at /play/, desktop and phone.

Starts the server as ``scripts/serve`` runs it (on a throw-away SQLite file), opens /play/ in
Debian's headless Chromium through Playwright (development dependencies: ``uv sync`` installs
Playwright, ``apt-get install chromium`` the browser), plays a few moves of a solo match of each
game by clicking what the page offers, and saves the table when it is the player's move:
``docs/screenshots/<game>-desktop.png`` (1280 px wide) and ``<game>-phone.png`` (360 px). Then
it plays a short Fab Fib match to the end and saves its replay viewer a few steps in
(``replay-*.png``). ``--only lobby replay …`` takes only those pictures."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

ROOT = Path(__file__).resolve().parents[3]
DESKTOP: Any = {"width": 1280, "height": 900}  # playwright ViewportSize
PHONE: Any = {"width": 360, "height": 740}

# (file name, game, seats, options, bot levels, moves to play before the picture)
TABLES: list[tuple[str, str, int, dict[str, Any], list[str], int]] = [
    ("fabfib", "fabfib", 4, {}, ["strong", "basic", "random"], 3),
    ("fibber", "fibber", 3, {}, ["strong", "basic"], 2),
    ("fibber-easy", "fibber", 3, {"variant": "easy"}, ["basic", "basic"], 3),
    ("fibbers_dice", "fibbers_dice", 4, {}, ["strong", "basic", "random"], 3),
    ("skull", "skull", 4, {}, ["strong", "basic", "random"], 2),
]
#: The replay viewer: a match played to the end, then shown at this step.
REPLAY = ("fabfib", 3, {"life": 2}, ["basic", "basic"])
REPLAY_STEP = 4
NAMES = ["lobby", *(t[0] for t in TABLES), "replay"]


class Command(BaseCommand):
    help = "Screenshots of each game's table at /play/ (desktop and phone) in docs/screenshots/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
        parser.add_argument("--seed", type=int, default=1, help="seed of the moves played")
        parser.add_argument(
            "--only", nargs="+", choices=NAMES, default=NAMES, help="take only these pictures"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as error:
            raise CommandError("Playwright is missing: `uv sync` installs it (dev).") from error
        from web.browser import (
            PlayServer,
            chromium_path,
            create_match,
            play_to_end,
            sign_in,
            take_turn,
        )

        chromium = chromium_path()
        if chromium is None:
            raise CommandError("No Chromium found: `apt-get install -y chromium`.")
        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        rng = random.Random(options["seed"])
        only = set(options["only"])
        with tempfile.TemporaryDirectory() as tmp:
            server = PlayServer(Path(tmp))
            try:
                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(executable_path=chromium, headless=True)
                    context = browser.new_context(base_url=server.url, viewport=DESKTOP)
                    context.set_default_timeout(20_000)
                    page = context.new_page()
                    sign_in(page, "Ada")
                    if "lobby" in only:
                        self.shoot(page, out / "lobby", wait="#new-match")
                    for name, game, seats, opts, bots, moves in TABLES:
                        if name not in only:
                            continue
                        page.goto("/play/#/")
                        page.wait_for_selector("#new-match")
                        create_match(page, game, seats=seats, options=opts, bots=bots)
                        played = 0
                        while played < moves:
                            try:
                                played += take_turn(page, rng)
                            except Exception:  # redrawn under the click: look again
                                continue
                            if page.locator("#end-screen").count():
                                break
                        page.wait_for_selector(".turn form.action, #end-screen")
                        page.wait_for_timeout(300)  # let the last events settle
                        self.shoot(page, out / name)
                    if "replay" in only:
                        page.goto("/play/#/")
                        page.wait_for_selector("#new-match")
                        game, seats, opts, bots = REPLAY
                        create_match(page, game, seats=seats, options=opts, bots=bots)
                        play_to_end(page, rng)
                        page.click("#open-replay")
                        page.wait_for_selector('#replay-table[data-step="0"]')
                        for _ in range(REPLAY_STEP):
                            page.click("#replay-next")
                        page.wait_for_selector(f'#replay-table[data-step="{REPLAY_STEP}"]')
                        page.wait_for_timeout(300)  # the neighbouring steps are fetched
                        self.shoot(page, out / "replay")
                    browser.close()
            finally:
                server.stop()

    def shoot(self, page: Any, stem: Path, wait: str | None = None) -> None:
        if wait:
            page.wait_for_selector(wait)
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=f"{stem}-desktop.png", full_page=True)
        page.set_viewport_size(PHONE)
        page.screenshot(path=f"{stem}-phone.png", full_page=True)
        page.set_viewport_size(DESKTOP)
        self.stdout.write(f"{stem}-desktop.png, {stem}-phone.png")
