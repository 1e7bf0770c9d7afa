"""Skull's state and the names its rules, sampler and bots share (phases, statistics)."""

from __future__ import annotations

import dataclasses

from ..core import JSON, BaseState
from . import cards as C

STAT_KEYS = (
    "skulls_placed",
    "bids",
    "bids_with_own_skull",
    "challenges_won",
    "challenges_lost",
    "skulls_sprung",
    "cards_lost",
)

OPTION_KEYS = ("two_sets", "two_tribes")

# Phases. Everyone still in who has not placed must place a card (simultaneously) ...
PREPARE = "prepare"
# ... then, one at a time, add a card or start the bidding ...
TURN = "turn"
# ... raise or pass ...
BID = "bid"
# ... the challenger chooses stacks to reveal from ...
REVEAL = "reveal"
# ... and a challenger knocked out by their own skull chooses the next starter.
CHOOSE_STARTER = "choose_starter"
OVER = "over"

WINS_NEEDED = 2
FULL_SET = list(C.FULL_SET)

# Ways a match ends.
TWO_SUCCESSES = "two_successes"
LAST_STANDING = "last_standing"
LAST_PERSON_STANDING = "last_person_standing"  # two_tribes: only one person's tribes remain


@dataclasses.dataclass
class SkullState(BaseState):
    phase: str
    round: int
    starter: int  # who starts this round's turns (the preparation step is simultaneous)
    current: int | None  # who must act in TURN, BID, REVEAL (challenger), CHOOSE_STARTER
    hands: list[list[str]]  # per seat, kinds in canonical order
    stacks: list[list[str]]  # per seat, bottom card first
    lost: list[list[str]]  # per seat, the cards lost, in order (each known only to its owner)
    successes: list[int]
    eliminated: list[int]  # seats in order of elimination
    skull_known: list[bool | None]  # public knowledge: holds a skull / holds none / unknown
    bid: int | None
    bidder: int | None
    passed: list[bool]
    bids: list[JSON]  # this round's bidding, public: {"seat", "count"} or {"seat", "pass"}
    challenger: int | None
    revealed: list[int]  # per seat: cards revealed from the top of the stack this round
    reveals: list[JSON]  # this round's reveals in order, public: {"seat", "card"}
    last_challenge: JSON | None  # public outcome of the previous challenge
    winner: int | None
    end: str | None
    stats: list[JSON]
