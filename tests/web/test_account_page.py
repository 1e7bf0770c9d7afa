"""The account page at /play/#/account: a registered player changes their password and stays
signed in, a player exports their data and downloads their own document, a guest and a
registered player delete their accounts, and the sessions section lists every device signed in
and signs another one out."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from .driver import api, sign_in, token

pytest.importorskip("playwright")


def call(base: str, method: str, path: str, body: Any = None, bearer: str | None = None) -> Any:
    """``method /api{path}`` with ``bearer`` (or none): (status, the JSON answer or None)."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    request = urllib.request.Request(f"{base}/api{path}", data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw else None


def register(base: str, password: str) -> str:
    """A new registered account with a unique username; returns the username."""
    username = f"acct{uuid.uuid4().hex[:10]}"
    status, _ = call(base, "POST", "/auth/register/", {"username": username, "password": password})
    assert status == 201
    return username


def log_in_on_page(page: Any, username: str, password: str) -> None:
    page.goto("/play/")
    page.fill("#login-user", username)
    page.fill("#login-pass", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#new-match")


def open_account(page: Any) -> None:
    page.click("#who #account-link")
    page.wait_for_selector("#account-export")
    assert page.evaluate("location.hash") == "#/account"


@pytest.mark.slow  # a whole browser session: CI runs it, the quick loop does not
def test_a_registered_player_changes_the_password_and_stays_signed_in(new_page, play_server):
    base = play_server.url
    old, new = "an old pass phrase 41", "a brand new pass phrase 42"
    username = register(base, old)
    page = new_page(refusals=(400,))  # the wrong tries below
    _, elsewhere = call(base, "POST", "/auth/login/", {"username": username, "password": old})
    log_in_on_page(page, username, old)
    open_account(page)
    assert page.locator("#upgrade-form").count() == 0
    before = token(page)

    # a wrong current password: said beside the field, nothing changes
    page.fill("#pw-current", "not the password")
    page.fill("#pw-new", new)
    page.click("#password-submit")
    page.wait_for_selector("#pw-current-error:not([hidden])")
    assert "current password is wrong" in page.text_content("#pw-current-error")
    assert page.get_attribute("#pw-current", "aria-invalid") == "true"
    assert page.locator("#password-form [role=alert]:not([hidden])").count() == 1
    # a new password the validators refuse: their words under the new password
    page.fill("#pw-current", old)
    page.fill("#pw-new", "123")
    page.click("#password-submit")
    page.wait_for_selector("#pw-new-error:not([hidden])")
    weak = {"current_password": old, "new_password": "123"}
    _, refused = call(base, "POST", "/me/password/", weak, before)  # what the server says to it
    words = " ".join(refused["error"]["fields"]["new_password"])
    assert page.text_content("#pw-new-error") == words
    assert page.locator("#pw-current-error:not([hidden])").count() == 0
    assert token(page) == before

    page.fill("#pw-current", old)
    page.fill("#pw-new", new)
    page.click("#password-submit")
    page.wait_for_function(
        "document.getElementById('password-status').textContent.includes('changed')"
    )
    assert token(page) == before  # this browser's session stays signed in
    shown = "#pw-new-error:not([hidden]), #password-form [role=alert]:not([hidden])"
    assert page.locator(shown).count() == 0
    assert api(page, base, "/me/")["username"] == username
    assert call(base, "GET", "/me/", bearer=elsewhere["token"])[0] == 401  # the other one is out
    page.reload()  # still signed in after a reload: the token is in localStorage
    page.wait_for_selector("#account-export")
    assert page.locator(f"#who [data-user='{api(page, base, '/me/')['id']}']").count() == 1
    # the old password no longer logs in; the new one does
    status, body = call(base, "POST", "/auth/login/", {"username": username, "password": old})
    assert (status, body["error"]["code"]) == (400, "invalid_credentials")
    assert call(base, "POST", "/auth/login/", {"username": username, "password": new})[0] == 200


@pytest.mark.slow
def test_a_player_exports_their_data_and_downloads_their_own_document(new_page, play_server):
    base = play_server.url
    page = new_page()
    sign_in(page, "Exporter")
    me = api(page, base, "/me/")
    open_account(page)
    assert page.locator("#upgrade-form").count() == 1  # a guest upgrades instead
    assert page.locator("#password-form").count() == 0
    page.click("#export-start")
    page.wait_for_selector("#export-download")
    assert page.get_attribute("#export-status", "data-status") == "done"
    assert page.get_attribute("#export-download", "href").startswith("blob:")
    with page.expect_download() as info:
        page.click("#export-download")
    download = info.value
    assert download.suggested_filename.startswith("fibserver-export-")
    document = json.loads(Path(download.path()).read_text())
    assert document["profile"]["username"] == me["username"]
    assert document["profile"]["id"] == me["id"]
    assert document["profile"]["display_name"] == "Exporter"
    # the very document the API serves for that job
    job = download.suggested_filename.removeprefix("fibserver-export-").removesuffix(".json")
    assert api(page, base, f"/me/export/{job}/download/") == document


@pytest.mark.slow
def test_a_guest_deletes_their_account_from_the_page(new_page, play_server):
    base = play_server.url
    page = new_page()
    sign_in(page, "Leaving Guest")
    old = token(page)
    open_account(page)
    assert page.locator("#delete-password").count() == 0  # a guest confirms with its token
    assert page.is_disabled("#delete-submit")
    page.fill("#delete-confirm", "delet")
    assert page.is_disabled("#delete-submit")
    assert call(base, "GET", "/me/", bearer=old)[0] == 200
    page.fill("#delete-confirm", "delete")
    page.click("#delete-submit")
    page.wait_for_selector("#guest-form")
    assert page.evaluate("location.hash") == "#/"
    assert token(page) is None
    assert page.text_content("#who").strip() == ""
    assert call(base, "GET", "/me/", bearer=old)[0] == 401


@pytest.mark.slow
def test_a_registered_player_deletes_their_account_with_their_password(new_page, play_server):
    base = play_server.url
    password = "a pass phrase to leave with 7"
    username = register(base, password)
    page = new_page(refusals=(400,))
    log_in_on_page(page, username, password)
    old = token(page)
    open_account(page)
    page.fill("#delete-confirm", "delete")
    page.fill("#delete-password", "not it")  # a wrong password: refused, nothing deleted
    page.click("#delete-submit")
    page.wait_for_selector("#delete-password-error:not([hidden])")
    assert page.locator("#delete-form [role=alert]:not([hidden])").count() == 1
    assert call(base, "GET", "/me/", bearer=old)[0] == 200
    page.fill("#delete-password", password)
    page.click("#delete-submit")
    page.wait_for_selector("#login-form")
    assert page.evaluate("location.hash") == "#/"
    assert token(page) is None
    assert call(base, "GET", "/me/", bearer=old)[0] == 401
    status, body = call(base, "POST", "/auth/login/", {"username": username, "password": password})
    assert (status, body["error"]["code"]) == (400, "invalid_credentials")


@pytest.mark.slow
def test_the_sessions_list_shows_every_device_and_signs_another_one_out(new_page, play_server):
    base = play_server.url
    password = "a pass phrase for sessions 7"
    username = register(base, password)
    body = {"username": username, "password": password, "device": "Old phone"}
    status, phone = call(base, "POST", "/auth/login/", body)
    assert status == 200
    page = new_page()
    log_in_on_page(page, username, password)
    open_account(page)
    page.wait_for_selector("#account-sessions:not([hidden]) li[data-session]")
    listed = api(page, base, "/me/sessions/")["results"]
    assert len(listed) == 3  # the registration, the phone, this browser
    assert page.locator("#sessions-list li[data-session]").count() == 3
    mine = next(s for s in listed if s["current"])
    current = page.locator(f"li[data-session='{mine['id']}']")
    assert "this device" in current.text_content()
    assert mine["client_address"] in current.text_content()
    assert current.locator("button").count() == 0  # this device signs out with "Log out"
    other = next(s for s in listed if s["label"] == "Old phone")
    row = page.locator(f"li[data-session='{other['id']}']")
    assert "this device" not in row.text_content()
    assert call(base, "GET", "/me/", bearer=phone["token"])[0] == 200
    row.get_by_role("button", name="Sign out Old phone").click()
    page.wait_for_selector(f"li[data-session='{other['id']}']", state="detached")
    assert call(base, "GET", "/me/", bearer=phone["token"])[0] == 401
    assert [s["id"] for s in api(page, base, "/me/sessions/")["results"]].count(other["id"]) == 0
    assert page.locator(f"li[data-session='{mine['id']}']").count() == 1
