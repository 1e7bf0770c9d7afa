"""What becomes of a player's moves at /play/ when the table does not stand still: bots acting
at the same moment (a bot pause of 0, so the race is frequent), a person's two tribes taking
turns, the server going away and coming back, and decisions a bot takes after a deadline."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from web.browser import PlayServer

from .driver import all_events, api, check_end_screen, create_match, sign_in, take_turn

pytest.importorskip("playwright")
from playwright.sync_api import Error as PlaywrightError


@pytest.fixture(scope="module")
def instant_server(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[Any]:
    """A server whose bots act at once: a bot's move often lands between the page's last
    redraw and the player's tap."""
    server = PlayServer(tmp_path_factory.mktemp("instant"), name="instant", FIBSERVER_BOT_DELAY="0")
    try:
        yield server
    finally:
        server.stop()


def counts(page: Any) -> dict[str, int]:
    data = page.eval_on_selector(".table-screen", "el => ({...el.dataset})")
    return {k: int(data.get(k) or 0) for k in ("taps", "resent", "refused", "kept", "dropped")}


def my_moves(record: dict[str, Any], mine: set[int]) -> int:
    """The decisions of the record taken by the player's own taps (not a bot's, not a join)."""
    return sum(
        1
        for step in record["steps"]
        if step["seat"] in mine and not step.get("by_bot") and not step.get("join")
    )


def play(page: Any, rng: random.Random, base: str, match_id: str, stall: float = 60) -> None:
    """Click through the match until the end screen; whenever the API says one of the player's
    seats must act, the page comes to offer that move (a table waiting on nobody is a hang)."""
    seen, since, misses = None, time.monotonic(), 0
    while not page.locator("#end-screen").count():
        version = page.evaluate("document.querySelector('.table-screen')?.dataset.version")
        if version != seen:
            seen, since = version, time.monotonic()
        assert time.monotonic() - since < stall, f"stuck at version {seen}"
        try:
            if take_turn(page, rng):
                continue
        except PlaywrightError as error:
            if "the page showed" in str(error):
                raise
            misses += 1
            assert misses < 200, error
            continue
        view = api(page, base, f"/matches/{match_id}/")
        if view["status"] == "active" and set(view["to_act"]) & set(view["you"]["seats"]):
            page.wait_for_function(
                "document.querySelector('.turn form.action')"
                " || document.getElementById('end-screen')",
                timeout=10_000,
            )
        else:
            page.wait_for_timeout(20)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "seats", "options", "bots"),
    [
        pytest.param("skull", 7, {"two_sets": True}, ["random"] * 6, id="skull-placing"),
        pytest.param(
            "fibber", 4, {"variant": "standard", "max_plays": 50}, ["random"] * 3, id="fibber-calls"
        ),
    ],
)
def test_no_tap_is_lost_when_a_bot_acts_first(new_page, instant_server, game, seats, options, bots):
    """In Skull's placing step and Fibber's call window several seats act at once. A tap that
    arrives after a bot's move (409 stale_version) is sent again on the new version when it is
    still legal, or the page says why it was not made: every tap is one or the other."""
    page = new_page(390, 844, server=instant_server)
    stale: list[str] = []
    # Every move the page sent, for the failure's message: (status, Idempotency-Key, body).
    sent: list[tuple[int, str, str]] = []

    def answered(r: Any) -> None:
        if "/actions/" not in r.url:
            return
        key = r.request.headers.get("idempotency-key", "")
        sent.append((r.status, key, r.request.post_data or ""))
        if r.status == 409:
            stale.append(r.url)

    page.on("response", answered)
    sign_in(page, "Ada")
    match_id = create_match(page, game, seats=seats, options=options, bots=bots)
    play(page, random.Random(f"race-{game}"), instant_server.url, match_id)
    check_end_screen(page, instant_server.url, match_id)
    record = api(page, instant_server.url, f"/matches/{match_id}/replay/")
    mine = set(api(page, instant_server.url, f"/matches/{match_id}/")["you"]["seats"])
    made, n = my_moves(record, mine), counts(page)
    print(
        f"{game}: {n['taps']} taps, {len(stale)} answered 409, {n['resent']} sent again,"
        f" {n['refused']} refused with a reason, {made} made"
    )
    assert n["taps"] > 0
    mine_steps = [
        {k: v for k, v in step.items() if k in ("n", "seat", "action", "by_bot")}
        for step in record["steps"]
        if step["seat"] in mine and not step.get("join")
    ]
    assert n["taps"] == made + n["refused"], (n, made, len(stale), sent, mine_steps)
    if n["refused"]:
        assert page.locator("#move-note").count() <= 1  # one note, never a pile of them


@pytest.mark.slow
def test_two_tribes_the_page_always_turns_to_the_seat_that_must_act(new_page, instant_server):
    page = new_page(390, 844, server=instant_server)
    sign_in(page, "Ada")
    match_id = create_match(page, "skull", seats=4, options={"two_tribes": True}, bots=["basic"])
    assert api(page, instant_server.url, f"/matches/{match_id}/")["you"]["seats"] == [0, 2]
    play(page, random.Random("tribes"), instant_server.url, match_id, stall=30)
    match = check_end_screen(page, instant_server.url, match_id)
    # The end screen ranks people (by their better tribe); each seat's place is one click away.
    people = page.eval_on_selector_all(
        "#placements li", "items => items.map(li => [+li.dataset.person, +li.dataset.place])"
    )
    assert sorted(p for p, _ in people) == [0, 1]
    assert [place for _, place in people] == sorted(place for _, place in people)
    best = {p: min(match["placements"][p], match["placements"][p + 2]) for p in (0, 1)}
    assert people[0][0] == min(best, key=best.__getitem__)


@pytest.mark.slow
def test_a_server_stopped_mid_match_reconnects_and_the_tap_made_meanwhile_is_sent(
    new_page, tmp_path
):
    server = PlayServer(tmp_path, name="outage")
    try:
        page = new_page(server=server, offline_ok=True)
        sign_in(page, "Ada")
        match_id = create_match(page, "skull", seats=3, bots=["basic", "basic"])
        place = '.turn form.action[data-action="place"] button.choice[data-value=\'"flower"\']'
        page.wait_for_selector(place)
        before = api(page, server.url, f"/matches/{match_id}/")["version"]

        server.halt()
        page.wait_for_selector("#connection:not([hidden])", timeout=15_000)
        assert "Reconnecting" in page.text_content("#connection")
        page.click(place)  # a tap while the server is away: kept, not lost
        page.wait_for_selector("#connection .kept")
        assert "place a flower" in page.text_content("#connection .kept")
        body = page.text_content("body")
        assert "Failed to fetch" not in body and "NetworkError" not in body

        server.serve()
        page.wait_for_selector("#connection", state="hidden", timeout=30_000)
        events = all_events(page, server.url, match_id)
        placed = [e for e in events if e["type"] == "placed" and e["seat"] == 0]
        assert placed and not placed[0].get("by_bot") and placed[0]["version"] > before
        assert placed[0]["private"] == {"card": "flower"}
        page.wait_for_function(
            "v => +document.querySelector('.table-screen').dataset.version > v", arg=before
        )
        assert not page.locator(".table-screen .error:not([hidden])").count()
        assert counts(page)["kept"] == 1
    finally:
        server.stop()


@pytest.mark.slow
def test_takeovers_are_labelled_on_the_decision_only_and_say_when_the_player_is_away(
    new_page, play_server
):
    page = new_page()
    sign_in(page, "Ada")
    match_id = create_match(page, "skull", seats=5, mode="live", bots=["basic"] * 4, seconds=1)
    # Ada never acts: the bot decides for her when time runs out, and after three time-outs in a
    # row she is away and the bot plays for her at once.
    page.wait_for_selector('.log [data-by-bot="time"]', timeout=60_000)
    assert "time ran out" in page.text_content('.log [data-by-bot="time"]')
    page.wait_for_selector('.log [data-by-bot="away"]', timeout=120_000)
    page.wait_for_selector('.seat[data-seat="0"] .tag.warn', timeout=30_000)
    shown = page.eval_on_selector_all(
        ".log li[data-seq]",
        "items => items.map(li => [+li.dataset.seq,"
        " li.querySelector('[data-by-bot]')?.dataset.byBot || null])",
    )
    events = all_events(page, play_server.url, match_id)
    by_seq = {e["seq"]: e for e in events}
    first_of_version = {}
    for e in events:
        first_of_version.setdefault(e["version"], e["seq"])
    labels = {seq: label for seq, label in shown if label}
    assert "away" in labels.values(), shown
    for seq, label in shown:
        event = by_seq[seq]
        decision = event.get("by_bot") and first_of_version[event["version"]] == seq
        assert bool(label) == bool(decision), (event, label)  # consequences carry no label
    times = [seq for seq, label in labels.items() if label == "time"]
    aways = [seq for seq, label in labels.items() if label == "away"]
    assert not times or max(times) < min(aways)
    assert "away" in page.text_content(f'.log li[data-seq="{aways[0]}"] [data-by-bot]')
