"""The "New match" form at /play/: the seats it offers follow the game's options, the table is
created as the form shows it (you, the bots, then the places left for friends), errors name
the form's fields, and the rules panel shows the rules of the variant chosen."""

from __future__ import annotations

import pytest

from .driver import api, create_match, sign_in

pytest.importorskip("playwright")


def seat_bounds(page) -> tuple[int, int, int, int]:
    low, high, step, value = page.eval_on_selector(
        "#nm-seats", "el => [+el.min, +el.max, +el.step, +el.value]"
    )
    return low, high, step, value


@pytest.mark.slow  # a browser session: CI runs it, the quick loop does not
def test_the_form_offers_the_seats_the_options_allow_and_keeps_the_layout(new_page, play_server):
    page = new_page(390, 844, refusals=(422,))  # the refusal asked for at the end
    sign_in(page, "Ada")
    page.select_option("#nm-game", "skull")
    assert seat_bounds(page)[:2] == (3, 6)
    hidden = ["#nm-friends", "#nm-seconds", "#nm-hours", "#nm-visibility"]
    assert not any(page.is_visible(f) for f in hidden)  # solo: bots only, no clock
    page.fill("#nm-seats", "9")
    page.dispatch_event("#nm-seats", "change")
    assert seat_bounds(page)[3] == 6  # 7 to 12 only with two sets
    page.set_checked("#nm-opt-two_sets", True)
    assert seat_bounds(page)[:2] == (7, 12) and seat_bounds(page)[3] == 7
    page.set_checked("#nm-opt-two_tribes", True)
    assert seat_bounds(page) == (8, 12, 2, 8)  # an even number of seats
    page.click("#form-rules summary")
    rules = page.text_content("#form-rules")
    assert "Two sets" in rules and "Two tribes" in rules
    page.set_checked("#nm-opt-two_sets", False)
    page.set_checked("#nm-opt-two_tribes", False)
    rules = page.text_content("#form-rules")
    assert "Two sets" not in rules and "three flowers and one skull" in rules

    # A live table: two bots next to you, then two places for friends, as the form says.
    match_id = create_match(
        page, "fabfib", seats=5, mode="live", bots=["strong", "basic", "", ""], seconds=30
    )
    match = api(page, play_server.url, f"/matches/{match_id}/")
    seated = [(s["user"] or {}).get("name") or s["bot_level"] or "open" for s in match["seats"]]
    assert seated == ["Ada", "strong", "basic", "open", "open"]
    assert match["decision_seconds"] == 30
    page.goto("/play/#/")
    page.wait_for_selector("#new-match")
    page.select_option("#nm-game", "fabfib")
    page.select_option("#nm-mode", "live")
    page.fill("#nm-seats", "5")
    page.dispatch_event("#nm-seats", "change")
    page.fill("#nm-friends", "2")
    page.dispatch_event("#nm-friends", "change")
    page.select_option("#nm-bot-1", "strong")
    assert page.is_visible("#nm-seconds") and not page.is_visible("#nm-hours")
    order = page.text_content("#nm-order")
    assert "you, a strong bot, a basic bot, a friend, a friend" in order

    # The server's refusal in the form's words, not the API's field names.
    page.fill("#nm-seconds", "700")
    page.click("#nm-create")
    page.wait_for_selector("#new-match .error:not([hidden])")
    error = page.text_content("#new-match .error")
    assert "seconds per decision" in error and "decision_seconds" not in error, error


@pytest.mark.slow
def test_a_match_shows_the_rules_of_its_variant(new_page):
    page = new_page()
    sign_in(page, "Ada")
    create_match(page, "fibber", seats=3, options={"variant": "easy"}, bots=["basic", "basic"])
    page.click("#match-rules summary")
    rules = page.text_content("#match-rules")
    assert "Easy rules" in rules and "Standard rules" not in rules
    assert "24 cards" in rules
