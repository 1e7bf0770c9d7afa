"""Quick play, challenges and rematch on /play/: two players press "Play now" for the same game
and both pages open the table the matcher started; a player can cancel while waiting; a
challenge received is accepted from the lobby; after a solo match the rematch starts at once
(the only human accepted) and opens."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest

from web.browser import api, create_match, play_to_end, sign_in, token

pytest.importorskip("playwright")


@pytest.mark.slow  # a whole browser session: CI runs it, the quick loop does not
def test_play_now_queues_shows_the_wait_cancels_and_seats_two_players(new_page, play_server):
    ada, bob = new_page(), new_page()
    sign_in(ada, "Ada")
    ada.click('#quick-play button[data-game="fibbers_dice"]')
    ada.wait_for_selector("#queue-cancel")
    assert "Looking for a" in ada.text_content("#queue-status")
    ada.click("#queue-cancel")
    ada.wait_for_function("!document.querySelector('#queue-cancel')")
    (ticket,) = api(ada, play_server.url, "/queue/")["tickets"]
    assert ticket["status"] == "cancelled"
    ada.click('#quick-play button[data-game="fibbers_dice"]')
    ada.wait_for_selector("#queue-cancel")
    sign_in(bob, "Bob")
    bob.click('#quick-play button[data-game="fibbers_dice"]')
    for page in (ada, bob):
        page.wait_for_selector('.table-screen[data-status="active"]')
    assert ada.evaluate("location.hash") == bob.evaluate("location.hash")
    match = api(
        ada, play_server.url, ada.evaluate("location.hash").replace("#/match", "/matches") + "/"
    )
    assert sorted((s["user"] or {}).get("name") for s in match["seats"]) == ["Ada", "Bob"]


@pytest.mark.slow
def test_a_rematch_after_a_solo_match_starts_and_opens(new_page, play_server):
    page = new_page()
    sign_in(page, "Ada")
    match_id = create_match(page, "fibbers_dice", seats=2, bots=["basic"])
    play_to_end(page, random.Random("rematch"))
    page.wait_for_selector("#rematch-offer")
    page.click("#rematch-offer")
    page.click("#rematch-open")
    page.wait_for_selector('.table-screen[data-status="active"]')
    new_id = page.evaluate("location.hash").removeprefix("#/match/")
    assert new_id != match_id
    rematch = api(page, play_server.url, f"/matches/{match_id}/rematch/")
    assert rematch["status"] == "started" and rematch["match"] == new_id


@pytest.mark.slow
def test_a_challenge_received_is_accepted_from_the_lobby_and_opens_the_match(new_page, play_server):
    ada, bob = new_page(), new_page()
    sign_in(bob, "Bob")
    sign_in(ada, "Ada")
    bob_id = api(bob, play_server.url, "/me/")["id"]
    request = urllib.request.Request(
        f"{play_server.url}/api/challenges/",
        data=json.dumps({"players": [bob_id], "game": "fibbers_dice"}).encode(),
        headers={"Authorization": f"Bearer {token(ada)}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as answer:
        challenge = json.loads(answer.read())
    bob.reload()
    bob.wait_for_selector(f'#challenges li[data-challenge="{challenge["id"]}"] .challenge-accept')
    bob.click(f'#challenges li[data-challenge="{challenge["id"]}"] .challenge-accept')
    bob.wait_for_selector('.table-screen[data-status="active"]')
    started = api(bob, play_server.url, f"/challenges/{challenge['id']}/")
    assert started["status"] == "started"
    assert bob.evaluate("location.hash") == f"#/match/{started['match']}"
