"""Fibber's state and the names shared by the standard and the easy rules."""

from __future__ import annotations

import dataclasses

from ..core import JSON, BaseState

STANDARD = "standard"
EASY = "easy"
VARIANTS = (STANDARD, EASY)
MAX_PLAYS = 300
MAX_PLAYS_RANGE = (50, 2000)
#: How a match ends: the Silver Nose handed out, the safety end (standard), five rounds (easy).
SILVER_NOSE, SAFETY_END, ROUNDS_PLAYED = "silver_nose", "max_plays", "rounds"
END_REASONS = (SILVER_NOSE, SAFETY_END, ROUNDS_PLAYED)

STAT_KEYS = (
    "plays",
    "fibs",
    "fibs_called",
    "fibs_stood",
    "calls",
    "calls_right",
    "noses_taken",
    "hands_emptied",
)
#: The easy rules have no "hand emptied" moment (every hand empties every round).
EASY_STAT_KEYS = STAT_KEYS[:-1]

# Phases. PLAY: ``turn`` must play (easy: or call the last play).
PLAY = "play"
# CALL (standard): every other seat still in ``waiting`` answers call or pass.
CALL = "call"
# LAST_CALL (easy): every hand is empty; ``turn`` may call the last card or pass.
LAST_CALL = "last_call"
OVER = "over"


@dataclasses.dataclass
class FibberState(BaseState):
    phase: str
    hands: list[list[int]]  # per seat, sorted card ids
    pile: list[int]  # the face-down discard pile, oldest first
    set_aside: list[int]  # five players: the four undealt cards, face down
    dealer: int
    deal: int  # deals so far (easy: the round number)
    turn: int  # PLAY: who plays; CALL: who played; LAST_CALL: who may call
    rank: int | None  # standard: the Silver Nose's rank; easy: the rank in play (None: lead)
    last_play: JSON | None  # public: {"seat", "count", "rank"} of the latest play
    waiting: list[int]  # CALL: seats yet to answer, clockwise from the player
    passed: list[int]  # CALL: seats that passed
    can_call: bool  # easy PLAY: ``turn`` may call the last play
    noses: list[int]  # standard: plain noses worn; easy: noses taken this round
    silver: int | None  # standard: the seat wearing the Silver Nose
    table_noses: int  # standard: plain noses left on the table
    scores: list[int]  # easy: noses of finished rounds
    plays: int  # plays resolved (standard: call window closed)
    pile_plays: list[JSON]  # public: the plays whose cards are in the pile
    last_call: JSON | None  # public outcome of the latest call
    end_reason: str | None
    stats: list[JSON]
    #: standard, public: per seat, [plays of theirs called, of which fibs] in this match
    #: (empty in states saved before it was kept: read through ``Fibber.called``)
    called: list[list[int]] = dataclasses.field(default_factory=list)
