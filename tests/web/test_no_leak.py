"""The page never holds another seat's hidden information. Two people and a bot play Fab Fib
(hands passed face down, a memory of passed cards); after every move, each page's DOM is
compared with that seat's API view and with the other person's private state:

- the faces in the page's private zone are exactly the seat's own private cards (hand, memory),
  and those on the controls of its move (cards to exchange) are cards of its own hand;
- every other face on the page is one the public view shows (a call's revealed cards);
- no face is shown as the other person's unless the public view shows it as theirs;
- the page's requests carry only its own token, and it asks for no replay or statistics
  before the match is over."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from .driver import api, check_end_screen, create_match, sign_in, take_turn, token

pytest.importorskip("playwright")
from playwright.sync_api import Error as PlaywrightError


def faces(cards: list[dict[str, int]] | None) -> Counter[str]:
    return Counter(f"{c['digit']}:{c['skulls']}" for c in cards or [])


def public_faces(public: dict[str, Any]) -> Counter[str]:
    reveal = public.get("last_reveal")
    return faces(reveal["cards"] if reveal else None)


def private_faces(private: dict[str, Any] | None) -> Counter[str]:
    if not private:
        return Counter()
    memory = private.get("memory")
    return faces(private.get("hand")) + faces(memory["cards"] if memory else None)


def dom_faces(page: Any) -> tuple[Counter[str], Counter[str], Counter[str], str]:
    """(faces in the private zone, faces on the controls of the seat's move, faces elsewhere,
    the page's whole HTML) at one moment."""
    inside, controls, outside, html = page.evaluate(
        """() => {
            const zone = [...document.querySelectorAll('.table-screen [data-private] [data-face]')];
            const turn = [...document.querySelectorAll('.table-screen .turn [data-face]')];
            const all = [...document.querySelectorAll('.table-screen [data-face]')];
            return [zone.map(e => e.dataset.face), turn.map(e => e.dataset.face),
                    all.filter(e => !zone.includes(e) && !turn.includes(e))
                       .map(e => e.dataset.face),
                    document.documentElement.outerHTML];
        }"""
    )
    return Counter(inside), Counter(controls), Counter(outside), html


def settled_view(page: Any, base: str, match_id: str) -> dict[str, Any] | None:
    """The seat's API view, when the page shows that same version (else None: look later)."""
    shown = page.get_attribute(".table-screen", "data-version")
    view = api(page, base, f"/matches/{match_id}/")
    if shown is None or int(shown) != view["version"]:
        return None
    return view


@pytest.mark.slow  # a whole match in two browser sessions
def test_the_page_holds_no_hidden_information_of_another_seat(new_page, play_server):
    ada, bob = new_page(), new_page()
    sign_in(ada, "Ada")
    sign_in(bob, "Bob")
    requests: dict[str, list[tuple[str, str]]] = {"ada": [], "bob": []}
    for who, page in (("ada", ada), ("bob", bob)):
        page.on(
            "request",
            lambda r, who=who: (
                requests[who].append((r.url, r.headers.get("authorization", "")))
                if "/api/" in r.url
                else None
            ),
        )
    match_id = create_match(
        ada,
        "fabfib",
        seats=3,
        options={"life": 6},
        mode="async",
        bots=["basic", ""],
        seconds=3600,
        visibility="private",
    )
    ada.wait_for_selector("#invite-code")
    bob.goto(f"/play/#/join/{ada.text_content('#invite-code')}")
    pages = {"ada": ada, "bob": bob}
    tokens = {who: token(page) for who, page in pages.items()}
    rng = random.Random(3)
    checked = 0
    start = last_seen = time.monotonic()
    while not all(p.locator("#end-screen").count() for p in pages.values()):
        assert time.monotonic() - start < 240, f"the match did not end ({checked} checks)"
        checked_before = checked
        for who, page in pages.items():
            other = "bob" if who == "ada" else "ada"
            view = settled_view(page, play_server.url, match_id)
            if view is None or view["status"] != "active":
                continue
            other_view = api(pages[other], play_server.url, f"/matches/{match_id}/")
            if other_view["version"] != view["version"]:
                continue
            inside, controls, outside, html = dom_faces(page)
            if int(page.get_attribute(".table-screen", "data-version")) != view["version"]:
                continue  # redrawn meanwhile
            public = view["view"]["public"]
            mine = private_faces(view["view"]["private"])
            assert inside == mine, (who, inside, mine)
            assert not controls - faces(view["view"]["private"]["hand"]), (who, controls)
            assert not outside - public_faces(public), (who, outside, public.get("last_reveal"))
            # The other person's cards are on this page only where the public view shows them
            # as theirs (a call reveals the claimant's cards, a 1000 the holder's).
            other_seat = other_view["view"]["seat"]
            reveal = public.get("last_reveal") or {}
            owner = reveal.get("claimant", reveal.get("seat"))
            theirs_shown = Counter(
                page.eval_on_selector_all(
                    f'.table-screen [data-face][data-owner="{other_seat}"]',
                    "els => els.map(e => e.dataset.face)",
                )
            )
            allowed = public_faces(public) if owner == other_seat else Counter()
            assert not theirs_shown - allowed, (who, theirs_shown, reveal)
            assert tokens[other] not in html
            if view["view"]["private"]["memory"]:  # the memory, marked as possibly changed
                assert "may have changed" in page.text_content("[data-private] [data-memory]")
            checked += 1
        if checked > checked_before:
            last_seen = time.monotonic()
        elif time.monotonic() - last_seen < 3:
            # Nobody moves before a page has settled on the version it shows, so on a slow
            # machine too most moments of the match are compared, not only the quiet ones.
            ada.wait_for_timeout(50)
            continue
        moved = False
        for page in pages.values():
            try:
                moved = take_turn(page, rng) or moved
            except PlaywrightError as error:
                if "the page showed" in str(error):
                    raise
        if not moved:
            ada.wait_for_timeout(25)
    assert checked >= 6, f"only {checked} settled moments were compared"
    for who, page in pages.items():
        check_end_screen(page, play_server.url, match_id)
        seen = requests[who]
        assert seen and all(auth == f"Bearer {tokens[who]}" for _, auth in seen), who
        first_late = next(i for i, (url, _) in enumerate(seen) if "/stats/" in url)
        assert not any("/replay/" in url for url, _ in seen[:first_late])
