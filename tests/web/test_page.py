"""The /play/ page itself: served by the project, plain ES modules from this server, nothing
from a CDN, and the server reached through the public API only (no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
SOURCES = [*sorted((WEB / "static").rglob("*.*")), *sorted((WEB / "templates").rglob("*.html"))]


@pytest.mark.django_db
def test_play_is_one_html_page_that_loads_the_app_module(client):
    response = client.get("/play/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert re.search(r'<script type="module" src="/static/web/app\.js"', html)
    assert client.post("/play/").status_code == 405


def test_nothing_is_loaded_from_outside_the_server():
    assert SOURCES
    for path in SOURCES:
        text = path.read_text()
        assert not re.search(r"https?://", text), f"{path} names an outside address"
        assert "//cdn" not in text


def test_the_client_reaches_the_server_only_through_the_public_api():
    calls = {
        path.name: re.findall(r"fetch\((`[^`]*`|[^,)]*)", path.read_text())
        for path in SOURCES
        if path.suffix == ".js"
    }
    assert {name: found for name, found in calls.items() if found} == {"api.js": ["`/api${path}`"]}
