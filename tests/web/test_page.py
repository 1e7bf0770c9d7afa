"""The /play/ page itself: served by the project, plain ES modules from this server, nothing
from a CDN, and the server reached through the public API only (no browser needed)."""

from __future__ import annotations

import gzip
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


@pytest.mark.slow  # a real server (scripts/serve's): CI runs it, the quick loop does not
def test_scripts_serve_sends_the_modules_compressed_and_cacheable(play_server):
    import urllib.request

    def get(path: str) -> tuple[dict[str, str], bytes]:
        request = urllib.request.Request(
            f"{play_server.url}{path}", headers={"Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return {k.lower(): v for k, v in response.headers.items()}, response.read()

    _, page = get("/play/")
    app = re.search(r'src="(/static/web/app\.[0-9a-f]{12}\.js)"', page.decode())
    assert app, "the page links the module by its hashed name"
    seen, todo = set(), [app.group(1)]
    while todo:  # the app and every module it imports, at hashed names
        path = todo.pop()
        seen.add(path)
        headers, body = get(path)
        assert headers.get("content-encoding") == "gzip", path
        assert "immutable" in headers["cache-control"], (path, headers["cache-control"])
        assert int(headers["cache-control"].split("max-age=")[1].split(",")[0]) >= 86400 * 365
        text = gzip.decompress(body).decode()
        base = path.rsplit("/", 1)[0]
        for name in re.findall(r'from "\./([^"]+)"', text):
            assert re.search(r"\.[0-9a-f]{12}\.js$", name), (path, name)
            if f"{base}/{name}" not in seen:
                todo.append(f"{base}/{name}")
    assert len(seen) >= 9  # app, api, dom, legal, replay, rules, four games...
