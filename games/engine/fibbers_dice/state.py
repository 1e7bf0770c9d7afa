"""FibbersDice's state and the names its rules, sampler and bots share (phases, statistics)."""

from __future__ import annotations

import dataclasses

from ..core import JSON, BaseState

STAT_KEYS = (
    "announcements",
    "fibs",
    "fibs_called",
    "fibs_passed",
    "calls",
    "calls_right",
    "points_lost",
    "max_rolls",
)

# Phases: the seat to act has rolled and must announce ...
ANNOUNCE = "announce"
# ... or must believe or call the standing announcement, before rolling.
RESPOND = "respond"
OVER = "over"
LAST_STANDING = "last_standing"


def default_points(seats: int) -> int:
    """Starting points by table size: up to 5 players 3, 6–7 players 2, 8 or more 1."""
    if seats <= 5:
        return 3
    if seats <= 7:
        return 2
    return 1


@dataclasses.dataclass
class FibbersDiceState(BaseState):
    points: list[int]
    phase: str
    current: int  # the seat to act: the roller (ANNOUNCE) or the responder (RESPOND)
    starter: int  # who started this sequence
    sequence: int
    rolls: list[list[int] | None]  # each seat's roll in this sequence, [high, low]; hidden
    announcements: list[JSON]  # this sequence, public: {"seat", "score"}
    announcement: str | None  # the standing announcement
    announcer: int | None  # who made it
    eliminated: list[int]  # seats in order of elimination
    last_reveal: JSON | None  # public outcome of the last call or Max
    stats: list[JSON]
    #: Single-round events only: the turns each seat has taken (a turn is a starter's opening
    #: announcement, or a response, believe or call), and the match's first starter (the host's
    #: die). Late entry closes as the first starter's second turn comes. ``None`` (and left out
    #: of the stored state) in every other match.
    turns: list[int] | None = None
    first_starter: int | None = None
