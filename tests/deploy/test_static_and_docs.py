"""Static files and the API docs work under the production settings, offline.

The admin's styles and the Swagger UI / ReDoc assets come from installed packages, collected
by ``collectstatic`` and served by WhiteNoise with ``DEBUG`` off; no page refers to a CDN."""

from __future__ import annotations

import json
import re

import pytest

from .helpers import real_secret_key, run


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> dict:
    static_root = tmp_path_factory.mktemp("static")
    done = run(
        ["-m", "tests.deploy.production_probe", str(static_root)],
        DJANGO_SETTINGS_MODULE="fibserver.settings.production",
        SECRET_KEY=real_secret_key(),
        ALLOWED_HOSTS="testserver",
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow  # uses the production probe (collectstatic and a start-up)
def test_the_admin_is_styled_with_debug_off(probe):
    assert probe["debug"] is False
    css = probe["assets"]["/static/admin/css/base.css"]
    assert css["status"] == 200 and css["type"].startswith("text/css") and css["size"] > 1000
    login = probe["pages"]["/admin/login/"]
    assert login["status"] == 200
    assert any(ref.startswith("/static/admin/css/base.") for ref in login["refs"])


@pytest.mark.slow  # uses the production probe (collectstatic and a start-up)
@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_use_only_local_assets_and_they_are_served(probe, page):
    answer = probe["pages"][page]
    assert answer["status"] == 200 and answer["type"].startswith("text/html")
    assert not re.search(r"https?://|(?:src|href)=\"//", answer["text"]), answer["text"]
    scripts = [ref for ref in answer["refs"] if ref.endswith(".js")]
    assert scripts, answer["refs"]
    for ref in answer["refs"]:
        assert probe["assets"][ref]["status"] == 200, (ref, probe["assets"][ref])
        assert probe["assets"][ref]["size"] > 0


@pytest.mark.slow  # uses the production probe (collectstatic and a start-up)
def test_swagger_ui_loads_its_bundle_and_style(probe):
    refs = probe["pages"]["/api/docs/"]["refs"]
    assert any("swagger-ui-bundle" in ref for ref in refs)
    assert any("swagger-ui" in ref and ".css" in ref for ref in refs)


@pytest.mark.slow  # uses the production probe (collectstatic and a start-up)
def test_redoc_loads_its_bundle(probe):
    assert any("redoc.standalone" in ref for ref in probe["pages"]["/api/redoc/"]["refs"])


@pytest.mark.parametrize(
    "accept", ["text/html", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
)
def test_the_schema_answers_a_browser(client, accept):
    response = client.get("/api/schema/", HTTP_ACCEPT=accept)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.startswith(b"openapi: ")


@pytest.mark.parametrize(
    ("accept", "kind"),
    [
        ("application/vnd.oai.openapi", "application/vnd.oai.openapi"),
        ("application/json", "application/json"),
        ("*/*", "application/vnd.oai.openapi"),
    ],
)
def test_the_schema_still_negotiates_yaml_and_json(client, accept, kind):
    response = client.get("/api/schema/", HTTP_ACCEPT=accept)
    assert response.status_code == 200 and response["Content-Type"].startswith(kind)


def test_a_process_builds_and_renders_the_schema_once(client, monkeypatch):
    """The schema depends on the code only: generated once, each format rendered once, and
    every later answer is the same bytes with the same headers."""
    from api import docs

    monkeypatch.setattr(docs.SchemaView, "_built", {})
    monkeypatch.setattr(docs, "_RENDERED", {})
    built = []
    generate = docs.SchemaView.generator_class.get_schema
    monkeypatch.setattr(
        docs.SchemaView.generator_class,
        "get_schema",
        lambda self, **kw: built.append(1) or generate(self, **kw),
    )
    answers = [
        client.get("/api/schema/", HTTP_ACCEPT=accept)
        for accept in ["text/html", "application/json", "text/html", "application/json"]
    ]
    assert len(built) == 1 and len(docs._RENDERED) == 2
    assert [a.status_code for a in answers] == [200] * 4
    assert answers[0].content == answers[2].content != answers[1].content == answers[3].content
    assert answers[2]["Content-Type"].startswith("text/plain")
    assert answers[3]["Content-Type"].startswith("application/json")
    assert json.loads(answers[3].content)["openapi"].startswith("3.")


@pytest.mark.slow  # uses the production probe (collectstatic and a start-up)
def test_the_api_renders_json_only_in_production(probe):
    """No browsable HTML API in production: a browser asking for HTML gets JSON too."""
    assert probe["renderers"] == ["api.rest.renderers.OrjsonRenderer"]  # JSON, via orjson
