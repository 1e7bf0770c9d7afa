"""Strawberry types derived from the answer shapes declared next to their readers
(:mod:`kernel.shapes`): one type per shape, its fields in the declared order, with ``of``
building it from the reader's dict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

import strawberry

from kernel.shapes import Shape

#: The GraphQL type of each plain kind (times travel as ISO 8601 text unless the caller maps
#: ``datetime`` to a ``DateTime``).
PLAIN: dict[str, Any] = {
    "int": int,
    "float": float,
    "bool": bool,
    "str": str,
    "datetime": str,
    "uuid": strawberry.ID,
}

#: A kind's GraphQL type, and how a reader's value becomes it (an enum converts itself).
Kind = Any | tuple[Any, Callable[[Any], Any]]


def _each(one: Callable[[Any], Any]) -> Callable[[list[Any]], list[Any]]:
    return lambda values: [one(v) for v in values]


def strawberry_type(shape: Shape, kinds: dict[str, Kind]) -> Any:
    """The type of ``shape``; ``kinds`` maps the other kinds' names (and any plain kind to be
    typed otherwise) to a Strawberry enum (which converts the reader's text) or to a pair
    ``(type, converter)``."""
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__annotations__": annotations}
    convert: dict[str, Callable[[Any], Any]] = {}
    names: dict[str, str] = {}
    for f in shape.fields:
        name = names[f.name] = f.graphql_name or f.name
        found = kinds.get(f.kind)
        if found is None:
            kind = PLAIN[f.kind]
        elif isinstance(found, tuple):
            kind, convert[f.name] = found
        else:
            kind = convert[f.name] = found
        if f.many:
            kind = list[kind]  # type: ignore[valid-type]
            if f.name in convert:
                convert[f.name] = _each(convert[f.name])
        annotations[name] = Optional[kind] if f.nullable else kind  # noqa: UP045
        if f.graphql_description:
            namespace[name] = strawberry.field(description=f.graphql_description)

    def of(cls: Any, d: dict[str, Any]) -> Any:
        return cls(
            **{
                names[key]: convert[key](value) if key in convert and value is not None else value
                for key, value in d.items()
            }
        )

    namespace["of"] = classmethod(of)
    cls = type(shape.graphql_name, (), namespace)
    return strawberry.type(cls, description=shape.graphql_about)
