"""Protection: over-deep, alias-heavy, cost-heavy and oversized documents are refused with a
clear error before any resolver runs; batching is off; introspection follows its setting."""

from __future__ import annotations

import orjson
import pytest
from django.test import Client

from games.reads import feeds, lists, views

from .helpers import post

pytestmark = pytest.mark.django_db


@pytest.fixture
def resolvers(monkeypatch):
    """Every selector a query resolver calls, counted: a refused document must call none."""
    calls: list[str] = []
    readers = [
        (views, "read_view"),
        (lists, "open_matches"),
        (lists, "matches_of"),
        (feeds, "read_feed"),
        (views, "read_match"),
    ]
    for module, name in readers:
        real = getattr(module, name)

        def spy(*args, _name=name, _real=real, **kwargs):
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    return calls


def refused(document: str, code: str) -> dict:
    response = post(Client(), document)
    assert response.status_code == 200
    answer = response.json()
    assert answer.get("data") is None, answer
    (error,) = answer["errors"]
    assert error["extensions"]["code"] == code, error
    return error


DEEP = "{ matches { edges { node { seats { user { name } } } } } }"  # depth 5 (root: 0)


def test_a_document_within_the_limits_runs(resolvers):
    answer = post(Client(), DEEP).json()
    assert answer == {"data": {"matches": {"edges": []}}} and resolvers == ["open_matches"]


def test_an_over_deep_query_is_refused_before_any_resolver(resolvers, settings):
    settings.GRAPHQL = {**settings.GRAPHQL, "MAX_DEPTH": 4}
    error = refused(DEEP, "query_too_complex")
    assert "exceeds maximum operation depth of 4" in error["message"]
    # Fragments count too.
    refused(
        "{ matches { ...E } } fragment E on MatchConnection { edges { node { seats { user "
        "{ name } } } } }",
        "query_too_complex",
    )
    assert resolvers == []


def test_an_alias_heavy_query_is_refused_before_any_resolver(resolvers, settings):
    limit = settings.GRAPHQL["MAX_ALIASES"]
    document = "{ " + " ".join(f"a{i}: __typename" for i in range(limit + 1)) + " }"
    error = refused(document, "query_too_complex")
    assert f"Allowed: {limit}" in error["message"]
    assert resolvers == []


def test_a_cost_heavy_query_is_refused_before_any_resolver(resolvers):
    # 100 matches x 16 seats x 10 fields: few tokens, shallow, no alias, but 16,000 values.
    seat = "position botLevel mustAct deadline away place user { id name }"
    document = f"{{ matches(first: 100) {{ edges {{ node {{ id seats {{ {seat} }} }} }} }} }}"
    error = refused(document, "query_too_complex")
    assert error["extensions"]["cost"] > error["extensions"]["max_cost"] == 10_000
    assert "at most 10000" in error["message"]
    # Aliases multiply the cost: 15 views of a match, each with its 200-event page.
    events = " ".join(
        f'e{i}: events(matchId: "x") {{ events {{ seq version type data }} }}' for i in range(15)
    )
    refused("{ " + events + " }", "query_too_complex")
    # A variable `first` counts as the largest page.
    answer = post(
        Client(),
        f"query($n: Int!) {{ matches(first: $n) {{ edges {{ node {{ seats {{ {seat} }} }} }} }} }}",
        {"n": 1},
    ).json()
    assert answer["errors"][0]["extensions"]["code"] == "query_too_complex"
    assert resolvers == []


def test_a_query_with_too_many_tokens_is_refused_before_any_resolver(resolvers, settings):
    limit = settings.GRAPHQL["MAX_TOKENS"]
    document = "{ matches { edges { cursor " + "cursor " * limit + "} } }"
    error = refused(document, "query_too_large")
    assert f"more than {limit} tokens" in error["message"]
    assert resolvers == []


def test_a_body_over_64_kib_is_refused_with_413_before_it_is_read(resolvers):
    document = "{ __typename }" + " " * (64 * 1024)
    response = post(Client(), document)
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "payload_too_large"
    assert resolvers == []


def test_batching_is_off():
    body = orjson.dumps([{"query": "{ __typename }"}, {"query": "{ __typename }"}])
    response = Client().post("/graphql/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["extensions"]["code"] == "malformed_request"


def test_not_json_and_no_query_get_the_graphql_error_shape():
    response = Client().post("/graphql/", b"{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["extensions"]["code"] == "malformed_request"
    refused("{ me { id ", "malformed_request")
    refused("{ me { nope } }", "invalid")
    refused('{ match(id: 12, seat: "x") { id } }', "invalid")


def test_mutations_only_by_post():
    response = Client().get("/graphql/", {"query": "mutation { guest { token } }"})
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["extensions"] == {"code": "malformed_request"}
    assert error["message"] == "mutations are not allowed when using GET"


@pytest.mark.parametrize("enabled", [True, False])
def test_introspection_follows_its_setting(settings, enabled):
    settings.GRAPHQL = {**settings.GRAPHQL, "INTROSPECTION": enabled}
    answer = post(Client(), "{ __schema { queryType { name } } }").json()
    if enabled:
        assert answer == {"data": {"__schema": {"queryType": {"name": "Query"}}}}
    else:
        assert answer["errors"][0]["extensions"]["code"] == "invalid"
        assert "introspection" in answer["errors"][0]["message"]
    # __typename is no introspection of the schema: always allowed.
    assert post(Client(), "{ __typename }").json() == {"data": {"__typename": "Query"}}


def test_graphiql_loads_only_files_the_server_itself_serves(settings):
    """No CDN: every script and style of the page is a static file of the repository, and the
    files are the ones the page's integrity hashes name."""
    import base64
    import hashlib
    import re

    from django.contrib.staticfiles import finders

    settings.DEBUG = True
    page = Client().get("/graphql/", HTTP_ACCEPT="text/html").content.decode()
    assert "unpkg" not in page and not re.search(r'(?:src|href)="(?:https?:)?//', page)
    assets = re.findall(r'(?:src|href)="/static/([^"]+)"\s+integrity="([^"]+)"', page)
    assert len(assets) == 7, assets
    for name, integrity in assets:
        path = finders.find(name)
        assert path, name
        with open(path, "rb") as file:
            digest = base64.b64encode(hashlib.sha384(file.read()).digest()).decode()
        assert integrity == f"sha384-{digest}", name


def test_graphiql_only_with_debug(settings):
    for debug in (True, False):
        settings.DEBUG = debug
        response = Client().get("/graphql/", HTTP_ACCEPT="text/html")
        assert (b"graphiql" in response.content.lower()) == debug, response.status_code


def test_introspection_is_off_by_default_in_production():
    from fibserver.settings import base

    assert base.GRAPHQL["INTROSPECTION"] is True  # dev, tests: GraphiQL and code generators
    source = (base.BASE_DIR / "fibserver" / "settings" / "production.py").read_text()
    assert 'env_bool("GRAPHQL_INTROSPECTION", False)' in source
