"""drf-spectacular glue: our components in the generated schema, strict inputs documented.

drf-spectacular discovers extensions by subclassing; this module is imported by
:mod:`api.rest.matches` (before any schema is generated).

- :func:`component` gives a serializer-like class that stands for a component of
  :mod:`.components` in ``@extend_schema(responses=…)``; the component and everything it
  refers to are registered in the schema under their own names;
- fields carrying a ``component`` (strict choices, discriminators) are ``$ref`` s to that enum;
- every :class:`~api.play.fields.StrictInput` is ``additionalProperties: false``, and a
  list of unique items says ``uniqueItems``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from drf_spectacular.extensions import (
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.plumbing import ComponentIdentity, ResolvedComponent
from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from . import components, errors, records  # noqa: F401  (define every component)
from .builders import COMPONENTS, Schema, ref, referenced

assert all(
    name in COMPONENTS for schema in list(COMPONENTS.values()) for name in referenced(schema)
), "every referenced component is defined"


def register(auto_schema: Any, name: str) -> Schema:
    """Put component ``name`` (and what it refers to) into the schema being generated."""
    pending = [name]
    while pending:
        current = pending.pop()
        component = ResolvedComponent(
            name=current,
            type=ResolvedComponent.SCHEMA,
            schema=COMPONENTS[current],
            object=ComponentIdentity(current),
        )
        if component in auto_schema.registry:
            continue
        auto_schema.registry.register_on_missing(component)
        pending.extend(referenced(COMPONENTS[current]))
    return ref(name)


class ComponentSerializer(serializers.Serializer):
    """Stands for a component in ``@extend_schema``; never used to serialize."""

    component_name = ""


@cache
def component(name: str) -> type[ComponentSerializer]:
    """The stand-in of component ``name`` (``responses={200: component("MatchOut")}``)."""
    if name not in COMPONENTS:
        raise KeyError(f"no component {name}")
    return type(name, (ComponentSerializer,), {"component_name": name, "__module__": __name__})


class ComponentSerializerExtension(OpenApiSerializerExtension):
    target_class = ComponentSerializer
    match_subclasses = True

    def get_name(self, auto_schema: Any, direction: Any) -> str:
        return self.target.component_name

    def get_identity(self, auto_schema: Any, direction: Any) -> Any:
        return ComponentIdentity(self.target.component_name)

    def map_serializer(self, auto_schema: Any, direction: Any) -> Schema:
        schema = COMPONENTS[self.target.component_name]
        for name in referenced(schema):
            register(auto_schema, name)
        return schema


class DiscriminatedUnion(PolymorphicProxySerializer):
    """A request body that is one of several shapes, picked by a property every shape requires
    (``game`` of a new match, ``type`` of an action): the body and that property are required.
    """

    def __init__(self, component_name: str, serializers: dict[str, Any], key: str) -> None:
        super().__init__(
            component_name=component_name, serializers=serializers, resource_type_field_name=key
        )


class DiscriminatedUnionExtension(PolymorphicProxySerializerExtension):
    target_class = "api.rest.openapi.extensions.DiscriminatedUnion"
    priority = 1

    def map_serializer(self, auto_schema: Any, direction: Any) -> Schema:
        schema = super().map_serializer(auto_schema, direction)
        # drf-spectacular makes a request body required when its schema requires a property.
        return {**schema, "required": [self.target.resource_type_field_name]}


class StrictInputExtension(OpenApiSerializerExtension):
    """Input serializers refuse unknown fields; say so."""

    target_class = "api.play.fields.StrictInput"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> Schema:
        schema = dict(auto_schema._map_basic_serializer(self.target, direction))
        schema["additionalProperties"] = False
        for name, prop in schema.get("properties", {}).items():
            schema["properties"][name] = _blank_allowed(prop)
        own = type(self.target).__dict__.get("__doc__")  # not a base class's docstring
        schema.pop("description", None)
        if own:
            schema = {"description": " ".join(own.split()), **schema}
        return schema


def _blank_allowed(prop: Schema) -> Schema:
    """A string that may be blank and has a pattern that admits "" already: drf-spectacular
    writes ``oneOf: [pattern, maxLength 0]``, which is ambiguous for "" (a oneOf must match
    exactly once), so keep the pattern alone."""
    branches = prop.get("oneOf")
    if not branches or branches[1:] != [{"type": "string", "maxLength": 0}]:
        return prop
    inner = branches[0]
    if "minLength" in inner or not inner.get("pattern", "").endswith("]*$"):
        return prop
    return {**{k: v for k, v in prop.items() if k != "oneOf"}, **inner}


class ComponentFieldExtension(OpenApiSerializerFieldExtension):
    """A strict choice (or a variant's discriminator): a reference to its enum component, whose
    values must be the field's choices."""

    target_class = "api.play.fields.StrictChoiceField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Schema:
        name = self.target.component
        expected = COMPONENTS[name]["enum"]
        assert list(self.target.choices) == list(expected), (name, self.target.choices, expected)
        return register(auto_schema, name)


class ConstantFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "api.play.fields.ConstantField"

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Schema:
        name = self.target.component
        assert COMPONENTS[name]["enum"] == [self.target.value], name
        return register(auto_schema, name)


class UniqueListExtension(OpenApiSerializerFieldExtension):
    target_class = "api.play.actions.UniquePositions"

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Schema:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "uniqueItems": True}
