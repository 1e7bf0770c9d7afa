"""The lobby's request shapes: a new match (one shape per game: its seats, options and bots),
joining (by id, by invite code) and filling seats with bots.

A new match's body is picked by its ``game`` (:func:`validate_variant`); the OpenAPI schema
documents each game's shape as a variant of ``MatchCreateIn``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import serializers

from games.engine import registry
from games.engine.bots import bot_levels
from games.engine.options import Option
from games.models import Match
from games.timecontrol import TIME_CONTROLS
from kernel.errors import Invalid, InvalidOptions

from .fields import (
    ConstantField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    validate,
)
from .queries import MAX_SEATS, seat_span


def component_stem(game: str) -> str:
    """``fibbers_dice`` -> ``FibbersDice``: the stem of a game's schema component names."""
    return "".join(part.capitalize() for part in game.split("_"))


GAME_COMPONENT = {game: component_stem(game) for game in registry.game_ids()}


def option_help(option: Option) -> str:
    """What a match's creator reads of an option: what it is, when it applies, its default."""
    text = option.about
    if option.note:
        text = f"{option.note}: {text[0].lower()}{text[1:]}"
    default = option.default_text()
    return f"{text} (default {default})." if default else f"{text}."


def option_field(game: str, option: Option) -> serializers.Field:
    """The request field of one of a game's options, from its declaration in the engine."""
    common: dict[str, Any] = {"required": False, "help_text": option_help(option)}
    if option.kind is bool:
        return StrictBooleanField(**common)
    if option.kind is int:
        return StrictIntegerField(min_value=option.lo, max_value=option.hi, **common)
    component = GAME_COMPONENT[game] + component_stem(option.key)
    return StrictChoiceField(list(option.choices), component=component, **common)


def _options_in(game: str) -> type[StrictInput]:
    """A game's options as a creator may send them (every option the engine declares but those
    only the server sets)."""
    rules = registry.get(game)
    fields: dict[str, Any] = {
        option.key: option_field(game, option) for option in rules.options if not option.server_only
    }
    name = f"{GAME_COMPONENT[game]}OptionsIn"
    return type(name, (StrictInput,), {**fields, "__module__": __name__})


OPTIONS_IN: dict[str, type[StrictInput]] = {game: _options_in(game) for game in registry.game_ids()}


def options_summary() -> str:
    """Every game's options in one line each, from the engine's declarations (GraphQL's
    ``options`` argument, a JSON object, is described with it)."""
    lines = []
    for game in registry.game_ids():
        rules = registry.get(game)
        shown = [o for o in rules.options if not o.server_only]
        parts = [f"`{o.key}` ({_domain(o)}): {option_help(o)}" for o in shown]
        lines.append(f"{game}: " + (" ".join(parts) if parts else "none."))
    return " ".join(lines)


def _domain(option: Option) -> str:
    if option.kind is bool:
        return "true or false"
    if option.kind is int:
        return f"{option.lo}–{option.hi}"
    return " or ".join(f"`{choice}`" for choice in option.choices)


ALL_BOT_LEVELS = sorted({level for game in registry.game_ids() for level in bot_levels(game)})
SECONDS_MAX = max(control.max_seconds for control in TIME_CONTROLS.values())
#: Each time control's bounds of ``decision_seconds``, as its field's description says them.
SECONDS_BOUNDS = ", ".join(
    f"`{c.name}` {c.min_seconds}–{c.max_seconds}"
    for c in TIME_CONTROLS.values()
    if c.humans_have_deadlines
)


class DecisionSecondsField(StrictIntegerField):
    """Seconds per decision (optional). Its bounds are the time control's, what one field means
    for another, which the services refuse with ``422 invalid_options``; so a whole number
    outside the schema's overall bounds (1 to ``SECONDS_MAX``) is refused the same way here, not
    with ``400 invalid``: both ends of the range answer alike. Anything but a whole number is
    still ``400 invalid``."""

    def __init__(self, *, about: str = "", **kwargs: Any) -> None:
        help_text = (
            f"Seconds per decision within the time control's bounds ({SECONDS_BOUNDS}); "
            f"outside them, below or above: 422 `invalid_options`.{about}"
        )
        super().__init__(
            required=False,
            allow_null=True,
            default=None,
            min_value=1,
            max_value=SECONDS_MAX,
            help_text=help_text,
            **kwargs,
        )

    def to_internal_value(self, data: Any) -> int:
        seconds = super().to_internal_value(data)
        if not 1 <= seconds <= SECONDS_MAX:
            raise InvalidOptions(
                f"decision_seconds must be within its time control's bounds: {SECONDS_BOUNDS}.",
                field="decision_seconds",
            )
        return seconds


class MatchCreateBase(StrictInput):
    """The fields every game's create request shares (see the per-game variants)."""

    game_id: ClassVar[str] = ""

    visibility = StrictChoiceField(
        Match.Visibility.values,
        component="Visibility",
        default="public",
        help_text="`private`: not listed; others join with the invite code.",
    )
    time_control = StrictChoiceField(
        list(TIME_CONTROLS),
        component="TimeControl",
        default="live",
        help_text="`live` (75 s per decision, 10–600), `async` (24 h, 1 h–14 days) or `solo` "
        "(you and bots: every other seat must be a bot; you have no deadline).",
    )
    decision_seconds = DecisionSecondsField(about=" Ignored for `solo`.")
    join = StrictBooleanField(
        default=True, help_text="false: you do not take a seat, and every seat is a bot."
    )
    rated = StrictBooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Whether the match changes ratings (docs/ratings.md). Absent or null: rated "
        "whenever it can be, i.e. a place is left for another player (not `solo`, not all "
        "bots); `true` for a match that cannot be rated: 422. A match that starts with one "
        "player and bots is unrated.",
    )


def _create_variant(game: str) -> type[MatchCreateBase]:
    rules = registry.get(game)
    lo, hi = seat_span(rules)
    name = GAME_COMPONENT[game]
    levels = bot_levels(game)
    played_by = f"{rules.name} is played by {lo} to {hi} seats."
    fields: dict[str, Any] = {
        "game_id": game,
        "game": ConstantField(game, component=f"{name}Game"),
        "seats": StrictIntegerField(
            min_value=lo,
            max_value=hi,
            help_text=f"{rules.name}: {lo} to {hi} seats."
            + (f" {rules.seats_note}" if rules.seats_note else ""),
            error_messages={"min_value": played_by, "max_value": played_by},
        ),
        "options": OPTIONS_IN[game](required=False),
        "bots": serializers.ListField(
            child=StrictChoiceField(levels, component="BotLevel"),
            required=False,
            default=list,
            max_length=hi,
            help_text="A bot level for each bot seat, filled after yours; they must fit the "
            "table, and a `solo` match or one you do not join is all bots (else 422).",
        ),
        "Meta": type("Meta", (), {"ref_name": f"{name}MatchCreateIn"}),
        "__doc__": f"Create a {rules.name} match.",
        "__module__": __name__,
    }
    return type(f"{name}MatchCreateIn", (MatchCreateBase,), fields)


MATCH_CREATE_IN: dict[str, type[MatchCreateBase]] = {
    game: _create_variant(game) for game in registry.game_ids()
}


class JoinIn(StrictInput):
    invite_code = StrictCharField(
        required=False, max_length=16, help_text="Needed for a private match."
    )


class JoinByCodeIn(StrictInput):
    invite_code = StrictCharField(max_length=16)


class BotsIn(StrictInput):
    level = StrictChoiceField(ALL_BOT_LEVELS, component="BotLevel", default="random")
    count = StrictIntegerField(
        min_value=1,
        max_value=MAX_SEATS,
        default=1,
        help_text="How many free places to fill (at most the free places, else 409).",
    )


def validate_variant(body: Any, key: str, variants: dict[str, type]) -> dict[str, Any]:
    """A body whose ``key`` picks its shape (``game`` of a new match)."""
    if not isinstance(body, dict):
        raise Invalid(
            "The body must be a JSON object.", fields={"body": ["Must be a JSON object."]}
        )
    value = body.get(key)
    if not isinstance(value, str) or value not in variants:
        message = f"Must be one of: {', '.join(variants)}."
        if key not in body:
            message = "This field is required. " + message
        raise Invalid(f"The request is not valid: '{key}': {message}", fields={key: [message]})
    return validate(variants[value], body)


def validate_create(body: Any) -> dict[str, Any]:
    """A new match's body, checked by the shape of its ``game``."""
    return validate_variant(body, "game", MATCH_CREATE_IN)
