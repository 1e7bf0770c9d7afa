"""A table gathered in the lobby of /play/: a friend joins from "Open tables", the creator adds a
bot and starts with the seats filled so far; both pages switch to the table on their own."""

from __future__ import annotations

import pytest

from .driver import api, create_match, sign_in

pytest.importorskip("playwright")


@pytest.mark.slow  # a whole browser session: CI runs it, the quick loop does not
def test_a_friend_joins_from_open_tables_a_bot_is_added_and_the_creator_starts(
    new_page, play_server
):
    ada, bob = new_page(), new_page()
    sign_in(ada, "Ada")
    match_id = create_match(
        ada, "fabfib", seats=5, mode="async", bots=["basic", "", "", ""], visibility="public"
    )
    ada.wait_for_selector(".lobby")
    sign_in(bob, "Bob")
    bob.wait_for_selector("#open-matches li button")
    bob.click("#open-matches li button")
    bob.wait_for_selector('.table-screen[data-status="lobby"]')
    assert bob.evaluate("location.hash") == f"#/match/{match_id}"
    assert bob.locator("#start-now").count() == 0  # only the creator starts
    ada.wait_for_function("document.querySelector('.lobby h2').textContent.includes('3/5')")
    ada.select_option("#add-bot-level", "strong")
    ada.click("#add-bot")
    ada.wait_for_function("document.querySelector('.lobby h2').textContent.includes('4/5')")
    ada.click("#start-now")
    for page in (ada, bob):
        page.wait_for_selector('.table-screen[data-status="active"]')
    match = api(bob, play_server.url, f"/matches/{match_id}/")
    assert match["status"] == "active"
    seated = [(s["user"] or {}).get("name") or s["bot_level"] for s in match["seats"]]
    assert seated[:4] == ["Ada", "basic", "Bob", "strong"], seated
    assert ada.locator("ol.seats li.seat").count() == len(match["seats"])
