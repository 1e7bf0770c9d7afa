"""What the server answers, declared once next to its reader: a :class:`Shape` is a list of
:class:`Field` s in plain Python (no DRF, no Strawberry), from which the faces derive the
OpenAPI component (``api.rest.openapi.shapes``) and the GraphQL type (``api.graphql.shapes``),
as a game's options are declared once (``games.engine.options``).

A field's ``kind`` is one of :data:`KINDS` or the name of a type both faces know (``Game``,
``TicketStatus``, ``Seat``, ``Event`` …: each face maps the name to its own component, enum or
type); ``many`` makes it a list of that kind. Adding a field to an answer is one line in its
declaration and one in the reader that fills it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The plain kinds: whole and real numbers, truth values, text, times and ids.
KINDS = ("int", "float", "bool", "str", "datetime", "uuid")


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    about: str = ""
    nullable: bool = False
    lo: float | None = None
    hi: float | None = None
    #: GraphQL's description where it differs from ``about`` ("" for none; ``None``: the same).
    graphql_about: str | None = None
    #: A list of ``kind``.
    many: bool = False
    #: GraphQL's name where it differs (``match_id`` for ``match``; ``None``: the same).
    graphql_name: str | None = None

    @property
    def graphql_description(self) -> str:
        return self.about if self.graphql_about is None else self.graphql_about


@dataclass(frozen=True)
class Shape:
    #: The OpenAPI component's name and the GraphQL type's.
    rest_name: str
    graphql_name: str
    about: str
    fields: tuple[Field, ...]
    graphql_about: str = ""

    def names(self) -> list[str]:
        return [f.name for f in self.fields]
