"""Validate payloads against the published OpenAPI document (what generated clients see).

OpenAPI 3.0 schema objects are JSON Schema with a few differences; the one that matters here
is ``nullable``, which becomes ``anyOf [schema, null]``. ``discriminator`` only helps clients
pick a branch: ``oneOf`` still has to match exactly one, which is what validation checks.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema_rs
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match


@cache
def document() -> dict[str, Any]:
    """The schema ``/api/schema/`` serves."""
    return SchemaGenerator(urlconf="api.rest.schema_urls").get_schema(request=None, public=True)


def to_json_schema(node: Any) -> Any:
    if isinstance(node, list):
        return [to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: to_json_schema(v) for k, v in node.items() if k not in ("discriminator", "nullable")}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


@cache
def _components() -> dict[str, Any]:
    return to_json_schema(document()["components"]["schemas"])


def _root(component: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{component}", "components": {"schemas": _components()}}


@cache
def fast(component: str) -> Any:
    """A fast validator (jsonschema-rs, as schemathesis uses) that only says yes or no."""
    return jsonschema_rs.Draft202012Validator(_root(component), validate_formats=True)


@cache
def validator(component: str) -> Draft202012Validator:
    """A slow one that says why (the most relevant error inside a ``oneOf`` too)."""
    return Draft202012Validator(_root(component), format_checker=FormatChecker())


def errors(component: str, payload: Any) -> list[str]:
    """Why ``payload`` does not fit ``component`` (empty when it does)."""
    if fast(component).is_valid(payload):
        return []
    found = list(validator(component).iter_errors(payload))
    reasons = []
    for error in found:
        deepest = best_match(error.context) if error.context else error
        where = "/".join(map(str, deepest.absolute_path)) or "."
        reasons.append(f"{where}: {deepest.message[:300]}")
    return reasons or ["not valid (the fast validator says so)"]


def assert_fits(component: str, payload: Any) -> None:
    problems = errors(component, payload)
    assert not problems, f"{component} does not describe the payload:\n" + "\n".join(problems[:10])
