"""Input serializers of the match API: the request shapes the OpenAPI schema documents, checked
exactly as documented (the responses are described in :mod:`api.rest.openapi`).

Strict by design, so that the server accepts exactly what the schema allows and nothing else:

- no coercion: a string field refuses ``0`` (it does not become ``"0"``), an integer field
  refuses ``"1"``, ``1.5`` and ``true`` (``2.0`` is the integer 2, as in JSON Schema), a
  boolean field refuses ``"yes"`` and ``1``;
- no silent trimming: ``" x"`` is validated as sent;
- strings never hold NUL (U+0000), which PostgreSQL cannot store; the schema says so with a
  ``pattern``;
- unknown fields are refused, and the schema says ``additionalProperties: false``.

Everything that fails here is ``400 invalid`` with ``fields`` (field path -> messages). What fits
the shape but not the game (an illegal move, options a table size does not allow) is refused
later by the services with ``422``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from django.core.validators import RegexValidator
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.settings import api_settings

from fibserver.errors import Invalid
from games.engine import registry
from games.engine.bots import bot_levels
from games.engine.fabfib.rules import START_LIFE
from games.engine.fibber.state import MAX_PLAYS, MAX_PLAYS_RANGE, VARIANTS
from games.engine.fibbers_dice.rules import MAX_POINTS, MIN_POINTS
from games.engine.skull import cards as skull_cards
from games.models import Match
from games.timecontrol import TIME_CONTROLS

#: No NUL anywhere in a string (the schema publishes the same pattern).
NO_NUL = r"^[^\x00]*$"
_NO_NUL_VALIDATOR = RegexValidator(re.compile(NO_NUL), "Strings may not contain NUL (U+0000).")


# --- Strict fields ---------------------------------------------------------------------------


class StrictCharField(serializers.CharField):
    """A string, exactly as sent: never coerced from a number, never trimmed, no NUL.

    ``pattern`` (a regular expression, published in the schema too) and ``min_length=1`` unless
    blank strings are allowed."""

    default_error_messages = {"invalid": "Must be a string."}

    def __init__(self, *, pattern: str | None = None, pattern_message: str = "", **kwargs: Any):
        kwargs.setdefault("trim_whitespace", False)
        if not kwargs.get("allow_blank", False):
            kwargs.setdefault("min_length", 1)
        super().__init__(**kwargs)
        # DRF's own NUL validator is not visible to the schema; this one is (as a pattern).
        kept: list[Any] = [
            v
            for v in getattr(self, "validators", [])
            if type(v).__name__ != "ProhibitNullCharactersValidator"
        ]
        if pattern is None:
            kept.append(_NO_NUL_VALIDATOR)
        else:
            kept.append(
                RegexValidator(re.compile(pattern), pattern_message or "Not in the right form.")
            )
        self.validators = kept

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: ``"1"``, ``1.5`` and ``true`` are refused (``2.0`` is the integer 2, as
    JSON Schema reads it)."""

    default_error_messages = {"invalid": "Must be a whole number."}

    def to_internal_value(self, data: Any) -> int:
        if type(data) is float and data.is_integer():
            data = int(data)
        if type(data) is not int:
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean: ``"true"``, ``1`` and ``"yes"`` are refused."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid")
        return data


class StrictChoiceField(serializers.ChoiceField):
    """One of some strings, exactly (``1`` is not ``"1"``).

    ``component`` names the schema component (an enum) that documents the choices, so every
    field with the same choices shares one enum in generated clients."""

    def __init__(self, choices: Any, *, component: str, **kwargs: Any) -> None:
        self.component = component
        super().__init__(choices, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class ConstantField(StrictCharField):
    """The discriminator of a request variant: exactly one string (``{"type": "claim"}``).

    Documented by the single-value enum component ``component``."""

    def __init__(self, value: str, *, component: str, **kwargs: Any) -> None:
        self.value = value
        self.component = component
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data != self.value:
            raise ValidationError(f"Must be {self.value!r}.")
        return self.value

    def to_representation(self, value: Any) -> str:
        # drf-spectacular reads the discriminator value of a variant from here.
        return self.value


# --- Strict serializers ----------------------------------------------------------------------


class StrictInput(serializers.Serializer):
    """A request object: refuses fields it does not declare (``additionalProperties: false``)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise ValidationError({api_settings.NON_FIELD_ERRORS_KEY: ["Must be a JSON object."]})
        errors: dict[str, Any] = {}
        try:
            value = super().to_internal_value(data)
        except ValidationError as error:
            assert isinstance(error.detail, dict)
            errors.update(error.detail)
            value = None
        writable = {name for name, field in self.fields.items() if not field.read_only}
        for name in data:
            if name not in writable:
                errors[str(name)] = [f"Unknown field; this object takes: {_names(writable)}."]
        if errors:
            raise ValidationError(errors)
        return value


def _names(names: set[str]) -> str:
    return ", ".join(sorted(names)) or "no fields"


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as ``{"field.path": [messages]}``."""
    if isinstance(detail, Mapping):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            name = "" if key == api_settings.NON_FIELD_ERRORS_KEY else str(key)
            out.update(_flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name))
        return out
    if isinstance(detail, list) and detail and all(isinstance(d, str) for d in detail):
        return {prefix or "body": [str(d) for d in detail]}
    if isinstance(detail, list):
        out = {}
        for index, value in enumerate(detail):
            if value:
                out.update(_flatten(value, f"{prefix}.{index}" if prefix else str(index)))
        return out
    return {prefix or "body": [str(detail)]}


def validate(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """A request body (or query) checked by its input serializer: the validated values, or
    ``400 invalid`` with ``fields`` mapping each field path to its messages."""
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        fields = _flatten(serializer.errors)
        first = next(iter(fields.items()))
        where = "" if first[0] == "body" else f"'{first[0]}': "
        raise Invalid(f"The request is not valid: {where}{first[1][0]}", fields=fields)
    return dict(serializer.validated_data)


# --- Query parameters ------------------------------------------------------------------------


class QueryBooleanField(serializers.BooleanField):
    """A boolean query parameter: ``true``/``false``/``1``/``0`` (what the schema's boolean
    allows on the wire), nothing else."""

    default_error_messages = {"invalid": "Must be true, false, 1 or 0."}
    WIRE = {"true": True, "1": True, "false": False, "0": False}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, str) or data not in self.WIRE:
            self.fail("invalid")
        return self.WIRE[data]


class QueryIntegerField(serializers.IntegerField):
    """A whole-number query parameter: ASCII digits only (no sign, no ``1e3``, no ``²``)."""

    default_error_messages = {"invalid": "Must be a whole number."}
    _DIGITS = re.compile(r"[0-9]{1,12}")

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not self._DIGITS.fullmatch(data):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class QueryNumberField(serializers.FloatField):
    """A number query parameter as a JSON number is written (``2``, ``1.5``, ``2.5e-1``)."""

    default_error_messages = {"invalid": "Must be a number such as 20 or 1.5."}
    _NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")

    def to_internal_value(self, data: Any) -> float:
        if not isinstance(data, str) or len(data) > 64 or not self._NUMBER.fullmatch(data):
            self.fail("invalid")
        return float(super().to_internal_value(data))


#: Options only an event sets on its rounds (docs/events.md), never a match's creator.
EVENT_OPTIONS = frozenset({"event"})


def _seat_ranges(rules: Any, *, events: bool = False) -> list[tuple[int, int]]:
    return [
        rules.seat_range(options)
        for options in rules.option_examples
        if events or not EVENT_OPTIONS & set(options)
    ]


def seat_span(rules: Any, *, events: bool = False) -> tuple[int, int]:
    """The fewest and most seats a match of the game can be created with, over all its
    options; ``events``: also the rounds of events (Fibber's Dice event rounds seat 64)."""
    ranges = _seat_ranges(rules, events=events)
    return min(lo for lo, _ in ranges), max(hi for _, hi in ranges)


#: Every seat position a match can have (an event round of Fibber's Dice seats 64).
MAX_SEATS = max(seat_span(rules, events=True)[1] for rules in registry.all_rules())
SEAT_MAX = MAX_SEATS - 1


def seat_field(**kwargs: Any) -> QueryIntegerField:
    return QueryIntegerField(min_value=0, max_value=SEAT_MAX, required=False, **kwargs)


class SeatQuery(serializers.Serializer):
    """Query parameters are not refused for being unknown (``limit``, ``offset`` …)."""

    seat = seat_field(
        help_text="Which of your seats to look or act through (Skull two_tribes); not yours: 403."
    )


class PageQuery(serializers.Serializer):
    limit = QueryIntegerField(
        min_value=1, max_value=200, required=False, help_text="Page size (default 50)."
    )
    offset = QueryIntegerField(
        min_value=0, max_value=999_999_999, required=False, help_text="Entries to skip."
    )


class MatchListQuery(serializers.Serializer):
    game = StrictChoiceField(
        registry.game_ids(), component="Game", required=False, help_text="Only this game."
    )
    mine = QueryBooleanField(
        required=False,
        default=False,
        help_text="The caller's matches (seated or hosted), any status; needs a token.",
    )
    status = StrictChoiceField(
        Match.Status.values,
        component="MatchStatus",
        required=False,
        help_text="Only matches in this status (the open list holds only `lobby` matches).",
    )


class EventsQuery(SeatQuery):
    after = QueryIntegerField(
        min_value=0,
        max_value=999_999_999,
        required=False,
        default=0,
        help_text="The last sequence number seen (0: from the start).",
    )
    wait = QueryNumberField(
        min_value=0,
        max_value=30,
        required=False,
        default=0,
        help_text="Seconds to hold the request until news arrive (long-poll), at most 30.",
    )


# --- Lobby -----------------------------------------------------------------------------------


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


# --- Actions ---------------------------------------------------------------------------------

#: Positions into a hand (Fibber hands hold at most the whole deck of 24).
POSITION = {"min_value": 0, "max_value": 23}
CLAIM_PATTERN = r"^[0-9]{3}$"
CLAIM_MESSAGE = 'A claim is three digits sent as a string, such as "772".'


#: Versions are stored as 32-bit integers.
VERSION_MAX = 2**31 - 1


class ActionBase(StrictInput):
    """Every action: its ``type`` and an optional ``expected_version``."""

    action_type: ClassVar[str] = ""

    expected_version = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=VERSION_MAX,
        help_text="The version you acted on; if the match has moved on: 409 stale_version.",
    )


class UniquePositions(serializers.ListField):
    def to_internal_value(self, data: Any) -> list[Any]:
        value = super().to_internal_value(data)
        if len(set(value)) != len(value):
            raise ValidationError("Must not repeat a position.")
        return value


#: action type -> (games, description, parameter fields)
ACTIONS: dict[str, tuple[tuple[str, ...], str, dict[str, Any]]] = {
    "claim": (
        ("fabfib",),
        "Fab Fib: declare a claim, three digits as a string (`value`: one of the entry's "
        '`one_of`, e.g. `"772"`).',
        {
            "value": StrictCharField(
                pattern=CLAIM_PATTERN,
                pattern_message=CLAIM_MESSAGE,
                error_messages={"invalid": CLAIM_MESSAGE},
                help_text='Three digits, highest first (e.g. `"772"`); it must beat the '
                "standing claim.",
            )
        },
    ),
    "exchange": (
        ("fabfib",),
        "Fab Fib: after accepting, exchange 1 to 3 cards once (`cards`: positions 0–2).",
        {
            "cards": UniquePositions(
                child=StrictIntegerField(min_value=0, max_value=2),
                min_length=1,
                max_length=3,
                help_text="Hand positions (0–2), no repeats.",
            )
        },
    ),
    "accept": (("fabfib",), "Fab Fib: accept the claim and look at the cards.", {}),
    "call": (
        ("fabfib", "fibber", "fibbers_dice"),
        "Fab Fib, Fibber, Fibber's Dice: call the claim, play or announcement.",
        {},
    ),
    "play": (
        ("fibber",),
        "Fibber: play cards by hand position; with the `easy` variant exactly one card and "
        "the `rank` announced.",
        {
            "cards": UniquePositions(
                child=StrictIntegerField(**POSITION),
                min_length=1,
                max_length=24,
                help_text="Hand positions (the hand is sorted by rank), no repeats.",
            ),
            "rank": StrictCharField(
                required=False,
                max_length=16,
                help_text="Easy variant only: the rank announced (`bigfoot`, `ghost`, "
                "`alien`, `witch`, `dragon`).",
            ),
        },
    ),
    "pass": (("fibber", "skull"), "Fibber: let the play stand. Skull: leave the bidding.", {}),
    "announce": (
        ("fibbers_dice",),
        'Fibber\'s Dice: announce a score (`"31"` … `"65"`, `"double 1s"` … '
        '`"double 6s"`, `"max"`).',
        {
            "score": StrictCharField(
                max_length=32,
                error_messages={
                    "invalid": 'Send the score as a string, such as "64", "double 3s" or "max".'
                },
                help_text='A score id such as `"62"`, `"double 3s"` or `"max"`; it must '
                "beat the standing announcement.",
            )
        },
    ),
    "believe": (("fibbers_dice",), "Fibber's Dice: believe the announcement and roll.", {}),
    "place": (
        ("skull",),
        "Skull: place your first card face down (preparation).",
        {"card": StrictChoiceField(skull_cards.KINDS, component="SkullCard")},
    ),
    "add": (
        ("skull",),
        "Skull: add a card on top of your stack.",
        {"card": StrictChoiceField(skull_cards.KINDS, component="SkullCard")},
    ),
    "bid": (
        ("skull",),
        "Skull: bid how many cards you will reveal without a skull.",
        {"count": StrictIntegerField(min_value=1, max_value=MAX_SEATS * 4)},
    ),
    "reveal": (
        ("skull",),
        "Skull: as the challenger, reveal the top card of another player's stack.",
        {"seat": StrictIntegerField(min_value=0, max_value=SEAT_MAX)},
    ),
    "choose_starter": (
        ("skull",),
        "Skull: knocked out by your own skull, choose who starts the next round.",
        {"seat": StrictIntegerField(min_value=0, max_value=SEAT_MAX)},
    ),
}


def type_component(action_type: str) -> str:
    """``choose_starter`` -> ``ChooseStarter``: the stem of an action's component names."""
    return "".join(part.capitalize() for part in action_type.split("_"))


def _action_variant(action_type: str) -> type[ActionBase]:
    _games, description, params = ACTIONS[action_type]
    stem = type_component(action_type)
    fields: dict[str, Any] = {
        "action_type": action_type,
        "type": ConstantField(action_type, component=f"{stem}Type"),
        **{name: copy.deepcopy(field) for name, field in params.items()},
        "Meta": type("Meta", (), {"ref_name": f"{stem}ActionIn"}),
        "__doc__": description,
        "__module__": __name__,
    }
    return type(f"{stem}ActionIn", (ActionBase,), fields)


ACTION_IN: dict[str, type[ActionBase]] = {name: _action_variant(name) for name in ACTIONS}
ACTION_TYPES = sorted(ACTION_IN)


def validate_action(body: Any) -> tuple[dict[str, Any], int | None]:
    """The action a request body holds and its ``expected_version``; ``400 invalid`` when it
    does not fit one of the action shapes (the game's rules judge it afterwards)."""
    if not isinstance(body, Mapping):
        raise Invalid(
            'The body must be a JSON object such as {"type": "call"}.',
            fields={"body": ["Must be a JSON object."]},
        )
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in ACTION_IN:
        message = f"Must be one of: {', '.join(ACTION_TYPES)}."
        if "type" not in body:
            message = "This field is required: " + message
        raise Invalid(f"The request is not valid: 'type': {message}", fields={"type": [message]})
    try:
        data = dict(_action_checker(kind).run_validation(body))
    except ValidationError:
        data = validate(ACTION_IN[kind], body)  # raises the one error shape
    expected = data.pop("expected_version", None)
    return {"type": kind, **data}, expected


_CHECKERS: dict[str, ActionBase] = {}


def _action_checker(kind: str) -> ActionBase:
    """One serializer per action type, kept: ``run_validation`` is what ``is_valid`` runs,
    and it keeps nothing on the serializer, so a valid body is checked without building the
    serializer and copying its fields again (an invalid one goes through :func:`validate`)."""
    found = _CHECKERS.get(kind)
    if found is None:
        found = _CHECKERS[kind] = ACTION_IN[kind]()
    return found
