"""One error type, one status rule: every application error code answers the status docs/api.md
gives it, through the one table in api/errors.py (400: the shape; 422: the game's rules)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from api.errors import HTTP_STATUS, http_status
from kernel import errors

ROOT = Path(__file__).resolve().parents[2]


def documented() -> dict[str, int]:
    """code -> status, from the status table of docs/api.md."""
    table: dict[str, int] = {}
    for line in (ROOT / "docs" / "api.md").read_text().splitlines():
        row = re.match(r"\s*\| (\d{3}) \|.*\| ([^|]+) \|$", line)
        if row:
            for code in re.findall(r"`([a-z_]+)`", row.group(2)):
                assert code not in table, f"{code} is documented twice"
                table[code] = int(row.group(1))
    assert table["invalid"] == 400 and table["illegal_action"] == 422
    return table


def kinds() -> list[type[errors.AppError]]:
    found, todo = [], [errors.AppError]
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo.extend(kind.__subclasses__())
    return found


def raised_codes() -> dict[str, type[errors.AppError]]:
    """Every code the application raises: each kind's own, and each ``code=`` given to a kind
    where it is raised (read from the source of the domain and the API)."""
    by_name = {kind.__name__: kind for kind in kinds()}
    codes: dict[str, type[errors.AppError]] = {}
    for top in ("games", "accounts", "api", "fibserver"):
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                name = ast.unparse(node.func).rpartition(".")[2]  # Conflict, errors.Conflict
                kind = by_name.get(name)
                if kind is None:
                    continue
                given = [k.value for k in node.keywords if k.arg == "code"]
                if given and isinstance(given[0], ast.Constant):
                    codes[str(given[0].value)] = kind
                elif not given:
                    codes[kind.code] = kind
    return codes


def test_every_application_error_code_has_the_documented_status():
    table = documented()
    codes = raised_codes()
    # the source scan finds the kinds raised and the codes given to them
    assert {"invalid", "illegal_action", "stale_version", "username_taken"} <= set(codes)
    wrong = {
        code: (http_status(kind("x")), table.get(code))
        for code, kind in codes.items()
        if http_status(kind("x")) != table.get(code)
    }
    assert wrong == {}


def test_the_rule_is_the_kind_400_for_the_shape_422_for_the_rules():
    assert http_status(errors.Invalid("x")) == 400
    assert http_status(errors.MalformedRequest("x")) == 400
    for kind in (errors.IllegalActionError, errors.InvalidOptions, errors.IdempotencyKeyReused):
        assert issubclass(kind, errors.Refused) and http_status(kind("x")) == 422
    # one table: no kind maps twice, and nothing but the table decides
    assert len(HTTP_STATUS) == len(set(HTTP_STATUS))
    assert all(issubclass(kind, errors.AppError) for kind in HTTP_STATUS)
