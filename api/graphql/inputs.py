"""Arguments checked exactly as REST checks the same request: REST's own input serializers and
query-parameter parsers, so a bad value is refused with the same ``code``, message and
``fields`` (which use REST's field names) in both APIs."""

from __future__ import annotations

from typing import Any

from api.rest import serializers as rest
from api.rest.auth import GuestCreateView, LoginView, RegisterView, UpgradeView
from api.rest.matches import idempotency_key, validate_variant
from api.rest.serializers import validate as validated
from api.rest.stats import LeaderboardQuery
from fibserver.errors import Invalid


def given(**values: Any) -> dict[str, Any]:
    """The arguments a caller gave (a GraphQL ``null`` or omitted argument is left out, as an
    absent JSON key is in REST)."""
    return {name: value for name, value in values.items() if value is not None}


def whole_number(name: str, value: int | None) -> int | None:
    """A whole-number argument by REST's query-parameter rule (``seat``, ``after``)."""
    if value is None:
        return None
    query = rest.EventsQuery if name == "after" else rest.SeatQuery
    number: int = validated(query, {name: str(value)})[name]
    return number


def guest(data: dict[str, Any]) -> dict[str, Any]:
    return validated(GuestCreateView.GuestIn, data)


def register(data: dict[str, Any]) -> dict[str, Any]:
    return validated(RegisterView.RegisterIn, data)


def login(data: dict[str, Any]) -> dict[str, Any]:
    return validated(LoginView.LoginIn, data)


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    return validated(UpgradeView.UpgradeIn, data)


def match_create(data: dict[str, Any]) -> dict[str, Any]:
    return validate_variant(data, "game", rest.MATCH_CREATE_IN)


def join(data: dict[str, Any]) -> dict[str, Any]:
    return validated(rest.JoinIn, data)


def join_by_code(data: dict[str, Any]) -> dict[str, Any]:
    return validated(rest.JoinByCodeIn, data)


def bots(data: dict[str, Any]) -> dict[str, Any]:
    return validated(rest.BotsIn, data)


def action(
    body: Any, expected_version: int | None, key: str | None
) -> tuple[dict[str, Any], int | None, str | None]:
    """An action as REST's ``POST /actions/`` takes it: the same shapes, an optional
    ``expected_version`` (the argument or, as in REST, inside the body) and an
    ``Idempotency-Key``."""
    if expected_version is not None and isinstance(body, dict):
        body = {**body, "expected_version": expected_version}
    act, expected = rest.validate_action(body)
    return act, expected, idempotency_key(key)


def leaderboard(
    board: str, first: int, after: str | None, active_days: int | None
) -> dict[str, Any]:
    """A leaderboard page's arguments by REST's rules (``limit`` is ``first``; the cursor
    ``after`` is a position on the board)."""
    offset = 0
    if after is not None:
        kind, _, number = after.partition(":")
        if kind != "offset" or not number.isascii() or not number.isdigit():
            raise Invalid("'after' is not a cursor this board gave.", field="after")
        offset = int(number)
    query = {"board": board, "limit": str(first), "offset": str(offset)}
    if active_days is not None:
        query["active_days"] = str(active_days)
    return validated(LeaderboardQuery, query)
