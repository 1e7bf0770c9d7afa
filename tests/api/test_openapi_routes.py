"""Every route the server serves under ``/api/`` is in the OpenAPI document ``/api/schema/``
serves, with every method its view answers, and the document names no route the server does
not serve: the schema's URL conf is derived from the served one (``api.rest.schema_urls``).

Left out on purpose: the schema and its pages themselves, and the views marked
``schema = None`` (the tournaments' old ``/api/events/…`` routes, docs/tournaments.md)."""

from __future__ import annotations

import re
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from .openapi_validation import document

#: Routes that serve the documentation rather than the API.
PAGES = {"/api/schema/", "/api/docs/", "/api/redoc/"}
METHODS = {"get", "post", "put", "patch", "delete"}


def _walk(patterns: list[Any], prefix: str = "") -> list[tuple[str, Any]]:
    out = []
    for p in patterns:
        if isinstance(p, URLResolver):
            out += _walk(list(p.url_patterns), prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            out.append((prefix + str(p.pattern), p.callback))
    return out


def _openapi_path(route: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def _view_class(callback: Any) -> Any:
    twin = getattr(callback, "schema_twin", None)
    return twin or getattr(callback, "cls", None) or getattr(callback, "view_class", None)


def served() -> dict[str, set[str]]:
    """``/api/…`` path -> the methods its view answers (as the OpenAPI document names them)."""
    found: dict[str, set[str]] = {}
    for route, callback in _walk(list(get_resolver().url_patterns)):
        path = _openapi_path(route)
        if not path.startswith("/api/") or path in PAGES:
            continue
        view = _view_class(callback)
        assert view is not None, f"{path}: neither a DRF view nor one with a schema_twin"
        if getattr(view, "schema", "") is None:
            continue  # left out of the document on purpose
        methods = {m for m in METHODS if hasattr(view, m)}
        found.setdefault(path, set()).update(methods)
    return found


def documented() -> dict[str, set[str]]:
    return {path: {m for m in item if m in METHODS} for path, item in document()["paths"].items()}


def test_the_walk_sees_the_routes_it_must():
    routes = served()
    assert routes["/api/matches/{match_id}/"] == {"get"}  # the fast lane's view, by its twin
    assert routes["/api/matches/{match_id}/events/"] == {"get"}  # the async long-poll's twin
    assert routes["/api/me/vacation/"] == {"get", "post", "delete"}
    assert not any(p.startswith("/api/events/") for p in routes)  # the old names: no schema


def test_every_served_route_and_method_is_documented():
    docs = documented()
    missing = sorted(
        f"{method.upper()} {path}"
        for path, methods in served().items()
        for method in methods - docs.get(path, set())
    )
    assert missing == []


def test_every_documented_route_is_served():
    routes = served()
    assert sorted(set(documented()) - set(routes)) == []
