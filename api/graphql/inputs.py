"""Arguments checked exactly as REST checks the same request: the one declaration of each
request shape and query parameter (:mod:`api.play`), so a bad value is refused with the same
``code``, message and ``fields`` (which use REST's field names) in both APIs."""

from __future__ import annotations

from typing import Any

from api.play import accounts, matches
from api.play.fields import validate
from api.play.queries import LeaderboardQuery
from kernel.errors import Invalid


def given(**values: Any) -> dict[str, Any]:
    """The arguments a caller gave (a GraphQL ``null`` or omitted argument is left out, as an
    absent JSON key is in REST)."""
    return {name: value for name, value in values.items() if value is not None}


def guest(data: dict[str, Any]) -> dict[str, Any]:
    return validate(accounts.GuestIn, data)


def register(data: dict[str, Any]) -> dict[str, Any]:
    return validate(accounts.RegisterIn, data)


def login(data: dict[str, Any]) -> dict[str, Any]:
    return validate(accounts.LoginIn, data)


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    return validate(accounts.UpgradeIn, data)


def delete_me(data: dict[str, Any]) -> dict[str, Any]:
    return validate(accounts.DeleteMeIn, data)


def password_change(data: dict[str, Any]) -> dict[str, Any]:
    return validate(accounts.PasswordChangeIn, data)


def match_create(data: dict[str, Any]) -> dict[str, Any]:
    return matches.validate_create(data)


def join(data: dict[str, Any]) -> dict[str, Any]:
    return validate(matches.JoinIn, data)


def join_by_code(data: dict[str, Any]) -> dict[str, Any]:
    return validate(matches.JoinByCodeIn, data)


def bots(data: dict[str, Any]) -> dict[str, Any]:
    return validate(matches.BotsIn, data)


def action_body(body: Any, expected_version: int | None) -> Any:
    """An action as REST's ``POST /actions/`` takes its body: the ``expected_version`` argument
    goes where REST has it, inside the body."""
    if expected_version is not None and isinstance(body, dict):
        return {**body, "expected_version": expected_version}
    return body


def seat_params(seat: int | None) -> dict[str, str]:
    """The ``seat`` argument as the query parameter REST reads it from."""
    return {} if seat is None else {"seat": str(seat)}


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
    return validate(LeaderboardQuery, query)
