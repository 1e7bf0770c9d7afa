"""Playing at /play/ the way a person does: by clicking what the page offers, nothing else.
The API is read only to check what the page shows."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from typing import Any

from playwright.sync_api import Error as PlaywrightError


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
    """Fill in the page's "New match" form and create it; returns the match id."""
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
    for i, level in enumerate(bots or [], start=1):
        page.select_option(f"#nm-bot-{i}", level)
    if seconds is not None:
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
            for index in rng.sample(range(picks.count()), rng.randint(low, high)):
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
        timeout=15_000,
    )
    return True


def play_to_end(page: Any, rng: random.Random, limit: float = 150) -> int:
    """Play every decision the page offers until the end screen shows; returns the moves made."""
    start = time.monotonic()
    moves = misses = 0
    while not page.locator("#end-screen").count():
        assert time.monotonic() - start < limit, f"not over after {limit}s ({moves} moves)"
        try:
            if take_turn(page, rng):
                moves += 1
            else:
                page.wait_for_timeout(25)
        except PlaywrightError as error:
            if "the page showed" in str(error):
                raise
            misses += 1  # the table was redrawn under the click (events came in): look again
            assert misses < 50, f"too many redraws under the clicks: {error}"
    return moves


def check_end_screen(page: Any, base: str, match_id: str) -> dict[str, Any]:
    """The end screen shows the API's placements and the revealed bluff statistics."""
    page.wait_for_selector("#end-screen #bluff-stats")
    match = api(page, base, f"/matches/{match_id}/")
    stats = api(page, base, f"/matches/{match_id}/stats/")
    assert match["status"] == "finished"
    shown = page.eval_on_selector_all(
        "#placements li", "items => items.map(li => [+li.dataset.seat, +li.dataset.place])"
    )
    assert sorted(map(tuple, shown)) == list(enumerate(match["placements"]))
    assert [place for _, place in shown] == sorted(match["placements"])  # best first
    table = page.eval_on_selector_all(
        "#bluff-stats tbody tr",
        "rows => rows.map(r => [r.dataset.stat,"
        " [...r.querySelectorAll('td')].map(td => td.textContent)])",
    )
    assert table, "no bluff statistics on the end screen"
    for key, cells in table:
        for seat, cell in zip(stats["seats"], cells, strict=True):
            expected = str(seat["stats"][key])
            if seat["bot_stats"].get(key):
                expected += f" (+{seat['bot_stats'][key]})"
            assert cell == expected, (key, seat["position"], cell, expected)
    return match
