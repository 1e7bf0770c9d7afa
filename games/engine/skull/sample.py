"""Skull determinization: other seats' unrevealed cards, hands and lost cards.

The view shows, per seat, how many cards it holds in hand and on its mat, the revealed top
cards, whether it is publicly known to hold its skull, and the whole public bidding and
reveal record; the seat's own hand, stack and lost cards are private to it. For every other
seat still in, the sampler decides whether it still owns its skull (when that is not public:
the cards it lost were picked blind, so the skull survived with chance cards left / 4), then
shuffles its cards between the unrevealed part of its stack and its hand.
"""

from __future__ import annotations

import random

from ..core import JSON, Rules, copy_json
from ..sample import fresh_seed
from . import cards as C
from . import state as R


def _other_seat(
    public: JSON, other: int, rng: random.Random
) -> tuple[list[str], list[str], list[str]]:
    """(hand, stack bottom first, lost) of a seat whose cards are hidden."""
    total = public["cards"][other]
    height = public["stacks"][other]["height"]
    visible = list(reversed(public["stacks"][other]["revealed"]))  # bottom first
    if total == 0:
        return [], [], list(C.FULL_SET)
    known = public["skull_known"][other]
    # Not public: the lost cards were picked blind, so the skull survived with this chance.
    has_skull = rng.random() < total / C.CARDS_PER_PLAYER if known is None else known
    skulls = int(has_skull)
    cards = [C.FLOWER] * (total - skulls) + [C.SKULL] * skulls
    for card in visible:
        cards.remove(card)
    rng.shuffle(cards)
    hidden_in_stack = height - len(visible)
    stack = cards[:hidden_in_stack] + visible
    hand = sorted(cards[hidden_in_stack:])
    lost = C.complement(cards + visible)
    rng.shuffle(lost)
    return hand, stack, lost


def determinize(rules: Rules[R.SkullState], view: JSON, rng: random.Random) -> R.SkullState:
    public, seat, seats = view["public"], view["seat"], view["seats"]
    private = view["private"]
    hands: list[list[str]] = []
    stacks: list[list[str]] = []
    lost: list[list[str]] = []
    for other in range(seats):
        if other == seat and private is not None:
            hand, stack, gone = list(private["hand"]), list(private["stack"]), list(private["lost"])
        else:
            hand, stack, gone = _other_seat(public, other, rng)
        hands.append(hand)
        stacks.append(stack)
        lost.append(gone)
    stats = [dict.fromkeys(R.STAT_KEYS, 0) for _ in range(seats)]
    for other in range(seats):
        stats[other]["cards_lost"] = len(lost[other])
    return R.SkullState(
        seats=seats,
        options=dict(view["options"]),
        seed=fresh_seed(rng),
        rng_counter=0,
        phase=public["phase"],
        round=public["round"],
        starter=public["starter"],
        current=public["current"],
        hands=hands,
        stacks=stacks,
        lost=lost,
        successes=list(public["successes"]),
        eliminated=list(public["eliminated"]),
        skull_known=list(public["skull_known"]),
        bid=public["bid"],
        bidder=public["bidder"],
        passed=list(public["passed"]),
        bids=[dict(b) for b in public["bids"]],
        challenger=public["challenger"],
        revealed=[len(s["revealed"]) for s in public["stacks"]],
        reveals=[dict(r) for r in public["reveals"]],
        last_challenge=copy_json(public["last_challenge"]),
        winner=public["winner"],
        end=public["end"],
        stats=stats,
    )
