"""The inbox in the header of /play/: the unread badge, the panel of notifications, a switch per
channel, marking all read, and the service worker that shows pushed notifications (served from
this server; subscribing needs a real push service, so that path is tested end to end in
Python: tests/notifications/test_web_push.py)."""

from __future__ import annotations

import time

import pytest

from .driver import api, create_match, sign_in

pytest.importorskip("playwright")


def _until(check, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.1)


@pytest.mark.slow  # a whole browser session: CI runs it, the quick loop does not
def test_the_badge_the_panel_the_channel_switches_and_mark_all_read(new_page, play_server):
    page = new_page()
    sign_in(page, "Ines")
    match_id = create_match(page, "fibber", seats=2, bots=["random"])
    page.goto("/play/#/")
    page.wait_for_selector("#inbox-unread:not([hidden])")

    def badge_agrees():  # the bot may still be moving: a reload shows the count of the moment
        unread = api(page, play_server.url, "/me/notifications/")["unread"]
        if unread >= 1 and page.text_content("#inbox-unread") == str(unread):
            return True
        page.reload()
        page.wait_for_selector("#inbox-unread:not([hidden])")
        return False

    assert _until(badge_agrees)

    page.click("#inbox-button")
    page.wait_for_selector("#inbox-panel:not([hidden]) .inbox-list li")
    links = page.eval_on_selector_all("#inbox-panel li a", "as => as.map(a => a.hash)")
    assert f"#/match/{match_id}" in links
    assert "Your match has started" in page.text_content("#inbox-panel")
    assert page.get_attribute("#inbox-button", "aria-expanded") == "true"

    assert page.is_checked("#channel-web_push")
    page.uncheck("#channel-web_push")

    def web_push_off():
        prefs = api(page, play_server.url, "/me/notification-preferences/")["channels"]
        return not any(prefs["web_push"].values()) and all(prefs["email"].values())

    assert _until(web_push_off)

    page.click("#inbox-read-all")
    page.wait_for_selector("#inbox-unread", state="hidden")
    assert api(page, play_server.url, "/me/notifications/")["unread"] == 0
    # the badge hides at once; the list redraws after its own fetch
    page.wait_for_function("() => !document.querySelector('#inbox-panel li.unread')")
    assert page.is_visible("#push-enable")


@pytest.mark.slow
def test_the_service_worker_is_served_from_this_origin_and_registers(new_page, play_server):
    page = new_page()
    sign_in(page, "Omar")
    scope = page.evaluate(
        """async () => {
            const r = await navigator.serviceWorker.register('/static/web/push-sw.js');
            return r.scope;
        }"""
    )
    assert scope == f"{play_server.url}/static/web/"
    response = page.request.get("/static/web/push-sw.js")
    assert response.ok and "javascript" in response.headers["content-type"]
    assert "showNotification" in response.text()
