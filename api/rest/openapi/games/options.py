"""Each game's options, as a match stores them (normalized, every key present)."""

from __future__ import annotations

from games.engine.fibber import state as fibber
from games.engine.fibbers_dice import rules as dice
from games.engine.skull import rules as skull

from ..builders import (
    boolean,
    define,
    enum,
    integer,
    obj,
    one_of,
    ref,
)

# --- Options (as a match stores them: normalized, every key present) -------------------------

FIBBER_VARIANT = enum("FibberVariant", list(fibber.VARIANTS))
OPTIONS = {
    "fabfib": define(
        "FabfibOptions",
        obj({"life": integer(1, 30, "Starting life.")}, description="Fab Fib options."),
    ),
    "fibber": define(
        "FibberOptions",
        one_of(
            {
                fibber.STANDARD: define(
                    "FibberStandardOptions",
                    obj(
                        {
                            "variant": enum("FibberStandard", [fibber.STANDARD]),
                            "max_plays": integer(*fibber.MAX_PLAYS_RANGE),
                        },
                        description="Fibber, standard rules.",
                    ),
                ),
                fibber.EASY: define(
                    "FibberEasyOptions",
                    obj(
                        {"variant": enum("FibberEasy", [fibber.EASY])},
                        description="Fibber, easy rules.",
                    ),
                ),
            },
            "variant",
        ),
    ),
    "fibbers_dice": define(
        "FibbersDiceOptions",
        obj(
            {"points": integer(dice.MIN_POINTS, dice.MAX_POINTS, "Starting points.")},
            {
                "event": enum(
                    "FibbersDiceEvent",
                    dice.EVENT_KINDS,
                    "A round of an event (docs/events.md), set by the event: `single` takes "
                    "late entrants, `round` seats up to 64.",
                )
            },
            description="Fibber's Dice options.",
        ),
    ),
    "skull": define(
        "SkullOptions",
        obj(
            {key: boolean() for key in skull.OPTION_KEYS},
            description="Skull options.",
        ),
    ),
}
define(
    "MatchOptions",
    {
        "oneOf": [
            ref("FabfibOptions"),
            ref("FibberStandardOptions"),
            ref("FibberEasyOptions"),
            ref("FibbersDiceOptions"),
            ref("SkullOptions"),
        ],
        "description": "The match's options, normalized (every option present); which game's "
        "they are is the match's `game`.",
    },
)
