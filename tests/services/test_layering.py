"""The apps import one way, down the order of docs/architecture.md (kernel < accounts < games <
matchmaking, tournaments < notifications < the faces < the entry points), and inside ``games``
tasks -> services, never back (docs: games/services/__init__.py).

The import graph is read from the source (every ``import`` and ``from … import``, those inside
functions included), so a deferred import cannot hide an upward call or a cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.services import schedule

ROOT = Path(__file__).resolve().parents[2]
#: The order of the apps, lowest first; the apps of one layer stand side by side and import
#: neither each other nor anything above them.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("kernel",),
    ("accounts",),
    ("games",),
    ("matchmaking", "tournaments"),
    ("notifications",),
    ("api", "web"),
    ("fibserver",),
)
PACKAGES = tuple(app for layer in LAYERS for app in layer)
RANK = {app: rank for rank, layer in enumerate(LAYERS) for app in layer}


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[module_of(path)] = path
    return found


MODULES = source_modules()


def imports_of(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # ``from x import y`` imports x, and x.y too when y is a module of its own
            targets = [stem] + [f"{stem}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]  # a name inside a module: the module
            if target and target != name:
                out.add(target)
    return out


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def reachable(start: str) -> dict[str, str]:
    """Every module ``start`` imports, directly or not, each with the module it came through."""
    seen: dict[str, str] = {}
    todo = [start]
    while todo:
        here = todo.pop()
        for there in GRAPH.get(here, ()):
            if there not in seen and there != start:
                seen[there] = here
                todo.append(there)
    return seen


def path_to(start: str, goal: str, seen: dict[str, str]) -> list[str]:
    chain = [goal]
    while chain[-1] != start and chain[-1] in seen:
        chain.append(seen[chain[-1]])
    return chain[::-1] if chain[-1] == start else [start, "…", goal]


def test_the_graph_sees_the_known_edges():
    """The reader is not vacuous: it finds the imports this test relies on."""
    assert "games.services" in GRAPH["games.tasks"]
    assert "games.services.schedule" in GRAPH["games.services.clock"]
    assert "kernel.tasks" in GRAPH["fibserver.runner"]
    assert "games.tasks" in GRAPH["games.apps"]  # the one registration, at app start-up
    assert "accounts.models" in GRAPH["games.services.lobby"]  # downward edges are read too


def upward() -> list[str]:
    """Every import that runs up the order of the apps, or across one layer."""
    problems = []
    for name in sorted(GRAPH):
        here = name.split(".")[0]
        for target in sorted(GRAPH[name]):
            there = target.split(".")[0]
            if there != here and RANK[there] >= RANK[here]:
                problems.append(f"{name} imports {target}")
    return problems


def test_every_project_package_is_in_the_order():
    on_disk = {
        p.parent.name for p in ROOT.glob("*/apps.py") if (p.parent / "__init__.py").exists()
    } | {"kernel"}
    assert on_disk == set(PACKAGES)


def test_no_app_imports_up_the_order_or_across_its_layer():
    assert upward() == []


def test_the_order_check_is_not_vacuous():
    """An upward import, were it there, would be caught: the check sees the faces' imports of
    the domain, which run down, and would report the reverse."""
    assert any(t.startswith("games.") for t in GRAPH["api.play.moves"])
    GRAPH["kernel.errors"].add("games.models")
    try:
        assert "kernel.errors imports games.models" in upward()
    finally:
        GRAPH["kernel.errors"].discard("games.models")


@pytest.mark.parametrize("forbidden", ["games.tasks", "fibserver.runner"])
def test_no_service_imports_the_tasks_or_the_runner(forbidden):
    services = sorted(name for name in GRAPH if name.split(".")[:2] == ["games", "services"])
    assert len(services) > 10
    problems = []
    for name in services:
        seen = reachable(name)
        if forbidden in seen:
            problems.append(" -> ".join(path_to(name, forbidden, seen)))
    assert problems == []


def test_no_import_cycle_goes_through_the_tasks():
    seen = reachable("games.tasks")
    assert "games.services" in seen
    assert "games.tasks" not in {m for name in seen for m in GRAPH[name]}


@pytest.mark.parametrize("package", ["games", "accounts", "kernel.errors"])
def test_the_domain_does_not_import_the_api_layer(package):
    names = sorted(n for n in GRAPH if n == package or n.startswith(package + "."))
    problems = [
        f"{name} imports {target}"
        for name in names
        for target in sorted(GRAPH[name])
        if target.split(".")[0] in {"api", "web"} or target == "fibserver.urls"
    ]
    assert problems == []


TASK_NAME = re.compile(r"^(" + "|".join(PACKAGES) + r")\.tasks\.\w+$")


def test_every_task_sent_by_name_exists():
    """Tasks are sent by name (:mod:`kernel.tasks`), so a typo would only show at run time:
    every task name written in the source (``"<app>.tasks.<task>"``, or ``TASK_PREFIX + …`` in
    games' schedule) is a registered Celery task, and so is every periodic job's."""
    from celery import current_app

    from fibserver.periodic import PERIODIC

    sent = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                sent |= {node.value} if TASK_NAME.match(node.value) else set()
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.right, ast.Constant)
                and ast.unparse(node.left) == "TASK_PREFIX"
            ):
                sent.add(schedule.TASK_PREFIX + node.right.value)
    assert {
        "games.tasks.run_bot_turn",
        "games.tasks.enforce_deadline",
        "games.tasks.record_results",
        "tournaments.tasks.round_ended",
        "accounts.tasks.build_export",
        "notifications.tasks.deliver",
    } <= sent
    assert {job.task for job in PERIODIC} <= sent
    assert sorted(name for name in sent if name not in current_app.tasks) == []


TYPED = {"user", "caller", "match_id", "rules"}


def test_services_and_selectors_type_user_match_id_and_rules():
    """these parameters (and fields) say what they are, never ``Any`` or nothing."""
    paths = (
        sorted((ROOT / "games" / "services").glob("*.py"))
        + sorted((ROOT / "games" / "reads").glob("*.py"))
        + [ROOT / "games" / "access.py"]
    )
    problems = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args
                for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                    hint = ast.unparse(arg.annotation) if arg.annotation else None
                    if arg.arg in TYPED and hint in (None, "Any"):
                        problems.append(f"{path.name}:{node.lineno} {node.name}({arg.arg})")
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.target.id in TYPED
                and ast.unparse(node.annotation) == "Any"
            ):
                problems.append(f"{path.name}:{node.lineno} {node.target.id}")
    assert problems == []


def test_generic_code_names_no_game_and_no_games_option():
    """what differs by game is a hook on Rules (``places`` for Skull's two tribes),
    not a game's id or one of its own options in the services and readers. (Fibber's Dice
    tournaments are an app of their own, ``tournaments``, and the ``tournament`` option marks
    their rounds.)"""
    from games.engine import registry

    names = set(registry.game_ids())
    for rules in registry.all_rules():
        for options in rules.option_examples:
            names |= {key for key in options if "_" in key}  # two_tribes, not "points"
    generic = (
        sorted((ROOT / "games" / "services").glob("*.py"))
        + sorted((ROOT / "games" / "reads").glob("*.py"))
        + [ROOT / "kernel" / "wake.py"]
        + [
            ROOT / "games" / name
            for name in (
                "access.py",
                "hotsql.py",
                "boards.py",
                "rating.py",
                "tasks.py",
                "timecontrol.py",
            )
        ]
    )
    assert {"skull", "fibbers_dice", "two_tribes"} <= names
    problems = [
        f"{path.name}:{node.lineno} {node.value!r}"
        for path in generic
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    ]
    assert problems == []


@pytest.mark.parametrize(
    "face, forbidden",
    [
        ("api.graphql", ("api.rest",)),
        ("api.fast", ("api.rest", "api.graphql")),
        ("api.longpoll", ("api.rest", "api.graphql")),
        ("api.play", ("api.rest", "api.graphql", "api.fast", "api.longpoll")),
    ],
)
def test_the_faces_meet_only_in_the_play_layer(face, forbidden):
    """GraphQL, the fast lane and the long-poll take their inputs, moves and waiting from
    ``api.play``, never from REST; the play layer knows none of the faces. A move's path reads
    one way: face -> ``api.play`` -> ``games.services`` -> ``games.reads``/the database."""
    names = sorted(n for n in GRAPH if n == face or n.startswith(face + "."))
    assert names, face
    problems = [
        f"{name} imports {target}"
        for name in names
        for target in sorted(reachable(name))
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    ]
    assert problems == []


def test_the_readers_and_the_writers_share_only_games_access():
    """``games.reads`` never imports the services (they import it: a move answers with a view),
    so the read side has no way to change a match."""
    reads = sorted(n for n in GRAPH if n.startswith("games.reads"))
    assert "games.reads.views" in reads
    problems = [
        f"{name} reaches {target}"
        for name in reads
        for target in sorted(reachable(name))
        if target.startswith("games.services")
    ]
    assert problems == []


def test_no_two_modules_import_each_other_even_through_others():
    """No import circle anywhere in the project (a module importing its own package's
    ``__init__``, as ``from . import x`` does, aside): every strongly connected part of the
    import graph is one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def edges(name: str) -> list[str]:
        return [t for t in GRAPH.get(name, ()) if not name.startswith(t + ".")]

    def visit(start: str) -> None:  # Tarjan's algorithm, iteratively
        work = [(start, iter(edges(start)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        circles.append(sorted(part))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(edges(child))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])

    for name in sorted(GRAPH):
        if name not in index:
            visit(name)
    assert circles == []
