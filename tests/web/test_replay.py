"""The replay viewer at the end of a match: the revealed seed checked against the commitment
in the browser, then every step of the record in order, from the keyboard."""

from __future__ import annotations

import random

import pytest

from .driver import api, check_end_screen, create_match, play_to_end, sign_in

pytest.importorskip("playwright")


@pytest.mark.slow  # a browser session: CI runs it, the quick loop does not
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
        action = page.locator(".replay-action strong")
        assert action.get_attribute("data-action-type") == step["action"]["type"]
        # Every private part of the step is shown, in words: the hidden record is public now.
        parts = sum(len(event["private"]) for event in step["events"])
        assert page.locator(".replay-events [data-private-part]").count() == parts, n
        assert ":2" not in page.text_content(".replay-events")
    page.keyboard.press("ArrowRight")  # already at the last step: stays there
    assert page.text_content("#replay-at").startswith(f"Step {total} of {total}")
    page.click("#replay-first")
    assert page.text_content("#replay-at").startswith("Set-up")
    assert page.locator("#replay-slider").input_value() == "0"


# --- The table at each step, re-run by the engine -------------------------------------------

#: What a seat's hand shows (the ``data-face`` of each piece in its ``.hand``, in order), from
#: the API's private view of that seat: cards, dice under the cup, discs in hand.
HAND_FACES = {
    "fabfib": lambda p: [f"{c['digit']}:{c['skulls']}" for c in p["hand"] or []],
    "fibber": lambda p: list(p["hand"]),
    "fibbers_dice": lambda p: [str(d) for d in (p["roll"] or {"dice": []})["dice"]],
    "skull": lambda p: list(p["hand"]),
}
HAND = {"fabfib": ".hand", "fibber": ".hand", "fibbers_dice": ".dice", "skull": ".hand"}


def shown_faces(page, section: str, game: str) -> list[str]:
    faces: list[str] = page.eval_on_selector_all(
        f"{section} {HAND[game]} [data-face]", "els => els.map(e => e.dataset.face)"
    )
    return faces


def check_step(page, base: str, match_id: str, game: str, n: int) -> dict:
    """The page shows step ``n`` as the API's re-run has it: every seat's hand, whose turn it
    was, the re-run matched; then through seat 0's eyes, seat 0's hand and no other."""
    page.select_option("#replay-seat", "all")
    page.wait_for_selector(f'#replay-table[data-step="{n}"][data-looking="all"]')
    point = api(page, base, f"/matches/{match_id}/replay/steps/{n}/")
    assert page.get_attribute("#rerun-check", "data-matched") == "true"
    seats = point["view"]["seats"]
    assert page.locator("#replay-table .replay-hand").count() == seats
    for seat in range(seats):
        section = f'#replay-table .replay-hand[data-seat="{seat}"]'
        assert shown_faces(page, section, game) == HAND_FACES[game](point["private"][seat]), (
            n,
            seat,
        )
    to_act = page.eval_on_selector_all(
        "#replay-table .seat.to-act", "els => els.map(e => +e.dataset.seat)"
    )
    assert to_act == sorted(point["view"]["to_act"]), n
    page.select_option("#replay-seat", "0")
    page.wait_for_selector(f'#replay-table[data-step="{n}"][data-looking="0"]')
    assert page.locator("#replay-table [data-private]").count() == 1
    assert shown_faces(page, "#replay-table [data-private]", game) == HAND_FACES[game](
        point["private"][0]
    )
    owners = page.eval_on_selector_all(
        "#replay-table [data-private] [data-owner]", "els => els.map(e => e.dataset.owner)"
    )
    assert set(owners) <= {"0"}, owners
    return point


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "seats", "options", "bots"),
    [
        ("fabfib", 3, {"life": 2}, ["basic", "random"]),
        ("skull", 3, {}, ["random", "random"]),
    ],
)
def test_each_step_draws_the_table_the_engine_re_ran(
    new_page, play_server, game, seats, options, bots
):
    page = new_page(360, 800)  # a phone
    sign_in(page, "Ada")
    match_id = create_match(page, game, seats=seats, options=options, bots=bots)
    play_to_end(page, random.Random(f"replay-{game}"))
    check_end_screen(page, play_server.url, match_id)
    page.click("#open-replay")
    page.wait_for_selector('#seed-check[data-verified="true"]')
    record = api(page, play_server.url, f"/matches/{match_id}/replay/")
    last = len(record["steps"])
    check_step(page, play_server.url, match_id, game, 0)
    for n in (1, 2, 3):  # stepping on, one by one
        page.click("#replay-next")
        point = check_step(page, play_server.url, match_id, game, n)
        assert (
            page.get_attribute(".replay-action strong", "data-action-type")
            == record["steps"][n - 1]["action"]["type"]
        )
        assert point["step"]["action"] == record["steps"][n - 1]["action"]
    middle = last // 2
    page.eval_on_selector(
        "#replay-slider",
        "(el, n) => { el.value = n; el.dispatchEvent(new Event('input')); }",
        middle,
    )
    check_step(page, play_server.url, match_id, game, middle)
    page.focus("#replay-prev")
    page.keyboard.press("End")
    end = check_step(page, play_server.url, match_id, game, last)
    assert end["view"]["over"] and page.text_content("#replay-next-up").strip() == (
        "The match is over."
    )
    page.focus("#replay-prev")  # the keys step from the buttons (the select takes its own)
    page.keyboard.press("ArrowLeft")
    check_step(page, play_server.url, match_id, game, last - 1)
    page.focus("#replay-prev")
    page.keyboard.press("Home")
    check_step(page, play_server.url, match_id, game, 0)
    assert page.eval_on_selector("body", "b => b.scrollWidth") <= 360  # no sideways scrolling
