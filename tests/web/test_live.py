"""Two people at one live table, each in their own browser context: one creates a private match
with the page's form, the other joins through the invite link, and they play it to the end. One
decision is left to run out: the bot takes it, and both pages label that move."""

from __future__ import annotations

import random
import time

import pytest

from .driver import api, check_end_screen, create_match, sign_in, take_turn

pytest.importorskip("playwright")
from playwright.sync_api import Error as PlaywrightError


@pytest.mark.slow  # a whole browser session: CI runs it, the quick loop does not
def test_two_people_play_a_live_match_through_the_invite_link_and_the_bot_takes_a_timeout(
    new_page, play_server
):
    ada, bob = new_page(), new_page(360, 740)  # Bob plays on a phone-sized screen
    sign_in(ada, "Ada")
    sign_in(bob, "Bob")
    match_id = create_match(
        ada,
        "fibbers_dice",
        seats=2,
        options={"points": 2},
        mode="live",
        bots=[""],  # the other place stays open for a friend
        seconds=4,
        visibility="private",
    )
    ada.wait_for_selector("#invite-link")
    link = ada.get_attribute("#invite-link", "href")
    code = ada.text_content("#invite-code")
    assert link.endswith(f"/play/#/join/{code}")
    bob.goto(link)
    for page in (ada, bob):
        page.wait_for_selector('.table-screen[data-status="active"]')
    match = api(ada, play_server.url, f"/matches/{match_id}/")
    assert [s["user"]["name"] for s in match["seats"]] == ["Ada", "Bob"]
    assert match["time_control"] == "live" and match["decision_seconds"] == 4

    # Whoever must act first waits: the countdown runs on their page, then the bot decides.
    first = api(ada, play_server.url, f"/matches/{match_id}/")["to_act"][0]
    sleeper = (ada, bob)[first]
    sleeper.wait_for_selector(".turn .countdown")
    for page in (ada, bob):
        page.wait_for_selector(".log li.by-bot [data-by-bot]", timeout=15_000)
    events = api(ada, play_server.url, f"/matches/{match_id}/events/?after=0")["events"]
    assert any(e.get("by_bot") and e.get("seat", first) == first for e in events)

    rng = random.Random(7)
    start = time.monotonic()
    while not all(page.locator("#end-screen").count() for page in (ada, bob)):
        assert time.monotonic() - start < 240, "the live match did not end"
        moved = False
        for page in (ada, bob):
            try:
                moved = take_turn(page, rng) or moved
            except PlaywrightError as error:
                if "the page showed" in str(error):
                    raise
        if not moved:
            ada.wait_for_timeout(25)
    for page in (ada, bob):
        check_end_screen(page, play_server.url, match_id)
    stats = api(bob, play_server.url, f"/matches/{match_id}/stats/")
    assert any(seat["bot_stats"] for seat in stats["seats"]), stats  # the takeover counted apart
    # The replay labels the decision the bot took, at its step.
    bob.click("#open-replay")
    bob.wait_for_selector('#replay-table[data-step="0"]')
    record = api(bob, play_server.url, f"/matches/{match_id}/replay/")
    taken = [s["n"] for s in record["steps"] if s.get("by_bot")]
    assert taken
    for n in (taken[0] - 1, taken[0]):
        bob.eval_on_selector(
            "#replay-slider",
            "(el, n) => { el.value = n; el.dispatchEvent(new Event('input')); }",
            n,
        )
        bob.wait_for_selector(f'#replay-table[data-step="{n}"]')
        assert (bob.locator("#replay-at [data-by-bot]").count() == 1) is (n in taken), n
    assert "the bot played for them" in bob.text_content(".replay-action")
    seat = record["steps"][taken[0] - 1]["seat"]
    tags = bob.locator(f'#replay-table .seat[data-seat="{seat}"] .tag', has_text="acted (bot)")
    assert tags.count() == 1
