"""Each game at /play/: a guest creates a solo match against bots with the page's form, plays it
to the end by clicking only what the page offers, and the end screen shows the API's
placements and bluff statistics."""

from __future__ import annotations

import random
import time

import pytest

from .driver import check_end_screen, create_match, play_to_end, sign_in

pytest.importorskip("playwright")

SOLO = [
    pytest.param(
        "fabfib", 3, {"life": 4}, ["basic", "random"], id="fabfib", marks=pytest.mark.slow
    ),
    pytest.param(
        "fibber",
        2,
        {"variant": "standard", "max_plays": 50},
        ["basic"],
        id="fibber",
        marks=pytest.mark.slow,
    ),
    pytest.param(
        "fibbers_dice",
        3,
        {"points": 2},
        ["strong", "random"],
        id="fibbers_dice",
        marks=pytest.mark.slow,
    ),
    pytest.param("skull", 3, {}, ["basic", "random"], id="skull", marks=pytest.mark.slow),
]
# The variants: Fibber's easy rules, Skull's two tribes (one person plays two seats; the page
# switches to the seat that must act) and two sets (7 to 12 seats).
VARIANTS = [
    pytest.param("fibber", 3, {"variant": "easy"}, ["basic", "random"], id="fibber-easy"),
    pytest.param("skull", 4, {"two_tribes": True}, ["basic"], id="skull-two-tribes"),
    pytest.param("skull", 7, {"two_sets": True}, ["random"] * 6, id="skull-two-sets"),
]


@pytest.mark.parametrize(
    ("game", "seats", "options", "bots"),
    [*SOLO, *(pytest.param(*p.values, id=p.id, marks=pytest.mark.slow) for p in VARIANTS)],
)
def test_a_guest_plays_a_solo_match_to_the_end_by_clicking(
    new_page, play_server, game, seats, options, bots
):
    page = new_page()
    sign_in(page, "Ada")
    match_id = create_match(page, game, seats=seats, options=options, bots=bots)
    started = time.monotonic()
    moves = play_to_end(page, random.Random(f"{game}-1"))
    match = check_end_screen(page, play_server.url, match_id)
    assert moves > 0
    assert match["options"] == {**match["options"], **options}
    mine = set(match["you"]["seats"])
    levels = [s["bot_level"] for s in match["seats"] if s["position"] not in mine]
    if options.get("two_tribes"):  # person i plays seats i and i + n/2
        levels = levels[: len(levels) // 2]
    assert levels == bots
    print(f"{game}: {moves} moves in {time.monotonic() - started:.1f}s")
