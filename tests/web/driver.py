"""Checks of what the page shows against the API; the player itself is ``web.browser``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web.browser import api, create_match, play_to_end, sign_in, take_turn, token

__all__ = [
    "all_events",
    "api",
    "axe_violations",
    "check_end_screen",
    "create_match",
    "play_to_end",
    "sign_in",
    "take_turn",
    "token",
]


def all_events(page: Any, base: str, match_id: str) -> list[dict[str, Any]]:
    """The whole event feed the page's player may see (it comes in pages)."""
    events: list[dict[str, Any]] = []
    while True:
        after = events[-1]["seq"] if events else 0
        page_of = api(page, base, f"/matches/{match_id}/events/?after={after}")["events"]
        if not page_of:
            return events
        events += page_of


def check_end_screen(page: Any, base: str, match_id: str) -> dict[str, Any]:
    """The end screen shows the API's placements and the revealed bluff statistics."""
    page.wait_for_selector("#end-screen #bluff-stats")
    match = api(page, base, f"/matches/{match_id}/")
    stats = api(page, base, f"/matches/{match_id}/stats/")
    assert match["status"] == "finished"
    # Every seat's place, best first (in Skull's two tribes under the people's ranking, which
    # comes from the record's person_placements).
    seats = "#seat-placements li" if match["options"].get("two_tribes") else "#placements li"
    shown = page.eval_on_selector_all(
        seats, "items => items.map(li => [+li.dataset.seat, +li.dataset.place])"
    )
    assert sorted(map(tuple, shown)) == list(enumerate(match["placements"]))
    # why it ended: a line of the end screen, from the API's end_reason
    reason = page.locator("#end-reason")
    assert reason.get_attribute("data-reason") == match["end_reason"]
    assert reason.text_content().startswith("Ended: ")
    assert [place for _, place in shown] == sorted(match["placements"])  # best first
    if match["options"].get("two_tribes"):
        over = next(e for e in all_events(page, base, match_id) if e["type"] == "match_over")
        people = page.eval_on_selector_all(
            "#placements li", "items => items.map(li => [+li.dataset.person, +li.dataset.place])"
        )
        assert sorted(map(tuple, people)) == list(enumerate(over["person_placements"]))
        assert [place for _, place in people] == sorted(over["person_placements"])
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


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of ``impacts`` on the page as it is now, one line each (rule, impact,
    the elements). axe-core comes pinned with the ``axe-playwright-python`` package (a
    development dependency), so no network is needed."""
    import axe_playwright_python

    script = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    page.evaluate(script)
    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
    results = page.evaluate(
        "tags => axe.run(document, {resultTypes: ['violations'],"
        " runOnly: {type: 'tag', values: tags}})",
        tags,
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        for v in results["violations"]
        if v["impact"] in impacts
    ]
