"""The committed SDL (api/graphql/schema.graphql) is the schema the code serves."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from api.graphql.types import EndReason, Game
from api.management.commands.graphql_schema import SDL_PATH, current_sdl
from games.engine import registry


def test_the_committed_sdl_matches_the_code():
    assert SDL_PATH.read_text() == current_sdl(), (
        "api/graphql/schema.graphql drifted from the code: run "
        "`uv run python manage.py graphql_schema` and commit the file"
    )
    call_command("graphql_schema", "--check")


def test_the_check_fails_on_drift(tmp_path, monkeypatch):
    stale = tmp_path / "schema.graphql"
    stale.write_text("type Query { old: Int }\n")
    monkeypatch.setattr("api.management.commands.graphql_schema.SDL_PATH", stale)
    with pytest.raises(CommandError, match="out of date"):
        call_command("graphql_schema", "--check")
    call_command("graphql_schema")
    assert stale.read_text() == current_sdl()


def test_the_game_enum_lists_every_registered_game():
    assert sorted(g.value for g in Game) == sorted(registry.game_ids())


def test_the_end_reason_enum_names_every_way_a_match_can_end():
    engine = {r for rules in registry.all_rules() for r in rules.end_reasons}
    server = {"abandoned", "aborted_by_staff", "completed"}
    assert {e.value for e in EndReason} == engine | server
