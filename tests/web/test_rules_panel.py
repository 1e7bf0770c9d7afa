"""The rules panel of /play/ says what the project's rules pages say: web/static/web/rules.js is
made from the "In short" section of each docs/rules/<game>.md (no browser needed)."""

from __future__ import annotations

from django.core.management import call_command

from games.engine import registry
from web.rules import RULES_JS, panels, rules_js


def test_rules_js_is_made_from_the_rules_pages():
    assert RULES_JS.read_text() == rules_js(), "run `uv run python manage.py web_rules`"
    call_command("web_rules", "--check")


def test_every_game_has_rules_in_short_and_every_variant_its_part():
    found = panels()
    assert set(found) == set(registry.game_ids())
    for game, panel in found.items():
        common = panel["parts"][0]
        assert common["when"] is None and common["blocks"], game
        assert panel["name"] == registry.get(game).name
    whens = {
        (g, tuple(sorted((p["when"] or {}).items()))) for g, v in found.items() for p in v["parts"]
    }
    assert ("fibber", (("variant", "easy"),)) in whens
    assert ("fibber", (("variant", "standard"),)) in whens
    assert ("skull", (("two_sets", True),)) in whens
    assert ("skull", (("two_tribes", True),)) in whens


def test_the_panel_keeps_the_words_and_the_emphasis_of_the_page():
    skull = panels()["skull"]["parts"][0]["blocks"]
    items = next(b["ul"] for b in skull if "ul" in b)
    assert ["Place", True] in items[0]
    text = " ".join(t for b in skull for line in b.get("ul", [b.get("p", [])]) for t, _ in line)
    assert "The rules panel" not in text  # the editor's note is left out
    assert "three flowers and one skull" in text
