"""The replay viewer at the end of a match: the revealed seed checked against the commitment
in the browser, then every step of the record in order, from the keyboard."""

from __future__ import annotations

import random

import pytest

from .driver import api, check_end_screen, create_match, play_to_end, sign_in

pytest.importorskip("playwright")


def test_the_replay_viewer_steps_through_the_revealed_record(new_page, play_server):
    page = new_page()
    sign_in(page, "Ada")
    match_id = create_match(page, "fibbers_dice", seats=2, options={"points": 1}, bots=["strong"])
    play_to_end(page, random.Random(11))
    check_end_screen(page, play_server.url, match_id)
    page.click("#open-replay")
    page.wait_for_selector('#seed-check[data-verified="true"]')
    record = api(page, play_server.url, f"/matches/{match_id}/replay/")
    total = len(record["steps"])
    assert page.text_content("#replay-at").startswith("Set-up")
    page.focus("#replay-next")
    for n, step in enumerate(record["steps"], start=1):
        page.keyboard.press("ArrowRight")
        heading = page.text_content("#replay-at")
        assert heading.startswith(f"Step {n} of {total}"), heading
        assert page.text_content(".replay-action strong") == step["action"]["type"]
        # Every private part of the step is shown: the hidden record is public now.
        shown = page.text_content(".replay-events")
        parts = sum(len(event["private"]) for event in step["events"])
        assert shown.count(" saw: ") == parts, (n, shown)
    page.keyboard.press("ArrowRight")  # already at the last step: stays there
    assert page.text_content("#replay-at").startswith(f"Step {total} of {total}")
    page.click("#replay-first")
    assert page.text_content("#replay-at").startswith("Set-up")
    assert page.locator("#replay-slider").input_value() == "0"
