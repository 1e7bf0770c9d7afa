"""Every ``default`` and ``example`` the OpenAPI document gives is a valid value of its own
schema: a generated client takes them at their word (a default of ``""`` for an enum without
``""`` made one generator drop ``POST /api/queue/`` altogether)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from .openapi_validation import document, to_json_schema

VALUE_KEYS = ("default", "example")


def _values(node: Any, where: str) -> list[tuple[str, dict[str, Any], Any]]:
    """Every (place, schema, value) of the document: a schema's own ``default`` and
    ``example``; a parameter's or a media type's ``example`` and ``examples`` against its
    ``schema``."""
    found: list[tuple[str, dict[str, Any], Any]] = []
    if isinstance(node, list):
        for i, item in enumerate(node):
            found += _values(item, f"{where}/{i}")
        return found
    if not isinstance(node, dict):
        return found
    schema = node.get("schema")
    if isinstance(schema, dict):  # a parameter, a header or a media type
        if "example" in node:
            found.append((f"{where}/example", schema, node["example"]))
        for name, example in (node.get("examples") or {}).items():
            if isinstance(example, dict) and "value" in example:
                found.append((f"{where}/examples/{name}", schema, example["value"]))
    is_schema = any(k in node for k in ("type", "$ref", "allOf", "oneOf", "anyOf", "enum"))
    if is_schema:
        own = {k: v for k, v in node.items() if k not in (*VALUE_KEYS, "examples")}
        for key in VALUE_KEYS:
            if key in node:
                found.append((f"{where}/{key}", own, node[key]))
    for key, value in node.items():
        if key not in (*VALUE_KEYS, "examples"):
            found += _values(value, f"{where}/{key}")
    return found


VALUES = _values(document(), "#")


def test_the_document_has_defaults_and_examples_to_check():
    assert len(VALUES) > 20
    assert any("TicketCreateIn" in where and "bot_level" in where for where, _s, _v in VALUES)


@pytest.mark.parametrize(("where", "schema", "value"), VALUES, ids=[v[0] for v in VALUES])
def test_every_default_and_example_is_a_valid_value_of_its_schema(where, schema, value):
    root = {
        **to_json_schema(schema),
        "components": {"schemas": to_json_schema(document()["components"]["schemas"])},
    }
    problems = [
        e.message
        for e in Draft202012Validator(root, format_checker=FormatChecker()).iter_errors(value)
    ]
    assert not problems, f"{where}: {value!r} is not valid: {problems[:3]}"
