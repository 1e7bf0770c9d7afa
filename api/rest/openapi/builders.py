"""Small builders for OpenAPI 3.0 schema objects, and the registry of named components.

Conventions of every component built here:

- objects list every property and say ``additionalProperties: false`` (a new field the schema
  does not know is a schema change, caught by the tests), unless ``open=True``;
- every enum is a named component referenced with ``$ref`` (one enum per set of values in
  generated clients, and drf-spectacular's enum post-processing leaves references alone);
- ``nullable`` follows OpenAPI 3.0: ``{"allOf": [{"$ref": …}], "nullable": true}`` for a
  reference, ``"nullable": true`` next to ``type`` otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Schema = dict[str, Any]

#: name -> schema object of every component this package defines.
COMPONENTS: dict[str, Schema] = {}

PREFIX = "#/components/schemas/"


def define(name: str, schema: Schema) -> Schema:
    """Register component ``name`` and return a reference to it."""
    if name in COMPONENTS and COMPONENTS[name] != schema:
        raise ValueError(f"component {name} is defined twice, differently")
    COMPONENTS[name] = schema
    return ref(name)


def ref(name: str) -> Schema:
    return {"$ref": PREFIX + name}


def referenced(schema: Any) -> Iterable[str]:
    """The component names ``schema`` refers to, directly or nested."""
    if isinstance(schema, dict):
        target = schema.get("$ref")
        if isinstance(target, str) and target.startswith(PREFIX):
            yield target[len(PREFIX) :]
        for value in schema.values():
            yield from referenced(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from referenced(item)


def enum(name: str, values: Iterable[Any], description: str = "") -> Schema:
    values = list(values)
    kind = "integer" if all(type(v) is int for v in values) else "string"
    schema: Schema = {"type": kind, "enum": values}
    if description:
        schema["description"] = description
    return define(name, schema)


def nullable(schema: Schema) -> Schema:
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    if "type" not in schema:  # a oneOf: wrap it so that `nullable` sits next to a type
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def obj(
    required: dict[str, Schema] | None = None,
    optional: dict[str, Schema] | None = None,
    *,
    description: str = "",
    open: bool = False,
) -> Schema:
    """An object with ``required`` and ``optional`` properties."""
    required = required or {}
    optional = optional or {}
    schema: Schema = {"type": "object", "properties": {**required, **optional}}
    if required:
        schema["required"] = list(required)
    if not open:
        schema["additionalProperties"] = False
    if description:
        schema["description"] = description
    return schema


def arr(
    items: Schema,
    *,
    min_items: int | None = None,
    max_items: int | None = None,
    unique: bool = False,
    description: str = "",
) -> Schema:
    schema: Schema = {"type": "array", "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    if unique:
        schema["uniqueItems"] = True
    if description:
        schema["description"] = description
    return schema


def integer(lo: int | None = None, hi: int | None = None, description: str = "") -> Schema:
    schema: Schema = {"type": "integer"}
    if lo is not None:
        schema["minimum"] = lo
    if hi is not None:
        schema["maximum"] = hi
    if description:
        schema["description"] = description
    return schema


def string(description: str = "", **keywords: Any) -> Schema:
    schema: Schema = {"type": "string", **keywords}
    if description:
        schema["description"] = description
    return schema


def boolean(description: str = "") -> Schema:
    schema: Schema = {"type": "boolean"}
    if description:
        schema["description"] = description
    return schema


def described(schema: Schema, description: str) -> Schema:
    """``schema`` with a description (a reference is wrapped, as siblings of $ref are ignored)."""
    if "$ref" in schema:
        return {"allOf": [schema], "description": description}
    return {**schema, "description": description}


def one_of(branches: dict[str, Schema], discriminator: str | None = None) -> Schema:
    """A union; with ``discriminator``, the keys of ``branches`` are the property's values."""
    schema: Schema = {"oneOf": list(branches.values())}
    if discriminator:
        schema["discriminator"] = {
            "propertyName": discriminator,
            "mapping": {value: branch["$ref"] for value, branch in branches.items()},
        }
    return schema


#: Counts and numbers that are never negative.
NAT: Schema = integer(0)
BOOL: Schema = boolean()
HEX64: Schema = string(pattern="^[0-9a-f]{64}$")
DATETIME: Schema = string(format="date-time")
UUID: Schema = string(format="uuid")
