"""Arguments checked exactly as REST checks the same request: REST's own input serializers and
query-parameter parsers, so a bad value is refused with the same ``code``, message and
``fields`` (which use REST's field names) in both APIs."""

from __future__ import annotations

from typing import Any

from api.rest import serializers as rest
from api.rest.auth import GuestCreateView, LoginView, RegisterView, UpgradeView
from api.rest.matches import IDEMPOTENCY_KEY_MAX
from api.rest.parsers import int_param, validated
from fibserver.errors import Invalid


def given(**values: Any) -> dict[str, Any]:
    """The arguments a caller gave (a GraphQL ``null`` or omitted argument is left out, as an
    absent JSON key is in REST)."""
    return {name: value for name, value in values.items() if value is not None}


def whole_number(name: str, value: int | None, *, lo: int = 0) -> int | None:
    """A whole-number argument by REST's query-parameter rule (``seat``, ``after``)."""
    return int_param({} if value is None else {name: str(value)}, name, None, lo=lo)


def guest(data: dict[str, Any]) -> dict[str, Any]:
    return validated(GuestCreateView.GuestIn, data)


def register(data: dict[str, Any]) -> dict[str, Any]:
    return validated(RegisterView.RegisterIn, data)


def login(data: dict[str, Any]) -> dict[str, Any]:
    return validated(LoginView.LoginIn, data)


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    return validated(UpgradeView.UpgradeIn, data)


def match_create(data: dict[str, Any]) -> dict[str, Any]:
    return validated(rest.MatchCreateIn, data)


def join(data: dict[str, Any]) -> dict[str, Any]:
    return validated(rest.JoinIn, data)


def join_by_code(data: dict[str, Any]) -> dict[str, Any]:
    return validated(rest.JoinByCodeIn, data)


def bots(data: dict[str, Any]) -> dict[str, Any]:
    return validated(rest.BotsIn, data)


def action(
    body: Any, expected_version: int | None, key: str | None
) -> tuple[dict[str, Any], int | None, str | None]:
    """An action as REST's ``POST /actions/`` takes it: a JSON object with a string ``type``,
    a whole-number ``expected_version`` and an ``Idempotency-Key`` of 1 to 128 characters."""
    if not isinstance(body, dict):
        raise Invalid('The body must be a JSON object such as {"type": "call"}.')
    act = dict(body)
    if expected_version is None:
        expected_version = act.pop("expected_version", None)
    else:
        act.pop("expected_version", None)
    if expected_version is not None and (type(expected_version) is not int or expected_version < 0):
        raise Invalid("'expected_version' must be a whole number.", field="expected_version")
    if not isinstance(act.get("type"), str):
        raise Invalid('The action needs a string "type".', field="type")
    if key is not None and not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX:
        raise Invalid(f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} characters.")
    return act, expected_version, key
