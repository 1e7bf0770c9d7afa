"""/play/ on a phone-sized screen and from the keyboard, and the contrast of its colours."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .driver import create_match, sign_in

STYLE = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "style.css"


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_text_colours_have_at_least_aa_contrast_on_their_backgrounds():
    colours = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-f]{6})", STYLE.read_text()))
    pairs = [
        ("ink", "bg"),
        ("ink", "panel"),
        ("muted", "bg"),
        ("muted", "panel"),
        ("accent", "panel"),
        ("accent-ink", "accent"),
        ("go", "panel"),
        ("warn", "panel"),
        ("bad", "panel"),
        ("felt-ink", "felt"),
    ]
    for text, background in pairs:
        ratio = contrast(colours[text], colours[background])
        assert ratio >= 4.5, f"--{text} on --{background}: {ratio:.2f}:1"


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width}px wide on a 360px screen"


@pytest.mark.slow  # a browser session: CI runs it, the quick loop does not
def test_the_lobby_and_a_table_fit_a_360px_screen_and_play_from_the_keyboard(new_page):
    pytest.importorskip("playwright")
    page = new_page(360, 740)
    page.goto("/play/")
    page.wait_for_selector("#guest-name")
    page.keyboard.type("Kim")  # the name field has the focus
    page.keyboard.press("Enter")
    page.wait_for_selector("#new-match")
    no_sideways_scroll(page)
    page.select_option("#nm-game", "fibbers_dice")
    for _ in range(40):  # Tab to the create button
        if page.evaluate("document.activeElement.id") == "nm-create":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "nm-create"
    page.keyboard.press("Enter")
    page.wait_for_selector('.table-screen[data-status="active"]')
    moves = 0
    while moves < 3 and not page.locator("#end-screen").count():
        # When the move is the player's, the focus is on its first control: Enter makes it.
        page.wait_for_function(
            "document.activeElement?.closest('.actions') || document.getElementById('end-screen')"
        )
        no_sideways_scroll(page)
        if page.locator("#end-screen").count():
            break
        version = page.get_attribute(".table-screen", "data-version")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => document.querySelector('.table-screen').dataset.version !== v", arg=version
        )
        moves += 1
    assert moves >= 1


@pytest.mark.slow  # a browser session: CI runs it, the quick loop does not
def test_a_table_of_every_game_fits_a_360px_screen(new_page):
    pytest.importorskip("playwright")
    page = new_page(360, 740)
    sign_in(page, "Lee")
    for game, seats in (("fabfib", 5), ("fibber", 6), ("fibbers_dice", 6), ("skull", 6)):
        page.goto("/play/#/")
        page.wait_for_selector("#new-match")
        create_match(page, game, seats=seats)
        page.wait_for_selector(".turn form.action, .turn .waiting")
        no_sideways_scroll(page)
