"""Fab Fib determinization: the hidden cards, and who holds which copy of a card.

A view shows cards as (digit, skulls) only; of the five copies of a digit three show one
skull, so the sampler picks which copies the seat sees (any choice looks the same). The seat
sees the hand only while holding it; right after its own claim the hand in play is the one it
remembers (its memory is of this round and this claim). Every other card is shuffled over the
hidden places: the hand in play, the draw pile and the discard pile, whose sizes are public;
the cards of the last reveal go to the discard pile when it cannot have been reshuffled since.
Other seats' memories are not part of the view and are left empty.
"""

from __future__ import annotations

import random

from ..core import JSON, Rules, copy_json
from ..sample import fresh_seed
from . import cards as C
from . import state as R


def _copies(shown: dict[str, int]) -> list[int]:
    """The card ids that look like ``shown``."""
    base = shown["digit"] * 5
    return [base + c for c, s in enumerate(C.SKULLS_BY_COPY) if s == shown["skulls"]]


def _pick(shown_cards: list[dict[str, int]], free: set[int], rng: random.Random) -> list[int]:
    """Distinct ids from ``free`` that look like ``shown_cards``."""
    out = []
    for shown in shown_cards:
        choice = rng.choice(sorted(c for c in _copies(shown) if c in free))
        free.discard(choice)
        out.append(choice)
    return out


def _revealed_in_discard(public: JSON, free: set[int], rng: random.Random) -> list[int]:
    """The last reveal's cards, when they must still be in the discard pile: they went there
    at the end of the last round, and since then only this round's exchanges were added, so
    a pile of at least that many cards has not been reshuffled (a reshuffle empties it)."""
    reveal = public["last_reveal"]
    if not reveal:
        return []
    exchanged = sum(c.get("exchanged", 0) for c in public["claims"])
    if public["discard_pile"] < len(reveal["cards"]) + exchanged:
        return []
    out = []
    for shown in reveal["cards"]:
        copies = sorted(c for c in _copies(shown) if c in free)
        if copies:  # (a copy the seat itself holds again cannot be in the pile)
            choice = rng.choice(copies)
            free.discard(choice)
            out.append(choice)
    return out


def determinize(rules: Rules[R.FabFibState], view: JSON, rng: random.Random) -> R.FabFibState:
    public, seat, seats = view["public"], view["seat"], view["seats"]
    private = view["private"] or {"hand": None, "memory": None}
    phase = public["phase"]
    free = set(range(C.DECK_SIZE))
    memory: list[JSON | None] = [None] * seats
    known_hand: list[int] | None = None
    if private["memory"] is not None:
        mem = private["memory"]
        ids = _pick(mem["cards"], set(range(C.DECK_SIZE)), rng)
        memory[seat] = {"cards": ids, "round": mem["round"], "claim": mem["claim"]}
        if (
            phase == R.RESPOND
            and public["holder"] == seat
            and mem["round"] == public["round"]
            and mem["claim"] == public["claim"]
        ):
            known_hand = _pick(mem["cards"], free, rng)
    if private["hand"] is not None:
        known_hand = _pick(private["hand"], free, rng)
    draw, discard = public["draw_pile"], public["discard_pile"]
    in_discard = _revealed_in_discard(public, free, rng)
    hidden = sorted(free)
    rng.shuffle(hidden)
    while known_hand is None and phase != R.OVER and C.is_thousand(hidden[-3:]):
        rng.shuffle(hidden)  # three zeros are revealed at once: nobody holds them unseen
    # The revealed cards lie in the discard pile, the rest of it is drawn like the draw pile.
    rest = discard - len(in_discard)
    hidden = hidden[:draw] + in_discard + hidden[draw : draw + rest] + hidden[draw + rest :]
    if phase == R.OVER:
        hand: list[int] = []
    elif known_hand is not None:
        hand = known_hand
    else:
        hand = hidden[draw + discard :]  # the last three: not a 1000
    claims = [dict(c) for c in public["claims"]]
    pending = claims[-1] if claims else {"exchanged": 0}
    stats = [dict.fromkeys(R.STAT_KEYS, 0) for _ in range(seats)]
    return R.FabFibState(
        seats=seats,
        options=dict(view["options"]),
        seed=fresh_seed(rng),
        rng_counter=0,
        life=list(public["life"]),
        draw_pile=hidden[:draw],
        discard=hidden[draw : draw + discard],
        hand=hand,
        holder=public["holder"],
        responder=public["responder"],
        phase=phase,
        accepted=len(claims) > 1,
        exchanged=pending.get("exchanged", 0) > 0,
        claim=public["claim"],
        round=public["round"],
        claims=claims,
        memory=memory,
        eliminated=[list(g) for g in public["eliminated"]],
        last_reveal=copy_json(public["last_reveal"]),
        stats=stats,
    )
