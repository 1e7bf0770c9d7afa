"""A game's options are declared once, in its engine (``Rules.options``): the request fields,
the OpenAPI components and the engine's own checks all follow that declaration."""

from __future__ import annotations

import pytest

from api.play.matches import OPTIONS_IN, option_help
from api.rest.openapi.builders import COMPONENTS
from api.rest.openapi.games import OPTIONS
from games.engine import registry
from games.engine.core import InvalidOptions
from games.engine.options import CHOSEN

CASES = [(game, option) for game in registry.game_ids() for option in registry.get(game).options]


def stored_property(game: str, key: str) -> dict:
    """The option's schema in the game's stored-options component (any variant's)."""
    name = OPTIONS[game]["$ref"].rsplit("/", 1)[-1]
    schema = COMPONENTS[name]
    leaves = [COMPONENTS[b["$ref"].rsplit("/", 1)[-1]] for b in schema.get("oneOf", [])] or [schema]
    found = [leaf["properties"][key] for leaf in leaves if key in leaf["properties"]]
    assert found, (game, key)
    prop = found[0]
    return COMPONENTS[prop["$ref"].rsplit("/", 1)[-1]] if "$ref" in prop else prop


@pytest.mark.parametrize(("game", "option"), CASES, ids=lambda c: getattr(c, "key", c))
def test_the_request_field_and_the_schema_follow_the_engines_declaration(game, option):
    fields = OPTIONS_IN[game]().fields
    if option.server_only:
        assert option.key not in fields  # never a creator's to send
    else:
        field = fields[option.key]
        assert field.help_text == option_help(option)
        if option.kind is int:
            assert (field.min_value, field.max_value) == (option.lo, option.hi)
        elif option.kind is str:
            assert list(field.choices) == list(option.choices)
    if option.key == "variant":
        return  # the discriminator of the stored components, one value each
    prop = stored_property(game, option.key)
    if option.kind is int:
        assert (prop["minimum"], prop["maximum"]) == (option.lo, option.hi)
    elif option.kind is bool:
        assert prop["type"] == "boolean"
    else:
        assert prop["enum"] == list(option.choices)


@pytest.mark.parametrize(("game", "option"), CASES, ids=lambda c: getattr(c, "key", c))
def test_the_engine_checks_each_option_by_its_declaration(game, option):
    rules = registry.get(game)
    seats = rules.min_seats if game != "skull" else 4
    base = {"variant": option.variants[0]} if option.variants else {}
    if option.kind is int:
        good, bad = option.hi, option.hi + 1
    elif option.kind is bool:
        good, bad = True, "yes"
    else:
        good, bad = option.choices[-1], "nope"
    with pytest.raises(InvalidOptions, match=f"'{option.key}'"):
        rules.normalize_options(seats, {**base, option.key: bad})
    if option.key == "two_sets":
        seats = 8
    normalized = rules.normalize_options(seats, {**base, option.key: good})
    assert normalized[option.key] == good
    absent = rules.normalize_options(seats if option.key != "two_sets" else 4, dict(base))
    if option.default is None:
        assert option.key not in absent
    elif option.default is not CHOSEN:
        assert absent[option.key] == option.default
