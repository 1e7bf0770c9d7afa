"""Strawberry types derived from the answer shapes declared next to their readers
(:mod:`kernel.shapes`): one type per shape, its fields in the declared order, with ``of``
building it from the reader's dict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

import strawberry

from kernel.shapes import Shape

#: The GraphQL type of each plain kind (times travel as ISO 8601 text, as in REST).
PLAIN: dict[str, Any] = {
    "int": int,
    "float": float,
    "bool": bool,
    "str": str,
    "datetime": str,
    "uuid": strawberry.ID,
}


def strawberry_type(shape: Shape, kinds: dict[str, Callable[[Any], Any]]) -> Any:
    """The type of ``shape``; ``kinds`` maps the enumerations' names to their Strawberry enums
    (each called with a value to convert the reader's text)."""
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__annotations__": annotations}
    convert: dict[str, Callable[[Any], Any]] = {}
    for f in shape.fields:
        kind = PLAIN.get(f.kind)
        if kind is None:
            kind = convert[f.name] = kinds[f.kind]
        annotations[f.name] = Optional[kind] if f.nullable else kind  # noqa: UP045
        if f.graphql_description:
            namespace[f.name] = strawberry.field(description=f.graphql_description)

    def of(cls: Any, d: dict[str, Any]) -> Any:
        return cls(
            **{
                name: convert[name](value) if name in convert and value is not None else value
                for name, value in d.items()
            }
        )

    namespace["of"] = classmethod(of)
    cls = type(shape.graphql_name, (), namespace)
    return strawberry.type(cls, description=shape.graphql_about)
