"""Each game's options, as a match stores them (normalized, every key present), derived from
the engine's declarations (``Rules.options``): one component per game, or per value of a game's
``variant`` option."""

from __future__ import annotations

from api.play.matches import GAME_COMPONENT, component_stem
from games.engine import registry
from games.engine.options import Option

from ..builders import Schema, boolean, define, enum, integer, obj, one_of, ref

VARIANT = "variant"


def _value(game: str, option: Option) -> Schema:
    """The schema of a stored option's value."""
    about = f"{option.about}."
    if option.kind is bool:
        return boolean(about)
    if option.kind is int:
        return integer(option.lo, option.hi, about)
    return enum(GAME_COMPONENT[game] + component_stem(option.key), option.choices, about)


def _component(game: str, name: str, variant: str | None, description: str) -> Schema:
    rules = registry.get(game)
    stored = [o for o in rules.options if o.applies_to(variant) and o.key != VARIANT]
    required = {o.key: _value(game, o) for o in stored if not o.server_only}
    if variant is not None:  # the discriminator: this component's one value
        required = {VARIANT: enum(f"{name.removesuffix('Options')}", [variant]), **required}
    optional = {o.key: _value(game, o) for o in stored if o.server_only} or None
    return define(name, obj(required, optional, description=description))


def _options(game: str) -> tuple[Schema, list[str]]:
    """A game's options component, and the names of the leaf components (one per variant)."""
    rules = registry.get(game)
    stem = GAME_COMPONENT[game]
    variants = [o for o in rules.options if o.key == VARIANT]
    if not variants:
        name = f"{stem}Options"
        return _component(game, name, None, f"{rules.name} options."), [name]
    choice = variants[0]
    enum(stem + component_stem(VARIANT), choice.choices)  # the request field's enum
    leaves = {
        value: _component(
            game, f"{stem}{component_stem(value)}Options", value, f"{rules.name}, {value} rules."
        )
        for value in choice.choices
    }
    names = [f"{stem}{component_stem(value)}Options" for value in choice.choices]
    return define(f"{stem}Options", one_of(leaves, VARIANT)), names


_BUILT = {game: _options(game) for game in registry.game_ids()}
OPTIONS = {game: schema for game, (schema, _names) in _BUILT.items()}
define(
    "MatchOptions",
    {
        "oneOf": [ref(name) for _schema, names in _BUILT.values() for name in names],
        "description": "The match's options, normalized (every option present); which game's "
        "they are is the match's `game`.",
    },
)
