"""Fibber's Dice's view: its public and private parts."""

from __future__ import annotations

from games.engine.fibbers_dice import rules as dice

from ..builders import (
    BOOL,
    NAT,
    arr,
    boolean,
    define,
    described,
    enum,
    integer,
    nullable,
    obj,
    one_of,
    ref,
)
from .actions import SCORE
from .common import SEAT, SEATS
from .fabfib import REVEAL_CALL

# --- Fibber's Dice ---------------------------------------------------------------------------

DICE = arr(integer(1, 6), min_items=2, max_items=2, description="Two dice, high die first.")
_reveal_common = {
    "sequence": NAT,
    "seat": described(SEAT, "The announcer."),
    "score": SCORE,
    "dice": DICE,
    "shown": SCORE,
    "true": boolean("Whether the dice showed at least the announcement."),
    "loser": SEAT,
}
define(
    "FibbersDiceReveal",
    one_of(
        {
            "max": define(
                "FibbersDiceMaxReveal",
                obj(
                    {"kind": enum("RevealMax", ["max"]), **_reveal_common},
                    description="Max was announced: the dice were shown at once.",
                ),
            ),
            "call": define(
                "FibbersDiceCallReveal",
                obj(
                    {"kind": REVEAL_CALL, **_reveal_common, "caller": SEAT},
                    description="A call: the dice were shown.",
                ),
            ),
        },
        "kind",
    ),
)
DICE_PUBLIC = define(
    "FibbersDicePublic",
    obj(
        {
            "sequence": NAT,
            "phase": enum("FibbersDicePhase", [dice.ANNOUNCE, dice.RESPOND, dice.OVER]),
            "points": arr(NAT),
            "out": arr(BOOL),
            "starter": SEAT,
            "current": nullable(SEAT),
            "announcement": nullable(SCORE),
            "announcer": nullable(SEAT),
            "announcements": arr(obj({"seat": SEAT, "score": SCORE})),
            "eliminated": SEATS,
            "last_reveal": nullable(ref("FibbersDiceReveal")),
            "score_order": arr(SCORE, description="Every score, lowest first."),
        },
        {
            "late_entry_open": boolean(
                "Single-round tournament matches only: a late entrant may still join."
            )
        },
        description="What everyone sees of a Fibber's Dice match.",
    ),
)
DICE_PRIVATE = define(
    "FibbersDicePrivate",
    obj(
        {
            "roll": nullable(
                define(
                    "FibbersDiceRoll",
                    obj({"dice": DICE, "score": SCORE}, description="Your roll."),
                )
            )
        },
        description="What only you see of a Fibber's Dice match.",
    ),
)
