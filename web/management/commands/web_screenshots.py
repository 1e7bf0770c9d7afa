"""``manage.py web_screenshots``: pictures of each game's table at /play/, desktop and phone.

Starts the server as ``scripts/serve`` runs it (on a throw-away SQLite file), opens /play/ in
Debian's headless Chromium through Playwright (development dependencies: ``uv sync`` installs
Playwright, ``apt-get install chromium`` the browser), plays a few moves of a solo match of each
game by clicking what the page offers, and saves the table when it is the player's move:
``docs/screenshots/<game>-desktop.png`` (1280 px wide) and ``<game>-phone.png`` (360 px)."""

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


class Command(BaseCommand):
    help = "Screenshots of each game's table at /play/ (desktop and phone) in docs/screenshots/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
        parser.add_argument("--seed", type=int, default=1, help="seed of the moves played")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as error:
            raise CommandError("Playwright is missing: `uv sync` installs it (dev).") from error
        from web.browser import PlayServer, chromium_path, create_match, sign_in, take_turn

        chromium = chromium_path()
        if chromium is None:
            raise CommandError("No Chromium found: `apt-get install -y chromium`.")
        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        rng = random.Random(options["seed"])
        with tempfile.TemporaryDirectory() as tmp:
            server = PlayServer(Path(tmp))
            try:
                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(executable_path=chromium, headless=True)
                    context = browser.new_context(base_url=server.url, viewport=DESKTOP)
                    context.set_default_timeout(20_000)
                    page = context.new_page()
                    sign_in(page, "Ada")
                    self.shoot(page, out / "lobby", wait="#new-match")
                    for name, game, seats, opts, bots, moves in TABLES:
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
