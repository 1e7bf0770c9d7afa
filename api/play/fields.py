"""The strict fields every request shape is declared with, and :func:`validate`.

Both faces (REST and GraphQL) check a request with these declarations, so the server accepts
exactly what the OpenAPI schema allows and nothing else:

- no coercion: a string field refuses ``0`` (it does not become ``"0"``), an integer field
  refuses ``"1"``, ``1.5`` and ``true`` (``2.0`` is the integer 2, as in JSON Schema), a
  boolean field refuses ``"yes"`` and ``1``;
- no silent trimming: ``" x"`` is validated as sent;
- strings never hold NUL (U+0000), which PostgreSQL cannot store; the schema says so with a
  ``pattern``;
- unknown fields are refused, and the schema says ``additionalProperties: false``.

Everything that fails here is ``400 invalid`` with ``fields`` (field path -> messages). What fits
the shape but not the game (an illegal move, options a table size does not allow) is refused
later by the services with ``422``. The declarations are Django REST Framework serializers (a
validation library here, not a transport): drf-spectacular documents them as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.core.validators import RegexValidator
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.settings import api_settings

from kernel.errors import Invalid

#: No NUL anywhere in a string (the schema publishes the same pattern).
NO_NUL = r"^[^\x00]*$"
_NO_NUL_VALIDATOR = RegexValidator(re.compile(NO_NUL), "Strings may not contain NUL (U+0000).")


# --- Strict fields ---------------------------------------------------------------------------


class StrictCharField(serializers.CharField):
    """A string, exactly as sent: never coerced from a number, never trimmed, no NUL.

    ``pattern`` (a regular expression, published in the schema too) and ``min_length=1`` unless
    blank strings are allowed."""

    default_error_messages = {"invalid": "Must be a string."}

    def __init__(self, *, pattern: str | None = None, pattern_message: str = "", **kwargs: Any):
        kwargs.setdefault("trim_whitespace", False)
        if not kwargs.get("allow_blank", False):
            kwargs.setdefault("min_length", 1)
        super().__init__(**kwargs)
        # DRF's own NUL validator is not visible to the schema; this one is (as a pattern).
        kept: list[Any] = [
            v
            for v in getattr(self, "validators", [])
            if type(v).__name__ != "ProhibitNullCharactersValidator"
        ]
        if pattern is None:
            kept.append(_NO_NUL_VALIDATOR)
        else:
            kept.append(
                RegexValidator(re.compile(pattern), pattern_message or "Not in the right form.")
            )
        self.validators = kept

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: ``"1"``, ``1.5`` and ``true`` are refused (``2.0`` is the integer 2, as
    JSON Schema reads it)."""

    default_error_messages = {"invalid": "Must be a whole number."}

    def to_internal_value(self, data: Any) -> int:
        if type(data) is float and data.is_integer():
            data = int(data)
        if type(data) is not int:
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean: ``"true"``, ``1`` and ``"yes"`` are refused."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid")
        return data


class StrictChoiceField(serializers.ChoiceField):
    """One of some strings, exactly (``1`` is not ``"1"``).

    ``component`` names the schema component (an enum) that documents the choices, so every
    field with the same choices shares one enum in generated clients."""

    def __init__(self, choices: Any, *, component: str, **kwargs: Any) -> None:
        self.component = component
        super().__init__(choices, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class ConstantField(StrictCharField):
    """The discriminator of a request variant: exactly one string (``{"type": "claim"}``).

    Documented by the single-value enum component ``component``."""

    def __init__(self, value: str, *, component: str, **kwargs: Any) -> None:
        self.value = value
        self.component = component
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data != self.value:
            raise ValidationError(f"Must be {self.value!r}.")
        return self.value

    def to_representation(self, value: Any) -> str:
        # drf-spectacular reads the discriminator value of a variant from here.
        return self.value


# --- Strict serializers ----------------------------------------------------------------------


class StrictInput(serializers.Serializer):
    """A request object: refuses fields it does not declare (``additionalProperties: false``)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise ValidationError({api_settings.NON_FIELD_ERRORS_KEY: ["Must be a JSON object."]})
        errors: dict[str, Any] = {}
        try:
            value = super().to_internal_value(data)
        except ValidationError as error:
            assert isinstance(error.detail, dict)
            errors.update(error.detail)
            value = None
        writable = {name for name, field in self.fields.items() if not field.read_only}
        for name in data:
            if name not in writable:
                errors[str(name)] = [f"Unknown field; this object takes: {_names(writable)}."]
        if errors:
            raise ValidationError(errors)
        return value


def _names(names: set[str]) -> str:
    return ", ".join(sorted(names)) or "no fields"


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as ``{"field.path": [messages]}``."""
    if isinstance(detail, Mapping):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            name = "" if key == api_settings.NON_FIELD_ERRORS_KEY else str(key)
            out.update(_flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name))
        return out
    if isinstance(detail, list) and detail and all(isinstance(d, str) for d in detail):
        return {prefix or "body": [str(d) for d in detail]}
    if isinstance(detail, list):
        out = {}
        for index, value in enumerate(detail):
            if value:
                out.update(_flatten(value, f"{prefix}.{index}" if prefix else str(index)))
        return out
    return {prefix or "body": [str(detail)]}


def validate(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """A request body (or query) checked by its input serializer: the validated values, or
    ``400 invalid`` with ``fields`` mapping each field path to its messages."""
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        fields = _flatten(serializer.errors)
        first = next(iter(fields.items()))
        where = "" if first[0] == "body" else f"'{first[0]}': "
        raise Invalid(f"The request is not valid: {where}{first[1][0]}", fields=fields)
    return dict(serializer.validated_data)


# --- Query parameters ------------------------------------------------------------------------


class QueryBooleanField(serializers.BooleanField):
    """A boolean query parameter: ``true``/``false``/``1``/``0`` (what the schema's boolean
    allows on the wire), nothing else."""

    default_error_messages = {"invalid": "Must be true, false, 1 or 0."}
    WIRE = {"true": True, "1": True, "false": False, "0": False}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, str) or data not in self.WIRE:
            self.fail("invalid")
        return self.WIRE[data]


class QueryIntegerField(serializers.IntegerField):
    """A whole-number query parameter: ASCII digits only (no sign, no ``1e3``, no ``²``)."""

    default_error_messages = {"invalid": "Must be a whole number."}
    _DIGITS = re.compile(r"[0-9]{1,12}")

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not self._DIGITS.fullmatch(data):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class QueryNumberField(serializers.FloatField):
    """A number query parameter as a JSON number is written (``2``, ``1.5``, ``2.5e-1``)."""

    default_error_messages = {"invalid": "Must be a number such as 20 or 1.5."}
    _NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")

    def to_internal_value(self, data: Any) -> float:
        if not isinstance(data, str) or len(data) > 64 or not self._NUMBER.fullmatch(data):
            self.fail("invalid")
        return float(super().to_internal_value(data))
