"""OpenAPI components derived from the answer shapes declared next to their readers
(:mod:`kernel.shapes`): one component per shape, its properties in the declared order."""

from __future__ import annotations

from kernel.shapes import Field, Shape

from .builders import (
    DATETIME,
    UUID,
    Schema,
    arr,
    boolean,
    define,
    described,
    integer,
    nullable,
    obj,
)


def _number(f: Field) -> Schema:
    schema: Schema = {"type": "number"}
    if f.lo is not None:
        schema["minimum"] = f.lo
    if f.hi is not None:
        schema["maximum"] = f.hi
    if f.about:
        schema["description"] = f.about
    return schema


def _int(value: float | None) -> int | None:
    return None if value is None else int(value)


def property_of(f: Field, kinds: dict[str, Schema]) -> Schema:
    """The schema of one field; ``kinds`` maps the other kinds' names to their components."""
    if f.many:
        schema = arr(_item(Field(f.name, f.kind, lo=f.lo, hi=f.hi), kinds))
        return nullable(schema) if f.nullable else schema
    if f.kind not in PLAIN and f.about and f.nullable:  # a reference that may be null
        return {"allOf": [kinds[f.kind]], "nullable": True, "description": f.about}
    schema = _item(f, kinds)
    return nullable(schema) if f.nullable else schema


PLAIN = ("int", "float", "bool", "str", "datetime", "uuid")


def _item(f: Field, kinds: dict[str, Schema]) -> Schema:
    if f.kind == "int":
        schema = integer(_int(f.lo), _int(f.hi), f.about)
    elif f.kind == "float":
        schema = _number(f)
    elif f.kind == "bool":
        schema = boolean(f.about)
    elif f.kind in ("str", "datetime", "uuid"):
        base = {"str": {"type": "string"}, "datetime": DATETIME, "uuid": UUID}[f.kind]
        schema = {**base, "description": f.about} if f.about else dict(base)
    else:
        schema = described(kinds[f.kind], f.about) if f.about else kinds[f.kind]
    return schema


def component(shape: Shape, kinds: dict[str, Schema]) -> Schema:
    """Define ``shape``'s component (every field required) and return a reference to it."""
    return define(
        shape.rest_name,
        obj({f.name: property_of(f, kinds) for f in shape.fields}, description=shape.about),
    )
