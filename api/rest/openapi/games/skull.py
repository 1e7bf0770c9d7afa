"""Skull's view: its public and private parts."""

from __future__ import annotations

from games.engine.skull import cards as skull_cards
from games.engine.skull import rules as skull

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
)
from .actions import SKULL_CARD
from .common import SEAT, SEATS

# --- Skull -----------------------------------------------------------------------------------

SKULL_CARDS = arr(SKULL_CARD)
SKULL_REVEAL = define("SkullReveal", obj({"seat": SEAT, "card": SKULL_CARD}))
SKULL_PUBLIC = define(
    "SkullPublic",
    obj(
        {
            "round": NAT,
            "phase": enum(
                "SkullPhase",
                [
                    skull.PREPARE,
                    skull.TURN,
                    skull.BID,
                    skull.REVEAL,
                    skull.CHOOSE_STARTER,
                    skull.OVER,
                ],
            ),
            "starter": SEAT,
            "current": nullable(SEAT),
            "people": arr(NAT, description="The person playing each seat (two_tribes)."),
            "out": arr(BOOL),
            "eliminated": SEATS,
            "successes": arr(integer(0, skull.WINS_NEEDED)),
            "mats": arr(SKULL_CARD, description="The side each mat shows."),
            "cards": arr(integer(0, skull_cards.CARDS_PER_PLAYER)),
            "hand_sizes": arr(integer(0, skull_cards.CARDS_PER_PLAYER)),
            "stacks": arr(
                obj(
                    {
                        "height": integer(0, skull_cards.CARDS_PER_PLAYER),
                        "revealed": arr(SKULL_CARD, description="Revealed cards, top first."),
                    }
                )
            ),
            "placed": arr(BOOL),
            "on_mats": NAT,
            "skull_known": arr(
                nullable(boolean("Whether the seat still holds its skull; null: unknown."))
            ),
            "bid": nullable(integer(1)),
            "bidder": nullable(SEAT),
            "passed": arr(BOOL),
            "bids": arr(
                {
                    "oneOf": [
                        obj({"seat": SEAT, "count": integer(1)}, description="A bid."),
                        obj({"seat": SEAT, "pass": BOOL}, description="A pass."),
                    ]
                }
            ),
            "challenger": nullable(SEAT),
            "reveals": arr(SKULL_REVEAL),
            "flowers_revealed": NAT,
            "last_challenge": nullable(
                define(
                    "SkullChallenge",
                    obj(
                        {
                            "round": NAT,
                            "challenger": SEAT,
                            "bid": integer(1),
                            "success": BOOL,
                            "skull_owner": nullable(SEAT),
                            "reveals": arr(SKULL_REVEAL),
                        },
                        description="The outcome of the previous challenge.",
                    ),
                )
            ),
            "winner": nullable(SEAT),
            "end": nullable(
                enum(
                    "SkullEnd",
                    [skull.TWO_SUCCESSES, skull.LAST_STANDING, skull.LAST_PERSON_STANDING],
                )
            ),
        },
        description="What everyone sees of a Skull match.",
    ),
)
SKULL_PRIVATE = define(
    "SkullPrivate",
    obj(
        {
            "hand": SKULL_CARDS,
            "stack": described(SKULL_CARDS, "Your stack, bottom card first."),
            "lost": SKULL_CARDS,
            "has_skull": BOOL,
        },
        description="What only you see of a Skull match.",
    ),
)
