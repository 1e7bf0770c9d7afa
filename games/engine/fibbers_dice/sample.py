"""Fibber's Dice determinization: other seats' dice of this sequence, drawn at random.

The view shows the seat's own roll, the public announcements of this sequence, the points,
the last reveal and, in a single-round event, whether late entry is open. Who has rolled in
this sequence is public (every announcer, and the seat that must announce now); their dice
are two fair dice each, read high die first.
"""

from __future__ import annotations

import random

from ..core import JSON, Rules
from ..sample import fresh_seed
from . import state as R


def roll(rng: random.Random) -> list[int]:
    first, second = rng.randint(1, 6), rng.randint(1, 6)
    return [max(first, second), min(first, second)]


def determinize(
    rules: Rules[R.FibbersDiceState], view: JSON, rng: random.Random
) -> R.FibbersDiceState:
    public, seat, seats = view["public"], view["seat"], view["seats"]
    phase = public["phase"]
    rolled = {a["seat"] for a in public["announcements"]}
    if phase == R.ANNOUNCE:
        rolled.add(public["current"])
    rolls: list[list[int] | None] = [None] * seats
    if phase != R.OVER:
        for other in sorted(rolled):
            if other != seat:
                rolls[other] = roll(rng)
    own = view["private"]["roll"] if view["private"] else None
    if own is not None:
        rolls[seat] = list(own["dice"])
    top = view["options"]["points"]
    stats = [dict.fromkeys(R.STAT_KEYS, 0) for _ in range(seats)]
    for other, points in enumerate(public["points"]):
        stats[other]["points_lost"] = max(0, top - points)
    last = public["last_reveal"]
    turns = first_starter = None
    if "late_entry_open" in public:
        # A single-round event: the view says only whether late entry is still open, which
        # (while the table has room and the match goes on) is whether the first starter's
        # second turn has come; the sample keeps that and no more, with this sequence's
        # starter (a seat still in) standing in for the first one.
        turns = [0] * seats
        first_starter = public["starter"]
        if not public["late_entry_open"]:
            turns[first_starter] = 2
    return R.FibbersDiceState(
        seats=seats,
        options=dict(view["options"]),
        seed=fresh_seed(rng),
        rng_counter=0,
        points=list(public["points"]),
        phase=phase,
        current=public["current"] if public["current"] is not None else public["starter"],
        starter=public["starter"],
        sequence=public["sequence"],
        rolls=rolls,
        announcements=[dict(a) for a in public["announcements"]],
        announcement=public["announcement"],
        announcer=public["announcer"],
        eliminated=list(public["eliminated"]),
        last_reveal=None if last is None else dict(last),
        stats=stats,
        turns=turns,
        first_starter=first_starter,
    )
