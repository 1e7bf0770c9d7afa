"""Fab Fib beliefs: what the ``strong`` bots the ``expert`` plays against will do, and what their
claims say about their cards.

A uniform determinization (sample.py) deals the hidden cards evenly, so a claim says nothing
about the hand behind it, and the strong bot's own model of a claim (a Bayes chain with assumed
bluff rates) is far from how strong bots really claim. But the strong bot is known code:

* **Its answer to a claim** (:meth:`StrongBot.respond`) reads only the public record of the
  round (claims and exchange counts, the last reveal) and its memory of the cards it passed on
  this round, which it has only when the round has come round to it again. So for every claim
  this seat could make, and every number of cards it could exchange first, the next seat's
  answer can be worked out before claiming (:func:`next_calls`): a bluff it accepts is safe.
  The prediction is exact against a strong bot, so one answer that differs from it
  (:func:`was_called` reads the answer off the public record) shows the next seat is not one.
* **Its claims** (:meth:`StrongBot.hold`): the truth whenever the hand beats the standing claim
  (an opening claim is always the truth), otherwise the exchange that gives the best chance of
  a true claim, then the truth if the new hand beats the claim, else a bluff drawn from a
  softmax that does not look at the hand at all. :func:`hand_posterior` runs that policy along
  the claims of the round (a forward filter over the digits of the hand that goes round the
  table, exact up to pruning to the likeliest hands) and gives the distribution of the hand
  behind the standing claim, and so the chance that the claim is true.

Everything here reads only the seat's view (the public record and the seat's own hand and
memory); the real state is never seen. There is no randomness: both are exact computations.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from ..core import JSON
from .bots import (
    CLAIMS,
    DIGITS_OF,
    INDEX,
    MULTISETS,
    THOUSAND,
    Digits,
    StrongBot,
    claim_index,
    digits_of,
    draw_probs,
    made_claims,
    my_memory,
    pool_of,
    reading,
    revealed_in_discard,
    unseen_pool,
)

_MODEL = StrongBot(random.Random(0))  # respond, best_exchange and truth_chain never draw
#: Hands kept per step of the filter (the likeliest; the rest of the mass is dropped).
KEEP = 60
#: Weight of a step the model says the strong bot would not take (another level, a slip).
SLIP = 1e-4


# --- The next seat's answer ---------------------------------------------------------------


def next_alive(public: JSON, seat: int) -> int:
    out = public["out"]
    n = len(out)
    return next((seat + k) % n for k in range(1, n) if not out[(seat + k) % n])


def claimed_view(view: JSON, claim: str, exchanged: int, discarded: int) -> JSON:
    """The view of the next seat once this seat (the holder) has exchanged ``exchanged``
    cards (``discarded`` of them not yet on the discard pile) and claimed ``claim``. Its
    memory of this round is left out: the round has not come round to it."""
    public = view["public"]
    me = view["seat"]
    nxt = next_alive(public, me)
    claims = [dict(c) for c in public["claims"]]
    claims[-1] = {"seat": me, "exchanged": exchanged, "claim": claim}
    after = dict(public)
    after.update(
        phase="respond",
        claim=claim,
        claims=claims,
        responder=nxt,
        may_exchange=False,
        discard_pile=public["discard_pile"] + discarded,
    )
    legal = [{"type": "call", "label": "", "params": {}}]
    if claim != CLAIMS[-1]:
        legal.append({"type": "accept", "label": "", "params": {}})
    return {
        "seat": nxt,
        "seats": view["seats"],
        "public": after,
        "private": {"hand": None, "memory": None},
        "legal_actions": legal,
    }


def next_calls(view: JSON, claim: str, exchanged: int, discarded: int = 0) -> bool:
    """Whether the next seat, a strong bot, calls ``claim`` (see :func:`claimed_view`)."""
    answer = _MODEL.respond(claimed_view(view, claim, exchanged, discarded))
    return answer["type"] == "call"


def accepted_bluffs(view: JSON, exchanged: int, discarded: int = 0) -> list[str]:
    """The claims above the standing one that the next seat would accept."""
    current = claim_index(view["public"]["claim"])
    return [c for c in CLAIMS[current + 1 :] if not next_calls(view, c, exchanged, discarded)]


def any_accepted(view: JSON, exchanged: int, discarded: int = 0) -> bool:
    """Whether the next seat would accept some claim above the standing one (the lowest
    claims are tried first: they are the likeliest to be accepted)."""
    current = claim_index(view["public"]["claim"])
    return any(not next_calls(view, c, exchanged, discarded) for c in CLAIMS[current + 1 :])


def was_called(public: JSON, seat: int, claim_round: int, claim: str) -> bool:
    """Whether ``seat``'s claim ``claim`` of round ``claim_round`` was called, as the public
    record shows it at this seat's next decision: a call of that round with this seat as the
    claimant of that claim; otherwise the next seat accepted (the round went on, or ended in a
    later call or a 1000)."""
    reveal = public["last_reveal"]
    if public["round"] == claim_round or reveal is None:
        return False
    return (
        reveal["kind"] == "call"
        and reveal["round"] == claim_round
        and reveal["claimant"] == seat
        and reveal["claim"] == claim
    )


# --- The hand behind a claim --------------------------------------------------------------


@lru_cache(maxsize=4096)
def _exchange_of(hand: Digits, current: int, pool: tuple[int, ...]) -> tuple[int, Digits]:
    """The strong bot's exchange of ``hand`` against ``current``: (cards exchanged, kept)."""
    cards = [{"digit": d, "skulls": 1} for d in hand]
    positions = _MODEL.best_exchange(cards, current, pool)
    kept = reading([hand[i] for i in range(3) if i not in positions])
    return len(positions), kept


def bluff_policy(claims: list[JSON], upto: int, exchanged: int, pool: tuple[int, ...]) -> dict:
    """π(claim) of a strong bot bluffing over claim ``upto - 1`` after exchanging
    ``exchanged`` cards (its softmax over the claims the next seat is least likely to call)."""
    before = claims[:upto]
    current = claim_index(before[-1]["claim"]) if before else -1
    options = list(CLAIMS[current + 1 :])[: StrongBot.BLUFF_CANDIDATES]
    if len(options) == 1:
        return {options[0]: 1.0}
    entries = [(claim_index(c["claim"]), c["exchanged"]) for c in before]
    chain = _MODEL.truth_chain(before, pool, None)

    risks = []
    for option in options:
        index = claim_index(option)
        p_true = _MODEL.truth_step([*entries, (index, exchanged)], chain, len(entries), pool, None)
        risks.append(_MODEL.call_chance(p_true, index))
    low = min(risks)
    weights = [math.exp(-(r - low) / StrongBot.BLUFF_TEMPERATURE) for r in risks]
    total = sum(weights)
    return {o: w / total for o, w in zip(options, weights, strict=True)}


def _normalise(dist: dict[Digits, float]) -> dict[Digits, float]:
    top = sorted(dist.items(), key=lambda kv: -kv[1])[:KEEP]
    total = sum(p for _, p in top)
    return {h: p / total for h, p in top} if total > 0 else {}


def hand_posterior(view: JSON) -> tuple[dict[Digits, float], float] | None:
    """The distribution of the digits of the hand behind the standing claim, and the chance
    that the claim is true, for the seat that must answer it; ``None`` before any claim."""
    out = hand_posterior_fit(view)
    return None if out is None else (out[0], out[1])


def hand_posterior_fit(
    view: JSON,
) -> tuple[dict[Digits, float], float, dict[int, float]] | None:
    """:func:`hand_posterior`, and for each claim of the round it weighed (by index in the
    round's claims) the log-likelihood ratio of that step (the exchange count and the claim)
    under the strong bot's policy against a holder that picks any exchange count (of 4) and
    any higher claim alike: negative where the claims fit the model badly."""
    fits: dict[int, float] = {}
    public = view["public"]
    claims = made_claims(public)
    if not claims:
        return None
    mine = my_memory(view)
    pool = unseen_pool(view)  # what this seat cannot place: the draws come from it
    revealed = revealed_in_discard(public)
    public_pool = pool_of(revealed)  # what a bluffer weighs with
    dist: dict[Digits, float] = {}
    p_true = 1.0
    for i, entry in enumerate(claims):
        target = DIGITS_OF[claim_index(entry["claim"])]
        if mine is not None and i == mine[1]:
            dist, p_true = {mine[0]: 1.0}, float(INDEX[mine[0]] == INDEX[target])
            continue
        if i == 0:  # an opening claim is the truth
            dist, p_true = {target: 1.0}, 1.0
            continue
        current = claim_index(claims[i - 1]["claim"])
        exchanged = entry["exchanged"]
        truth_mass = bluff_mass = 0.0
        new: dict[Digits, float] = {}
        bluff_p = None
        for received, weight in dist.items():
            if INDEX[received] > current:
                # It would have claimed the truth at once, without an exchange.
                if exchanged == 0 and received == target:
                    new[received] = new.get(received, 0.0) + weight
                    truth_mass += weight
                else:
                    bluff_mass += weight * SLIP
                continue
            if exchanged == 0:
                bluff_mass += weight * SLIP
                continue
            size, kept = _exchange_of(received, current, pool_of(list(received) + revealed))
            if size != exchanged:
                bluff_mass += weight * SLIP
                continue
            passed_by_me = mine is not None and i == mine[1] + 1
            draw_pool = pool if passed_by_me else _without(pool, received)
            for draw, p in zip(MULTISETS[size], draw_probs(draw_pool, size), strict=True):
                if p == 0.0:
                    continue
                hand = reading(kept + draw)
                if hand == THOUSAND:
                    continue  # revealed at once: not what happened
                if INDEX[hand] > current:
                    if hand == target:
                        new[hand] = new.get(hand, 0.0) + weight * p
                        truth_mass += weight * p
                    continue
                if bluff_p is None:
                    bluff_p = bluff_policy(claims, i, exchanged, public_pool).get(
                        entry["claim"], 0.0
                    )
                w = weight * p * bluff_p
                if w > 0.0:
                    new[hand] = new.get(hand, 0.0) + w
                    bluff_mass += w
        total = truth_mass + bluff_mass
        if total <= 0.0 or not new:
            return None
        uniform = 1.0 / (4 * max(1, len(CLAIMS) - 1 - current))
        fits[i] = math.log(total / sum(dist.values()) / uniform)
        p_true = truth_mass / total
        dist = _normalise(new)
    return dist, p_true, fits


def _without(pool: tuple[int, ...], hand: Digits) -> tuple[int, ...]:
    out = list(pool)
    for d in hand:
        out[d] = max(0, out[d] - 1)
    return tuple(out)


__all__ = [
    "accepted_bluffs",
    "any_accepted",
    "bluff_policy",
    "claimed_view",
    "digits_of",
    "hand_posterior",
    "hand_posterior_fit",
    "next_calls",
    "was_called",
]
