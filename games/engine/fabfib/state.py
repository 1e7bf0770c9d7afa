"""FabFib's state and the names its rules, sampler and bots share (phases, statistics)."""

from __future__ import annotations

import dataclasses

from ..core import JSON, BaseState

START_LIFE = 12

STAT_KEYS = (
    "claims",
    "bluffs",
    "bluffs_called",
    "bluffs_passed",
    "calls",
    "calls_right",
    "accepts",
    "damage_taken",
    "damage_dealt",
    "thousands",
)

# Phases: the holder must declare (and, after accepting, may first exchange once) ...
CLAIM = "claim"
# ... or the next player must accept or call the claim, before looking.
RESPOND = "respond"
OVER = "over"
LAST_ALIVE = "last_alive"


@dataclasses.dataclass
class FabFibState(BaseState):
    life: list[int]
    draw_pile: list[int]  # top of the pile is the end of the list
    discard: list[int]
    hand: list[int]  # the three cards in play
    holder: int  # who holds the hand (or, in RESPOND, who passed it on)
    responder: int | None  # who must accept or call (RESPOND only)
    phase: str
    accepted: bool  # the holder got the hand by accepting (so may exchange)
    exchanged: bool  # ... and has already exchanged this turn
    claim: str | None
    round: int
    claims: list[JSON]  # this round's claims, public: {"seat", "claim", "exchanged"}
    memory: list[JSON | None]  # per seat: the last three cards it passed on
    eliminated: list[list[int]]  # groups of seats, in order of elimination
    last_reveal: JSON | None  # public outcome of the last call or 1000
    stats: list[JSON]
