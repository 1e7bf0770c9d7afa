"""axe-core finds no serious or critical violation on /play/'s lobby, the account page, a match
being played, the end screen and the replay viewer, on a desktop and on a phone."""

from __future__ import annotations

import random

import pytest

from .driver import axe_violations, create_match, play_to_end, sign_in

pytest.importorskip("playwright")
pytest.importorskip("axe_playwright_python")

SIZES = [pytest.param(1280, 900, id="desktop"), pytest.param(390, 844, id="phone")]


@pytest.mark.slow  # a whole browser session: CI runs it, the quick loop does not
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_axe_finds_no_serious_violation_on_any_screen(new_page, width, height):
    page = new_page(width, height)
    found: dict[str, list[str]] = {}
    sign_in(page, "Ada")
    page.wait_for_selector("#my-matches")
    page.click("#form-rules summary")  # the rules panel open, too
    found["lobby"] = axe_violations(page)
    # the account page, its sessions listed and an export's download offered
    page.click("#account-link")
    page.wait_for_selector("#account-sessions:not([hidden]) li[data-session]")
    page.click("#export-start")
    page.wait_for_selector("#export-download")
    found["account"] = axe_violations(page)
    page.click("#account-who a")  # back to the lobby
    page.wait_for_selector("#new-match")
    create_match(page, "fabfib", seats=3, options={"life": 2}, bots=["basic", "random"])
    page.wait_for_selector(".turn form.action")
    page.click("#match-rules summary")
    found["match"] = axe_violations(page)
    play_to_end(page, random.Random(f"axe-{width}"))
    page.wait_for_selector("#end-screen #bluff-stats")
    found["end"] = axe_violations(page)
    page.click("#open-replay")
    page.wait_for_selector('#replay-table[data-step="0"]')
    page.click("#replay-next")
    page.wait_for_selector('#replay-table[data-step="1"]')
    found["replay"] = axe_violations(page)
    print(f"axe at {width}x{height}, serious or critical:", {k: len(v) for k, v in found.items()})
    assert found == {"lobby": [], "account": [], "match": [], "end": [], "replay": []}
