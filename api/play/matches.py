"""The lobby's request shapes: a new match (one shape per game: its seats, options and bots),
joining (by id, by invite code) and filling seats with bots.

A new match's body is picked by its ``game`` (:func:`validate_variant`); the OpenAPI schema
documents each game's shape as a variant of ``MatchCreateIn``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import serializers

from fibserver.errors import Invalid
from games.engine import registry
from games.engine.bots import bot_levels
from games.engine.fabfib.rules import START_LIFE
from games.engine.fibber.state import MAX_PLAYS, MAX_PLAYS_RANGE, VARIANTS
from games.engine.fibbers_dice.rules import MAX_POINTS, MIN_POINTS
from games.models import Match
from games.timecontrol import TIME_CONTROLS

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


class FabfibOptionsIn(StrictInput):
    life = StrictIntegerField(
        min_value=1,
        max_value=30,
        required=False,
        help_text=f"Starting life (default {START_LIFE}).",
    )


class FibberOptionsIn(StrictInput):
    variant = StrictChoiceField(
        list(VARIANTS), component="FibberVariant", required=False, help_text="Default `standard`."
    )
    max_plays = StrictIntegerField(
        min_value=MAX_PLAYS_RANGE[0],
        max_value=MAX_PLAYS_RANGE[1],
        required=False,
        help_text=f"Standard rules only (422 with `easy`): resolved plays before the safety end "
        f"(default {MAX_PLAYS}).",
    )


class FibbersDiceOptionsIn(StrictInput):
    points = StrictIntegerField(
        min_value=MIN_POINTS,
        max_value=MAX_POINTS,
        required=False,
        help_text="Starting points (default by table size: 3 up to 5 seats, 2 for 6–7, 1 for 8+).",
    )


class SkullOptionsIn(StrictInput):
    two_sets = StrictBooleanField(
        required=False, help_text="Two sets of cards: 7 to 12 seats (without it 3 to 6)."
    )
    two_tribes = StrictBooleanField(
        required=False,
        help_text="Each person plays two seats on opposite sides (an even number of seats).",
    )


OPTIONS_IN: dict[str, type[StrictInput]] = {
    "fabfib": FabfibOptionsIn,
    "fibber": FibberOptionsIn,
    "fibbers_dice": FibbersDiceOptionsIn,
    "skull": SkullOptionsIn,
}
GAME_COMPONENT = {
    "fabfib": "Fabfib",
    "fibber": "Fibber",
    "fibbers_dice": "FibbersDice",
    "skull": "Skull",
}
SEATS_NOTE = {
    "skull": " 7 to 12 seats need `two_sets`, and `two_tribes` an even number (else 422).",
}
ALL_BOT_LEVELS = sorted({level for game in registry.game_ids() for level in bot_levels(game)})
SECONDS_MAX = max(control.max_seconds for control in TIME_CONTROLS.values())


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
        help_text="`live` (75 s per decision, 10–600), `async` (24 h, 1 h–7 days) or `solo` "
        "(you and bots: every other seat must be a bot; you have no deadline).",
    )
    decision_seconds = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=SECONDS_MAX,
        help_text="Seconds per decision within the time control's bounds (else 422); "
        "ignored for `solo`.",
    )
    join = StrictBooleanField(
        default=True, help_text="false: you do not take a seat, and every seat is a bot."
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
            help_text=f"{rules.name}: {lo} to {hi} seats." + SEATS_NOTE.get(game, ""),
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
