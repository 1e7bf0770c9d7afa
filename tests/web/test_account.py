"""Accounts at /play/: a guest keeps their account by upgrading it, logs out and back in, and
"My turns" lists the match waiting for them."""

from __future__ import annotations

import pytest

from .driver import api, create_match, sign_in

pytest.importorskip("playwright")


@pytest.mark.slow  # a whole browser session: CI runs it, the quick loop does not
def test_a_guest_upgrades_logs_in_again_and_finds_the_waiting_match_in_my_turns(
    new_page, play_server
):
    page = new_page()
    sign_in(page, "Noor")
    match_id = create_match(page, "skull", seats=3)  # everyone places at once: Noor must act
    page.wait_for_selector(".turn form.action")
    page.goto("/play/#/")
    page.wait_for_selector("#upgrade-form")
    page.fill("#up-user", "noor")
    page.fill("#up-pass", "a long password 4 noor")
    page.click("#upgrade-form button[type=submit]")
    page.wait_for_selector("#upgrade-form", state="detached")
    assert page.locator("#who .tag").count() == 0  # no longer marked as a guest
    me = api(page, play_server.url, "/me/")
    assert (me["username"], me["display_name"], me["is_guest"]) == ("noor", "Noor", False)

    page.click("#who button")  # log out
    page.wait_for_selector("#login-form")
    page.fill("#login-user", "noor")
    page.fill("#login-pass", "a long password 4 noor")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#my-turns li a")
    links = page.eval_on_selector_all("#my-turns li a", "links => links.map(a => a.hash)")
    assert links == [f"#/match/{match_id}"]
    page.click("#my-turns li a")
    page.wait_for_selector(".turn form.action")
    assert api(page, play_server.url, "/me/")["id"] == me["id"]
