"""Fab Fib bots (levels ``basic`` and ``strong``).

Both decide from the seat's view alone (``rules.view(state, seat)``): the public claims of this
round with their exchange counts, the last reveal, the pile sizes, the seat's own hand while it
holds it and its memory of the last three cards it passed on. Neither keeps anything between
decisions, so the same view and the same bot seed always give the same action.

* ``basic``: calls a claim that its memory proves false or that a random hand would rarely
  reach, accepts otherwise; after accepting keeps its highest cards as long as they reach the
  claim's leading digits and exchanges the rest; claims the truth when it beats the claim,
  else the smallest legal bluff.
* ``strong``: estimates the probability that the claim is true (Bayes over the round's claims:
  what the claimant received, how many cards it exchanged, how likely that exchange was to
  give exactly the claim, against how likely a bluff of that size is; its memory and the
  revealed cards narrow the unseen cards), compares the risk of calling with the risk of
  accepting (the chance it cannot beat the claim truthfully times the chance its bluff gets
  called), exchanges the cards that maximise the chance of a true claim above the current one
  (a 1000 counts extra), and when it must bluff it picks, at random, among the claims that
  the next player is least likely to call.
"""

from __future__ import annotations

import math
import random
from functools import cache, lru_cache
from itertools import accumulate, combinations, combinations_with_replacement

from ..bots import register_bot
from ..core import JSON, Action
from . import cards as C

Digits = tuple[int, ...]  # a multiset of digits, highest first

CLAIMS = C.ALL_CLAIMS  # lowest first
N_CLAIMS = len(CLAIMS)
TOP = N_CLAIMS - 1  # "999"
INDEX: dict[Digits, int] = {tuple(int(ch) for ch in claim): i for i, claim in enumerate(CLAIMS)}
DIGITS_OF: list[Digits] = [tuple(int(ch) for ch in claim) for claim in CLAIMS]
THOUSAND = (0, 0, 0)

#: Multisets of k digits (highest first), k = 0..3.
MULTISETS: list[list[Digits]] = [
    list(combinations_with_replacement(range(9, -1, -1), k)) for k in range(4)
]
_COMB = [[math.comb(n, m) for m in range(4)] for n in range(6)]


def _counts(digits: Digits) -> list[tuple[int, int]]:
    out: dict[int, int] = {}
    for d in digits:
        out[d] = out.get(d, 0) + 1
    return list(out.items())


_MULTISET_COUNTS = {m: _counts(m) for k in range(4) for m in MULTISETS[k]}


def _uniform_prob(m: Digits) -> float:
    """Probability of drawing the multiset ``m`` with independent uniform digits."""
    ways = math.factorial(len(m))
    for _, n in _MULTISET_COUNTS[m]:
        ways //= math.factorial(n)
    return ways / 10 ** len(m)


def reading(digits: Digits | list[int]) -> Digits:
    return tuple(sorted(digits, reverse=True))


def remove(whole: Digits, part: Digits) -> Digits | None:
    """``whole`` minus ``part`` as multisets, or None when ``part`` is not inside ``whole``."""
    rest = list(whole)
    for d in part:
        if d not in rest:
            return None
        rest.remove(d)
    return tuple(rest)


@cache
def sub_multisets(digits: Digits, size: int) -> tuple[Digits, ...]:
    return tuple(sorted(set(combinations(digits, size))))


@cache
def keeps_inside(held: Digits, size: int, target: Digits) -> tuple[Digits, ...]:
    """What must be drawn to turn some ``size`` cards of ``held`` into ``target``."""
    out = []
    for keep in sub_multisets(held, size):
        rest = remove(target, keep)
        if rest is not None:
            out.append(rest)
    return tuple(sorted(set(out)))


# --- Uniform approximation: digits drawn independently and uniformly --------------------


#: P(a uniform random hand reads at least claim i): how plausible a claim looks on its own.
TAIL_U = list(accumulate(_uniform_prob(d) for d in reversed(DIGITS_OF)))[::-1]


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[Digits, list[float]], list[float]]:
    """Built once, on first use (about 0.1 s): for every hand, the best chance (uniform
    draws) that one exchange makes it beat claim i or a 1000; and the mean over all hands."""
    beat_keep = {}  # kept cards -> [P(kept + uniform draws beats claim i, or is a 1000)]
    for size in range(4):
        for keep in MULTISETS[size]:
            mass = [0.0] * N_CLAIMS
            thousand = 0.0
            for draw in MULTISETS[3 - size]:
                p = _uniform_prob(draw)
                hand = reading(keep + draw)
                if hand == THOUSAND:
                    thousand += p
                else:
                    mass[INDEX[hand]] += p
            above = [0.0] * N_CLAIMS
            run = thousand
            for i in range(N_CLAIMS - 1, -1, -1):
                above[i] = run
                run += mass[i]
            beat_keep[keep] = above
    beat_hand = {}
    for hand in MULTISETS[3]:
        rows = [beat_keep[keep] for size in range(4) for keep in sub_multisets(hand, size)]
        beat_hand[hand] = [max(column) for column in zip(*rows, strict=True)]
    beat_random = [0.0] * N_CLAIMS
    for hand in MULTISETS[3]:
        p = _uniform_prob(hand)
        for i, beat in enumerate(beat_hand[hand]):
            beat_random[i] += p * beat
    return beat_hand, beat_random


def beat_hand(hand: Digits, claim: int) -> float:
    """Best chance that ``hand`` after one exchange beats claim index ``claim`` (or is a 1000)."""
    return _tables()[0][hand][claim]


def beat_random(claim: int) -> float:
    """The same for a hand that is not known at all."""
    return _tables()[1][claim]


# --- Exact draws from the unseen cards --------------------------------------------------


def p_draw(pool: tuple[int, ...], draw: Digits) -> float:
    """Probability that drawing len(draw) cards from ``pool`` (counts per digit) gives ``draw``."""
    total = sum(pool)
    k = len(draw)
    if k == 0:
        return 1.0
    if total < k:
        return 0.0
    ways = 1
    for d, n in _MULTISET_COUNTS[draw]:
        ways *= _COMB[pool[d]][n]
    return ways / math.comb(total, k)


@lru_cache(maxsize=2048)
def draw_probs(pool: tuple[int, ...], k: int) -> tuple[float, ...]:
    """P(each multiset of ``MULTISETS[k]``) when drawing k cards from ``pool``."""
    total = sum(pool)
    if total < k:
        return (0.0,) * len(MULTISETS[k])
    denominator = math.comb(total, k)
    out = []
    for draw in MULTISETS[k]:
        ways = 1
        for d, n in _MULTISET_COUNTS[draw]:
            ways *= _COMB[pool[d]][n]
        out.append(ways / denominator)
    return tuple(out)


@cache
def results(kept: Digits) -> tuple[int, ...]:
    """Claim index of ``kept`` plus each draw of ``MULTISETS[3 - len(kept)]`` (-2: a 1000)."""
    out = []
    for draw in MULTISETS[3 - len(kept)]:
        hand = reading(kept + draw)
        out.append(-2 if hand == THOUSAND else INDEX[hand])
    return tuple(out)


def pool_of(known: list[int]) -> tuple[int, ...]:
    counts = [5] * 10
    for d in known:
        counts[d] = max(0, counts[d] - 1)
    return tuple(counts)


# --- Reading the view -------------------------------------------------------------------


def claim_index(claim: str | None) -> int:
    return -1 if claim is None else INDEX[tuple(int(ch) for ch in claim)]


def digits_of(cards: list[JSON]) -> Digits:
    return reading([c["digit"] for c in cards])


def made_claims(public: JSON) -> list[JSON]:
    return [c for c in public["claims"] if "claim" in c]


def revealed_in_discard(public: JSON) -> list[int]:
    """Digits of the last reveal when they are still in the discard pile (not reshuffled)."""
    reveal = public.get("last_reveal")
    if not reveal:
        return []
    exchanged = sum(c.get("exchanged", 0) for c in public["claims"])
    if public["discard_pile"] < 3 + exchanged:
        return []
    return [c["digit"] for c in reveal["cards"]]


def my_memory(view: JSON) -> tuple[Digits, int] | None:
    """My cards of this round and the index of my claim among this round's claims."""
    memory = (view.get("private") or {}).get("memory")
    public = view["public"]
    if not memory or memory["round"] != public["round"]:
        return None
    for i, entry in enumerate(made_claims(public)):
        if entry["claim"] == memory["claim"] and entry["seat"] == view["seat"]:
            return digits_of(memory["cards"]), i
    return None


def unseen_pool(view: JSON, held: list[int] | None = None) -> tuple[int, ...]:
    """How many of each digit this seat cannot place: the deck less the digits ``held``, the
    last reveal still in the discard pile and the cards it passed on this round."""
    known = list(held or []) + revealed_in_discard(view["public"])
    mine = my_memory(view)
    if mine is not None:
        known += list(mine[0])
    return pool_of(known)


def legal_claims(view: JSON) -> list[str]:
    for spec in view["legal_actions"]:
        if spec["type"] == "claim":
            return list(spec["params"]["value"]["one_of"])
    return []


def can(view: JSON, kind: str) -> bool:
    return any(spec["type"] == kind for spec in view["legal_actions"])


def memory_rules_out(view: JSON) -> bool:
    """My memory proves the current claim false (the cards I passed cannot read as it)."""
    mine = my_memory(view)
    public = view["public"]
    claims = made_claims(public)
    if mine is None or not claims:
        return False
    held, at = mine
    later = claims[at + 1 :]
    if not later:
        return False
    still_mine = 3 - sum(c["exchanged"] for c in later)
    if still_mine <= 0:
        return False
    target = DIGITS_OF[claim_index(claims[-1]["claim"])]
    return not keeps_inside(held, still_mine, target)


# --- Basic ------------------------------------------------------------------------------


class BasicBot:
    """Simple rules: call the implausible, keep the high cards, tell the truth when it can."""

    level = "basic"
    #: Call a claim that a random hand reaches less often than this.
    CALL_BELOW = 0.10

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON) -> Action:
        public = view["public"]
        if not can(view, "claim"):
            if not can(view, "accept"):
                return {"type": "call"}
            claim = claim_index(public["claim"])
            if memory_rules_out(view) or TAIL_U[claim] < self.CALL_BELOW:
                return {"type": "call"}
            return {"type": "accept"}
        hand = digits_of(view["private"]["hand"])
        current = claim_index(public["claim"])
        if INDEX[hand] > current:
            return {"type": "claim", "value": CLAIMS[INDEX[hand]]}
        if public["may_exchange"]:
            positions = self.exchange(view["private"]["hand"], current)
            if positions:
                return {"type": "exchange", "cards": positions}
        return {"type": "claim", "value": min(legal_claims(view))}

    @staticmethod
    def exchange(cards: list[JSON], current: int) -> list[int]:
        """Keep the highest cards as long as they reach the claim's leading digits."""
        order = sorted(range(3), key=lambda i: -cards[i]["digit"])
        top = tuple(cards[i]["digit"] for i in order)
        target = DIGITS_OF[current]
        for keep in (2, 1):
            if top[:keep] >= target[:keep]:
                return sorted(order[keep:])
        return [0, 1, 2]


# --- Strong -----------------------------------------------------------------------------


class StrongBot:
    """Bayesian about the claim, careful about its own exchange, calibrated when it bluffs."""

    level = "strong"
    # Model of other players' bluffs: share aimed just above the claim, and how fast it fades.
    BLUFF_LOW_SHARE = 0.7
    BLUFF_DECAY = 0.3
    OPEN_BLUFF = 0.05  # chance that an opening claim is a bluff
    VOLUNTARY = 0.02  # chance of a bluff although the truth would have done
    CALL_BLUFF = 0.55  # chance that a bluff gets called, a step ahead
    SOFT = 0.08  # how sharply players are assumed to call (logistic width)
    OTHERS = 0.15  # value of damage dealt to another player, relative to own damage
    THOUSAND_VALUE = 3.0  # an exchange that may give a 1000 counts it this many times
    BLUFF_TEMPERATURE = 0.04
    TOO_HIGH = 0.11  # a claim reached by fewer random hands than this looks too high
    TOO_HIGH_SOFT = 0.015
    HEIGHT_WEIGHT = 1.0
    BLUFF_CANDIDATES = 40

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        _tables()

    # -- The model of a round ----------------------------------------------------------

    def bluff_share(self, claim: int, previous: int) -> float:
        """How likely a bluffer over ``previous`` says ``claim``."""
        above = TOP - previous
        if above <= 0:
            return 1.0
        step = claim - previous - 1
        r = self.BLUFF_DECAY
        low = (1 - r) * r**step / (1 - r**above)
        return self.BLUFF_LOW_SHARE * low + (1 - self.BLUFF_LOW_SHARE) / above

    def truth_chain(
        self, claims: list[JSON], pool: tuple[int, ...], mine: tuple[Digits, int] | None
    ) -> list[float]:
        """P(true) of each claim of the round, in order."""
        entries = [(claim_index(c["claim"]), c["exchanged"]) for c in claims]
        out: list[float] = []
        for i in range(len(entries)):
            out.append(self.truth_step(entries, out, i, pool, mine))
        return out

    def truth_step(
        self,
        entries: list[tuple[int, int]],
        out: list[float],
        i: int,
        pool: tuple[int, ...],
        mine: tuple[Digits, int] | None,
    ) -> float:
        """P(claim ``i`` is true), given those before it (``entries``: (claim index, cards
        exchanged); ``out``: P(true) of the claims before)."""
        claim, exchanged = entries[i]
        target = DIGITS_OF[claim]
        if mine is not None and i == mine[1]:
            return 1.0 if INDEX[mine[0]] == claim else 0.0
        if i == 0:
            truth = p_draw(pool, target)
            bluff = self.OPEN_BLUFF / N_CLAIMS
        else:
            previous = entries[i - 1][0]
            p_prev = out[i - 1]
            passed_by_me = mine is not None and i == mine[1] + 1
            if passed_by_me:
                assert mine is not None
                got = mine[0]
                p_prev = 1.0  # the cards are known exactly
            else:
                got = DIGITS_OF[previous]
            fits = keeps_inside(got, 3 - exchanged, target)
            known = max((p_draw(pool, need) for need in fits), default=0.0)
            if exchanged == 3:
                unknown = p_draw(pool, target)
            elif exchanged == 0:
                unknown = 0.05 * p_draw(pool, target)
            else:
                unknown = 2.0 * p_draw(pool, target)
            truth = p_prev * known + (1 - p_prev) * unknown
            if mine is not None and i > mine[1] + 1:
                left = 3 - sum(e for _, e in entries[mine[1] + 1 : i + 1])
                if left > 0 and not keeps_inside(mine[0], left, target):
                    truth = 0.0
            if passed_by_me:
                fail = 1 - beat_hand(got, previous)
            else:
                fail = p_prev * (1 - beat_hand(got, previous)) + (1 - p_prev) * (
                    1 - beat_random(previous)
                )
            bluff = (fail + self.VOLUNTARY) * self.bluff_share(claim, previous)
        return truth / (truth + bluff) if truth + bluff > 0 else 0.0

    def accept_risk(self, claim: int, p_true: float) -> float:
        """Chance of losing the round after accepting ``claim``: no true claim above it after
        the exchange, and the bluff gets called."""
        if claim >= TOP - 1:
            return 1.0 - (p_true * beat_hand(DIGITS_OF[claim], claim) if claim < TOP else 0.0)
        beat = p_true * beat_hand(DIGITS_OF[claim], claim) + (1 - p_true) * beat_random(claim)
        called = self.CALL_BLUFF + (1 - self.CALL_BLUFF) * (1 - TAIL_U[min(TOP, claim + 1)])
        return (1 - beat) * called

    def call_chance(self, p_true: float, claim: int) -> float:
        """How likely a sensible next player calls ``claim`` believed true with ``p_true``."""
        if claim >= TOP:
            return 1.0
        margin = self.accept_risk(claim, p_true) - p_true
        reasoned = 1 / (1 + math.exp(-margin / self.SOFT))
        # Many players simply call what a random hand rarely reaches.
        height = 1 / (1 + math.exp((TAIL_U[claim] - self.TOO_HIGH) / self.TOO_HIGH_SOFT))
        return 1 - (1 - reasoned) * (1 - self.HEIGHT_WEIGHT * height)

    # -- Decisions ---------------------------------------------------------------------

    def choose(self, view: JSON) -> Action:
        if can(view, "claim"):
            return self.hold(view)
        return self.respond(view)

    def respond(self, view: JSON) -> Action:
        if not can(view, "accept"):
            return {"type": "call"}
        public = view["public"]
        claims = made_claims(public)
        mine = my_memory(view)
        pool = unseen_pool(view)
        p_true = self.truth_chain(claims, pool, mine)[-1]
        claim = claim_index(public["claim"])
        call_loss = p_true - (1 - p_true) * self.OTHERS
        accept_loss = self.accept_risk(claim, p_true)
        return {"type": "call"} if call_loss < accept_loss else {"type": "accept"}

    def hold(self, view: JSON) -> Action:
        public = view["public"]
        cards = view["private"]["hand"]
        hand = digits_of(cards)
        current = claim_index(public["claim"])
        if INDEX[hand] > current:
            return {"type": "claim", "value": CLAIMS[INDEX[hand]]}
        pool = unseen_pool(view, [c["digit"] for c in cards])
        if public["may_exchange"]:
            positions = self.best_exchange(cards, current, pool)
            if positions:
                return {"type": "exchange", "cards": positions}
        return {"type": "claim", "value": self.bluff(view, current)}

    def best_exchange(self, cards: list[JSON], current: int, pool: tuple[int, ...]) -> list[int]:
        """The positions to exchange for the best chance of a true claim above ``current``."""
        best: tuple[float, int, int] | None = None
        choice: list[int] = []
        for size in (1, 2, 3):
            probs = draw_probs(pool, size)
            for positions in combinations(range(3), size):
                kept = reading([cards[i]["digit"] for i in range(3) if i not in positions])
                value = 0.0
                for p, result in zip(probs, results(kept), strict=True):
                    if result > current:
                        value += p
                    elif result == -2:
                        value += p * self.THOUSAND_VALUE
                kept_skulls = sum(cards[i]["skulls"] for i in range(3) if i not in positions)
                key = (round(value, 9), -kept_skulls, -size)
                if best is None or key > best:
                    best, choice = key, list(positions)
        return choice

    def bluff(self, view: JSON, current: int) -> str:
        """A false claim: at random, weighted towards those least likely to be called."""
        public = view["public"]
        options = sorted(legal_claims(view))[: self.BLUFF_CANDIDATES]
        if len(options) == 1:
            return options[0]
        claims = made_claims(public)
        exchanged = public["claims"][-1].get("exchanged", 0) if public["claims"] else 0
        pool = pool_of(revealed_in_discard(public))
        entries = [(claim_index(c["claim"]), c["exchanged"]) for c in claims]
        chain = self.truth_chain(claims, pool, None)
        risks = []
        for option in options:
            index = claim_index(option)
            p_true = self.truth_step(
                [*entries, (index, exchanged)], chain, len(entries), pool, None
            )
            risks.append(self.call_chance(p_true, index))
        low = min(risks)
        weights = [math.exp(-(r - low) / self.BLUFF_TEMPERATURE) for r in risks]
        return self.rng.choices(options, weights)[0]


register_bot("fabfib", "basic", BasicBot)
register_bot("fabfib", "strong", StrongBot)
