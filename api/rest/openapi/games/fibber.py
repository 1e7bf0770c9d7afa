"""Fibber's view (standard and easy rules): its public and private parts."""

from __future__ import annotations

from games.engine.fibber import state as fibber

from ..builders import (
    BOOL,
    NAT,
    arr,
    boolean,
    define,
    enum,
    integer,
    nullable,
    obj,
    one_of,
    ref,
)
from .actions import CARD_NAME, RANK
from .common import SEAT, SEATS

# --- Fibber ----------------------------------------------------------------------------------

FIBBER_PLAY = define(
    "FibberPlay", obj({"seat": SEAT, "count": integer(1, 24), "rank": RANK}, description="A play.")
)
FIBBER_NOSE = enum("FibberNose", ["plain", "silver"])
_call_common = {
    "caller": SEAT,
    "player": SEAT,
    "count": integer(1, 24),
    "rank": RANK,
    "fib": boolean("Whether the play was a fib."),
    "cards": nullable(arr(CARD_NAME, description="The cards of a true play (a fib is not shown).")),
    "loser": SEAT,
    "nose": FIBBER_NOSE,
}
_fibber_common = {
    "dealer": SEAT,
    "turn": nullable(SEAT),
    "last_play": nullable(FIBBER_PLAY),
    "hand_sizes": arr(NAT),
    "pile": NAT,
    "pile_plays": arr(FIBBER_PLAY),
    "set_aside": NAT,
    "noses": arr(NAT),
    "plays": NAT,
}
FIBBER_STANDARD_PUBLIC = define(
    "FibberStandardPublic",
    obj(
        {
            "variant": ref("FibberStandard"),
            "phase": enum("FibberStandardPhase", [fibber.PLAY, fibber.CALL, fibber.OVER]),
            **_fibber_common,
            "last_call": nullable(
                define(
                    "FibberStandardCall",
                    obj(
                        {"deal": NAT, **_call_common, "pile_taken": NAT},
                        description="The outcome of the latest call.",
                    ),
                )
            ),
            "deal": NAT,
            "silver_nose_rank": nullable(RANK),
            "silver_nose": nullable(SEAT),
            "table_noses": NAT,
            "nose_counts": arr(NAT),
            "waiting": SEATS,
            "passed": SEATS,
            "max_plays": integer(*fibber.MAX_PLAYS_RANGE),
            "end_reason": nullable(enum("FibberEndReason", ["silver_nose", "max_plays"])),
            "called": arr(
                arr(NAT, min_items=2, max_items=2),
                description="Per seat: how many of its plays were called in this match, and "
                "how many of those were fibs.",
            ),
        },
        description="What everyone sees of a Fibber match (standard rules).",
    ),
)
FIBBER_EASY_PUBLIC = define(
    "FibberEasyPublic",
    obj(
        {
            "variant": ref("FibberEasy"),
            "phase": enum("FibberEasyPhase", [fibber.PLAY, fibber.LAST_CALL, fibber.OVER]),
            **_fibber_common,
            "last_call": nullable(
                define(
                    "FibberEasyCall",
                    obj({"round": NAT, **_call_common}, description="The latest call."),
                )
            ),
            "round": NAT,
            "rounds": NAT,
            "rank_in_play": nullable(RANK),
            "can_call": BOOL,
            "scores": arr(NAT),
            "totals": arr(NAT),
        },
        description="What everyone sees of a Fibber match (easy rules).",
    ),
)
FIBBER_PUBLIC = define(
    "FibberPublic",
    one_of({fibber.STANDARD: FIBBER_STANDARD_PUBLIC, fibber.EASY: FIBBER_EASY_PUBLIC}, "variant"),
)
FIBBER_PRIVATE = define(
    "FibberPrivate",
    obj(
        {"hand": arr(CARD_NAME, description="Your cards, sorted by rank.")},
        description="What only you see of a Fibber match.",
    ),
)
