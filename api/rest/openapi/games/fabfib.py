"""Fab Fib's view: its public and private parts."""

from __future__ import annotations

from games.engine.fabfib import rules as fabfib

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
from .actions import CLAIM
from .common import SEAT, SEATS

# --- Fab Fib ---------------------------------------------------------------------------------

FABFIB_CARD = define(
    "FabfibCard",
    obj({"digit": integer(0, 9), "skulls": integer(1, 3)}, description="A Fab Fib card."),
)
THREE_CARDS = arr(FABFIB_CARD, min_items=3, max_items=3)
REVEAL_CALL = enum("RevealCall", ["call"])
fabfib_reveal = one_of(
    {
        "call": define(
            "FabfibCallReveal",
            obj(
                {
                    "kind": REVEAL_CALL,
                    "round": NAT,
                    "caller": SEAT,
                    "claimant": SEAT,
                    "claim": CLAIM,
                    "cards": THREE_CARDS,
                    "true": boolean("Whether the claim was true."),
                    "loser": SEAT,
                    "damage": NAT,
                },
                description="A call: the cards were revealed.",
            ),
        ),
        "thousand": define(
            "FabfibThousandReveal",
            obj(
                {
                    "kind": enum("RevealThousand", ["thousand"]),
                    "round": NAT,
                    "seat": SEAT,
                    "moment": enum("FabfibThousandMoment", ["draw", "accept", "exchange"]),
                    "cards": THREE_CARDS,
                    "damage": NAT,
                    "victims": SEATS,
                },
                description="Three zeros, the special 1000: revealed the moment they are held.",
            ),
        ),
    },
    "kind",
)
define("FabfibReveal", fabfib_reveal)
FABFIB_PUBLIC = define(
    "FabfibPublic",
    obj(
        {
            "round": NAT,
            "phase": enum("FabfibPhase", [fabfib.CLAIM, fabfib.RESPOND, fabfib.OVER]),
            "life": arr(NAT),
            "out": arr(BOOL),
            "holder": SEAT,
            "responder": nullable(SEAT),
            "claim": nullable(CLAIM),
            "claims": arr(
                obj(
                    {"seat": SEAT, "exchanged": integer(0, 3)},
                    {"claim": CLAIM},
                    description="A turn of this round: who held the hand, how many cards "
                    "they exchanged, and their claim once made.",
                )
            ),
            "may_exchange": BOOL,
            "draw_pile": NAT,
            "discard_pile": NAT,
            "eliminated": arr(SEATS, description="Seats out, in groups, in order."),
            "last_reveal": nullable(ref("FabfibReveal")),
        },
        description="What everyone sees of a Fab Fib match.",
    ),
)
FABFIB_PRIVATE = define(
    "FabfibPrivate",
    obj(
        {
            "hand": nullable(described(THREE_CARDS, "The hand, while you hold it and must claim.")),
            "memory": nullable(
                define(
                    "FabfibMemory",
                    obj(
                        {
                            "cards": THREE_CARDS,
                            "round": NAT,
                            "claim": CLAIM,
                            "possibly_changed": BOOL,
                        },
                        description="The last three cards you passed on, and your claim.",
                    ),
                )
            ),
        },
        description="What only you see of a Fab Fib match.",
    ),
)
