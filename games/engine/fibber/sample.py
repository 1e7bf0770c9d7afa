"""Fibber determinization: other hands, the face-down pile and the cards set aside.

A view shows the seat's own hand (by rank), every hand's size, the pile's size with the public
record of the plays in it, the noses and the call window. Every card the seat does not hold is
shuffled over the other hands, the pile and the cards set aside, sizes kept. Card ids within a
rank are interchangeable, so the seat's own hand takes the lowest free copies of each rank.
"""

from __future__ import annotations

import random

from ..core import JSON, Rules, copy_json
from ..sample import fresh_seed
from . import cards as C
from . import state as T


def _own_hand(names: list[str]) -> list[int]:
    taken: dict[int, int] = {}
    out = []
    for name in names:
        rank = C.NAMES.index(name)
        copy = taken.get(rank, 0)
        taken[rank] = copy + 1
        out.append(rank * C.COPIES + copy)
    return sorted(out)


def determinize(rules: Rules[T.FibberState], view: JSON, rng: random.Random) -> T.FibberState:
    public, seat, seats = view["public"], view["seat"], view["seats"]
    easy = view["options"]["variant"] == T.EASY
    phase = public["phase"]
    own = _own_hand(view["private"]["hand"]) if view["private"] else []
    hidden = sorted(set(range(C.DECK_SIZE)) - set(own))
    rng.shuffle(hidden)
    sizes = public["hand_sizes"]
    hands: list[list[int]] = []
    cut = 0
    for other in range(seats):
        if other == seat and view["private"]:
            hands.append(own)
            continue
        hands.append(sorted(hidden[cut : cut + sizes[other]]))
        cut += sizes[other]
    pile = hidden[cut : cut + public["pile"]]
    cut += public["pile"]
    set_aside = hidden[cut : cut + public["set_aside"]]
    last_play = public["last_play"]
    if easy:
        rank_name = public["rank_in_play"]
        turn = public["turn"]
        silver, table_noses, end_reason = None, 0, None
        waiting: list[int] = []
        passed: list[int] = []
        noses = list(public["noses"])
        can_call = public["can_call"]
        keys: tuple[str, ...] = T.EASY_STAT_KEYS
    else:
        rank_name = public["silver_nose_rank"]
        turn = public["turn"] if public["turn"] is not None else (last_play or {}).get("seat", 0)
        silver, table_noses = public["silver_nose"], public["table_noses"]
        end_reason = public["end_reason"]
        waiting, passed = list(public["waiting"]), list(public["passed"])
        noses = list(public["noses"])
        can_call = False
        keys = T.STAT_KEYS
    rank = (None if easy else C.BIGFOOT) if rank_name is None else C.RANKS.index(rank_name)
    stats = [dict.fromkeys(keys, 0) for _ in range(seats)]
    return T.FibberState(
        seats=seats,
        options=dict(view["options"]),
        seed=fresh_seed(rng),
        rng_counter=0,
        phase=phase,
        hands=hands,
        pile=pile,
        set_aside=set_aside,
        dealer=public["dealer"],
        deal=public["round"] if easy else public["deal"],
        turn=turn if turn is not None else 0,
        rank=rank,
        last_play=None if last_play is None else dict(last_play),
        waiting=waiting,
        passed=passed,
        can_call=can_call,
        noses=noses,
        silver=silver,
        table_noses=table_noses,
        scores=list(public["scores"]) if easy else [0] * seats,
        plays=public["plays"],
        pile_plays=[dict(p) for p in public["pile_plays"]],
        last_call=copy_json(public["last_call"]),
        end_reason="rounds" if easy and phase == T.OVER else end_reason,
        stats=stats,
        called=[] if easy else [list(c) for c in public["called"]],
    )
