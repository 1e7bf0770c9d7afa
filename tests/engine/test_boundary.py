"""The engines stay pure: no Django, no I/O libraries, no global randomness
(docs/architecture.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
ALLOWED_THIRD_PARTY: set[str] = set()
FORBIDDEN_STDLIB = {"os", "socket", "subprocess", "threading", "asyncio", "sqlite3"}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def test_engine_imports_only_the_standard_library_and_itself():
    problems = []
    for path in sorted(ENGINE.rglob("*.py")):
        for line, module in imported_modules(path):
            top = module.split(".")[0]
            if module.startswith("games.engine") or top == "__future__":
                continue
            if top in sys.stdlib_module_names and top not in FORBIDDEN_STDLIB:
                continue
            if top in ALLOWED_THIRD_PARTY:
                continue
            problems.append(f"{path.relative_to(ENGINE)}:{line} imports {module}")
    assert problems == []


def test_engine_never_uses_the_global_random_generator():
    problems = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr not in {"Random"}
            ):
                problems.append(f"{path.relative_to(ENGINE)}:{node.lineno} random.{node.attr}")
    assert problems == []
