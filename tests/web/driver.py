"""Checks of what the page shows against the API; the player itself is ``web.browser``."""

from __future__ import annotations

from typing import Any

from web.browser import api, create_match, play_to_end, sign_in, take_turn, token

__all__ = [
    "api",
    "check_end_screen",
    "create_match",
    "play_to_end",
    "sign_in",
    "take_turn",
    "token",
]


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
    # why it ended: a line of the end screen, from the API's end_reason
    reason = page.locator("#end-reason")
    assert reason.get_attribute("data-reason") == match["end_reason"]
    assert reason.text_content().startswith("Ended: ")
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
