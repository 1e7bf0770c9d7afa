"""The action shapes a move can take, one declaration each, and the ``Idempotency-Key``.

An action is ``{"type": ..., "<param>": value, ...}`` with an optional ``expected_version``:
:func:`validate_action` checks a body against the shape its ``type`` names (``400 invalid``
when it fits none); the game's rules judge it afterwards (``422``). The OpenAPI schema
documents each shape as a variant of ``ActionIn``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from games.engine.skull import cards as skull_cards
from kernel.errors import Invalid

from .fields import (
    ConstantField,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    validate,
)
from .queries import MAX_SEATS, SEAT_MAX

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


# --- Idempotency-Key ---------------------------------------------------------------------------

IDEMPOTENCY_KEY_MAX = 128
IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x7e]{1,128}$"
_IDEMPOTENCY_KEY_RE = re.compile(IDEMPOTENCY_KEY_PATTERN)


def idempotency_key(key: str | None) -> str | None:
    """An ``Idempotency-Key`` as the schema documents it, or ``400 invalid``."""
    if key is not None and not _IDEMPOTENCY_KEY_RE.fullmatch(key):
        message = f"Must be 1 to {IDEMPOTENCY_KEY_MAX} visible ASCII characters."
        raise Invalid(f"Idempotency-Key: {message}", fields={"Idempotency-Key": [message]})
    return key
