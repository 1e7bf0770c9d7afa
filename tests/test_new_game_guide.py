"""docs/new-game.md stays true: what it says a game needs, every registered game has, every file
it names exists, and every per-game table outside the engine is named in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.core import Rules

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "new-game.md").read_text()
GAMES = registry.game_ids()
#: Where a game could be named outside its engine folder (the engine's own tests and docs and
#: the benchmarks' records are per game by design).
SOURCE_ROOTS = ("accounts", "api", "fibserver", "games", "web", "scripts", "deploy")
SOURCE_SUFFIXES = {".py", ".js", ".graphql", ".html", ".css", ".sh", ".conf"}


def named_paths() -> set[str]:
    """Repository paths the guide names (``<game>`` standing for each game)."""
    found = re.findall(
        r"(?<![\w/.])((?:docs|games|api|web|tests|bench|scripts)/[\w/<>.\-]*[\w/])", GUIDE
    )
    assert len(found) > 10
    return set(found)


def test_every_file_the_guide_names_exists():
    missing = []
    for path in sorted(named_paths()):
        for game in GAMES if "<game>" in path else [None]:
            real = path.replace("<game>", game) if game else path
            if not (ROOT / real).exists():
                missing.append(real)
    assert missing == []


def names_every_game(text: str) -> bool:
    return all(re.search(rf"\b{game}\b", text) for game in GAMES)


def test_every_file_outside_the_engine_that_names_every_game_is_in_the_guide():
    tables = []
    for top in SOURCE_ROOTS:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix not in SOURCE_SUFFIXES or rel.startswith("games/engine/"):
                continue
            if "migrations" in path.parts or "static/graphiql" in rel:
                continue
            if names_every_game(path.read_text(errors="replace")):
                tables.append(rel)
    assert "api/play/actions.py" in tables  # the search finds the tables it should
    assert sorted(set(tables) - named_paths()) == []


def test_every_rules_hook_the_guide_lists_is_on_rules_and_every_required_one_is_listed():
    required = set(Rules.__abstractmethods__) | {
        "game_id",
        "name",
        "min_seats",
        "max_seats",
        "state_class",
        "option_examples",
        "bluff_boards",
        "determinize",
    }
    optional = {"alive", "places", "seat_range", "invariants", "explain", "summary"}
    listed = set(re.findall(r"`([a-z_]+)(?:\([^`]*\))?`", GUIDE))
    assert sorted((required | optional) - listed) == []
    assert (
        sorted(
            h
            for h in required | optional
            if not hasattr(Rules, h) and h not in Rules.__annotations__
        )
        == []
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_what_the_guide_lists(game):
    from api.graphql.types import Game
    from api.play import actions, matches
    from api.rest.openapi import games as schemas

    rules = registry.get(game)
    assert rules.game_id == game
    for options in rules.option_examples:  # every option it plays with is declared
        for key in options:
            assert rules.option(key).key == key
    for table in (matches.OPTIONS_IN, matches.GAME_COMPONENT):
        assert game in table
    for table in (schemas.OPTIONS, schemas.PUBLIC, schemas.PRIVATE, schemas.STAT_KEYS):
        assert game in table
    assert game in {member.value for member in Game}
    assert any(game in games for games, _, _ in actions.ACTIONS.values())
    for path in (
        f"games/engine/{game}/rules.py",
        f"games/engine/{game}/sample.py",
        f"games/engine/{game}/bots.py",
        f"games/engine/{game}/expert.py",
        f"api/rest/openapi/games/{game}.py",
        f"docs/rules/{game}.md",
        f"tests/engine/test_{game}.py",
        f"web/static/web/games/{game}.js",
    ):
        assert (ROOT / path).exists(), path
    package_init = (ROOT / "games" / "engine" / game / "__init__.py").read_text()
    assert "bots" in package_init and "expert" in package_init
    assert f"`{game}`" in (ROOT / "docs" / "rules.md").read_text()
    app = (ROOT / "web" / "static" / "web" / "app.js").read_text()
    assert f'from "./games/{game}.js"' in app
    assert re.search(rf"GAMES = \{{[^}}]*\b{game}\b", app)
    assert f'pytest.param(\n        "{game}"' in (ROOT / "tests/web/test_solo.py").read_text() or (
        f'pytest.param("{game}"' in (ROOT / "tests/web/test_solo.py").read_text()
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_guides_simulate_command_runs(game):
    """Step 8's command as written (fewer matches): it runs and reports no errors."""
    import io
    import json
    import shlex

    from django.core.management import call_command

    (command,) = re.findall(r"`uv run python manage\.py (simulate [^`]+)`", GUIDE)
    args = shlex.split(command.replace("<game>", game))[1:]
    args[args.index("--matches") + 1] = "3"
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    summary = json.loads(out.getvalue())
    assert (summary["game"], summary["finished"], summary["errors"]) == (game, 3, 0)
