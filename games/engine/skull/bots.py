"""Skull bots (levels ``basic`` and ``strong``).

Both decide from the seat's view alone (``rules.view(state, seat)``): the public stacks (height
and the cards revealed this round), hand sizes, cards owned, ``skull_known``, this round's bids
and passes, the reveals, and the seat's own hand and stack. Neither keeps anything between
decisions, so the same view and the same bot seed always give the same action.

* ``basic``: places a flower mostly and its skull now and then; opens the bidding with the
  flowers on top of its own stack; raises while the bid stays within what it counts on (its
  own clean stack plus the cards the other bidders vouched for) and passes otherwise; reveals
  the stacks of players who bid first.
* ``strong``: keeps, for every other stack, a distribution over where (if anywhere) its skull
  lies — from ``skull_known``, the cards a player still owns, its stack height against its hand,
  the cards revealed, and whether it bid (bidders mostly have flowers where they bid) or passed;
  from that, the best chance of revealing N flowers (a small dynamic programme over how many
  cards to take from each stack, which also decides the reveal order). It opens and raises only
  while that chance is good, never becomes the challenger with its own skull in reach when it
  can pass, and bluffs with its skull in a calibrated, randomised way: it places the skull
  sometimes, bids with it on its mat to push the others into revealing it, and names the
  weakest player as the next starter.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator

from ..bots import register_bot
from ..core import JSON, Action
from .cards import FLOWER, SKULL

# --- Reading the view -------------------------------------------------------------------------


def _find_entry(view: JSON, kind: str) -> JSON | None:
    for spec in view["legal_actions"]:
        if spec["type"] == kind:
            return spec
    return None


def _entry(view: JSON, kind: str) -> JSON:
    """The legal-action entry of ``kind``, which the phase guarantees is there."""
    spec = _find_entry(view, kind)
    assert spec is not None, f"no {kind!r} among the legal actions"
    return spec


def _safe_count(stack: list[str]) -> int:
    """Flowers on top of a stack (bottom first) above its skull, or the whole stack."""
    n = 0
    for card in reversed(stack):
        if card == SKULL:
            break
        n += 1
    return n


def _bids_by_seat(pub: JSON) -> tuple[dict[int, int], set[int], int | None]:
    """This round: the highest bid of every seat, who passed, and who opened."""
    best: dict[int, int] = {}
    passed: set[int] = set()
    opener = None
    for b in pub["bids"]:
        seat = b["seat"]
        if b.get("pass"):
            passed.add(seat)
        else:
            if opener is None:
                opener = seat
            best[seat] = max(best.get(seat, 0), b["count"])
    return best, passed, opener


def _bids_read(pub: JSON) -> Iterator[tuple[int, int, bool]]:
    """This round's bids in order, as ``(seat, count, modest)``: a bid is *modest* when it
    opens with at most one card more than the bidder's own stack, or raises by one; anything
    else is a jump."""
    previous = 0
    for b in pub["bids"]:
        if b.get("pass"):
            continue
        seat, count = b["seat"], b["count"]
        height = pub["stacks"][seat]["height"]
        yield seat, count, count <= max(previous + 1, height + 1 if previous == 0 else 0)
        previous = count


def _modest_bids(pub: JSON) -> dict[int, int]:
    """This round's highest modest bid of every seat (:func:`_bids_read`). A jump says little
    about the bidder's own cards (it is a wild guess or a bluff), so it is not taken as a
    sign."""
    out: dict[int, int] = {}
    for seat, count, modest in _bids_read(pub):
        if modest:
            out[seat] = max(out.get(seat, 0), count)
    return out


def _in_game(pub: JSON, seat: int) -> bool:
    return not pub["out"][seat]


def _fallback(view: JSON, rng: random.Random) -> Action:
    """Any legal action (used only for shapes this module does not expect)."""
    from ..bots import random_action

    return random_action(view["legal_actions"], rng)


# --- Basic ------------------------------------------------------------------------------------


class _PhaseBot(ABC):
    """Dispatch on the phase in the view; subclasses decide each kind of move."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON) -> Action:
        phase = view["public"]["phase"]
        if phase == "prepare":
            return self._place(view)
        if phase == "turn":
            return self._turn(view)
        if phase == "bid":
            return self._bid(view)
        if phase == "reveal":
            return self._reveal(view)
        if phase == "choose_starter":
            return {"type": "choose_starter", "seat": self._starter(view)}
        return _fallback(view, self.rng)

    #: Chance to place the skull as the first card.
    SKULL_FIRST: float

    def _card(self, view: JSON, kind: str, skull_chance: float) -> Action:
        """Place or add a card: the skull with ``skull_chance`` while it is in hand (a player
        owns one), else a flower."""
        cards = _entry(view, kind)["params"]["card"]["one_of"]
        want_skull = SKULL in cards and self.rng.random() < skull_chance
        card = SKULL if want_skull or FLOWER not in cards else FLOWER
        return {"type": kind, "card": card}

    def _place(self, view: JSON) -> Action:
        return self._card(view, "place", self.SKULL_FIRST)

    @abstractmethod
    def _turn(self, view: JSON) -> Action: ...

    @abstractmethod
    def _bid(self, view: JSON) -> Action: ...

    @abstractmethod
    def _reveal(self, view: JSON) -> Action: ...

    @abstractmethod
    def _starter(self, view: JSON) -> int: ...


class BasicBot(_PhaseBot):
    """Simple, sensible rules (level ``basic``)."""

    level = "basic"
    SKULL_FIRST = 0.3  # chance to place the skull as the first card
    SKULL_ADD = 0.15  # chance to add the skull later
    OPEN = 0.45  # chance to open the bidding rather than add, with a clean stack

    def _turn(self, view: JSON) -> Action:
        pub, priv = view["public"], view["private"]
        stack = priv["stack"]
        safe = _safe_count(stack)
        spec = _entry(view, "bid")
        hi = spec["params"]["count"]["range"][1]
        can_add = _find_entry(view, "add") is not None
        if not can_add:
            return {"type": "bid", "count": max(1, min(safe, hi))}
        clean = safe == len(stack)
        others_placed = sum(
            1 for s in range(view["seats"]) if s != view["seat"] and _in_game(pub, s)
        )
        if clean and safe >= 1 and self.rng.random() < self.OPEN:
            extra = 1 if others_placed >= 3 and self.rng.random() < 0.4 else 0
            return {"type": "bid", "count": min(hi, safe + extra)}
        return self._card(view, "add", self.SKULL_ADD)

    def _reachable(self, view: JSON) -> int:
        """How many flowers it counts on: its own clean stack, what the other bidders vouched
        for (modest bids only) and one more; with its skull in its stack, only the flowers
        above it."""
        pub, priv = view["public"], view["private"]
        stack = priv["stack"]
        safe = _safe_count(stack)
        if safe < len(stack):
            return safe
        total = safe + 1  # ... and one more flower from somebody, with luck
        for seat, count in _modest_bids(pub).items():
            if seat != view["seat"]:
                total += min(count, pub["stacks"][seat]["height"])
        return total

    def _bid(self, view: JSON) -> Action:
        spec = _entry(view, "bid")
        lo, hi = spec["params"]["count"]["range"]
        if lo <= self._reachable(view) and lo <= hi:
            return {"type": "bid", "count": lo}
        return {"type": "pass"}

    def _reveal(self, view: JSON) -> Action:
        pub = view["public"]
        seats = _entry(view, "reveal")["params"]["seat"]["one_of"]
        best = _modest_bids(pub)

        def score(seat: int) -> tuple:
            known = pub["skull_known"][seat]
            return (
                known is False,
                best.get(seat, 0) > 0,
                best.get(seat, 0),
                self.rng.random(),
            )

        return {"type": "reveal", "seat": max(seats, key=score)}

    def _starter(self, view: JSON) -> int:
        seats = _entry(view, "choose_starter")["params"]["seat"]["one_of"]
        return self.rng.choice(seats)


# --- Strong -----------------------------------------------------------------------------------


class StrongBot(_PhaseBot):
    """Reasons about the stacks it cannot see (level ``strong``)."""

    level = "strong"

    # Model of the others (calibrated by simulation, see bench/bots.py).
    BID_TRUST = 0.05  # a skull within the cards a player bid on is this much less likely
    PASS_DOUBT = 1.3  # a player who passed more likely has a skull on the mat
    WILD = 0.2  # prior chance that a player plays at random
    LOST_W = 2.5  # ... odds multiplied by this per card it lost
    TABLE_W = 1.3  # ... and by this per card the others lost
    ON_MAT = 1.15  # skull on the mat, relative to the share of its cards a player placed
    BOTTOM = 1.5  # weight of the bottom card (the preparation card) for the skull's place

    # Own play.
    SKULL_FIRST = 0.15
    SKULL_ADD = 0.12
    RAISE_AT = 0.3  # raise while the chance of success is at least this
    BLOCK = 0.1  # ... lowered when the bidder would win the match with this challenge
    OVER_PARTNER = 0.9  # ... but over its own other tribe (two tribes) only when sure
    LAST_CARD = 0.3  # ... raised when a failure would knock it out
    JUMP = 0.7  # chance to jump above the smallest raise
    JUMP_LOSS = 0.1
    BLUFF = 0.8  # chance to raise with the own skull in reach
    BLUFF_MIN_LEFT = 1
    BLUFF_MIN_CARDS = 2
    OPEN_AT = 0.35
    OPEN = 0.8
    SAFE_OPEN = 0.5
    BLUFF_OPEN = 0.3

    # -- the model ------------------------------------------------------------------------

    def _flower_chances(self, view: JSON) -> dict[int, list[float]]:
        """For every other seat with an unrevealed card: ``f[j]`` = chance that its next ``j``
        unrevealed cards are all flowers (``f[0] == 1``).

        Each player is a mixture of two kinds: *careful* (places its skull now and then, and
        bids on flowers it has) and *wild* (places and bids at random). The kind is weighed by
        this round's bids (a careful player opens near its own stack and raises by one; a jump
        is wild) and by the cards it has lost (failed challenges)."""
        pub = view["public"]
        me = view["seat"]
        best, passed, opener = _bids_by_seat(pub)
        modest = _modest_bids(pub)
        jumps: dict[int, int] = {}
        calm: dict[int, int] = {}
        for seat, _count, is_modest in _bids_read(pub):
            tally = calm if is_modest else jumps
            tally[seat] = tally.get(seat, 0) + 1
        out: dict[int, list[float]] = {}
        table_lost = sum(4 - pub["cards"][s] for s in range(view["seats"]) if s != me)
        for seat in range(view["seats"]):
            if seat == me or not _in_game(pub, seat):
                continue
            stack = pub["stacks"][seat]
            h = stack["height"]
            r = len(stack["revealed"])
            if r >= h:
                continue
            known = pub["skull_known"][seat]
            cards = pub["cards"][seat]
            hand = pub["hand_sizes"][seat]
            if known is False or SKULL in stack["revealed"]:
                out[seat] = [1.0] * (h - r + 1)
                continue
            p_has = 1.0 if known is True else min(1.0, cards / 4)
            # the kind of player
            lost = 4 - cards
            odds = (
                self.WILD
                / (1.0 - self.WILD)
                * (0.65 / 0.1) ** jumps.get(seat, 0)
                * (0.35 / 0.9) ** calm.get(seat, 0)
                * self.LOST_W**lost
                * self.TABLE_W ** (table_lost - lost)
            )
            wild = odds / (1.0 + odds)
            careful = 1.0 - wild
            # careful: skull on the mat about in proportion to the cards placed; bids mean
            # flowers; a pass hints at a skull
            on_mat = 1.0 if hand == 0 else min(0.95, self.ON_MAT * h / (h + hand))
            bid = modest.get(seat, 0)
            forced = seat == opener and hand == 0 and len(best) == 1 and bid == 1
            trusted = 0 if forced else min(bid, h)
            w_c, f_c = self._stack(
                h, r, p_has * on_mat, trusted, self.BID_TRUST, seat in passed, self.BOTTOM
            )
            # wild: every placement a coin toss between skull and flower
            on_mat_w = 1.0 if hand == 0 else 1.0 - 0.5**h
            w_w, f_w = self._stack(h, r, p_has * on_mat_w, 0, 1.0, False, 1.0)
            kc, kw = careful * w_c, wild * w_w
            total = kc + kw
            out[seat] = [(kc * x + kw * y) / total for x, y in zip(f_c, f_w, strict=True)]
        return out

    def _stack(
        self,
        h: int,
        r: int,
        p_skull: float,
        trusted: int,
        trust: float,
        passed: bool,
        bottom: float,
    ) -> tuple[float, list[float]]:
        """One stack of height ``h`` with ``r`` flowers revealed on top: the likelihood of
        what was seen and ``f[j]``, the chance that the next ``j`` cards are flowers.
        ``p_skull`` is the prior chance that the skull lies in the stack; the top ``trusted``
        cards were vouched for by a bid (a skull there is ``trust`` times as likely)."""
        w = [0.0] * (h + 2)
        total = bottom + (h - 1)
        for d in range(1, h + 1):
            w[d] = p_skull * (bottom if d == h else 1.0) / total
        w_none = 1.0 - p_skull
        for d in range(1, trusted + 1):
            w[d] *= trust
        if passed:
            for d in range(1, h + 1):
                w[d] *= self.PASS_DOUBT
        for d in range(1, r + 1):
            w[d] = 0.0
        for d in range(h - 1, 0, -1):  # w[d] becomes the tail sum from depth d down
            w[d] += w[d + 1]
        w[h + 1] = 0.0
        norm = w_none + w[r + 1]
        if norm <= 0.0:
            return 0.0, [1.0] + [0.0] * (h - r)
        return norm, [(w_none + w[r + 1 + j]) / norm for j in range(h - r + 1)]

    @staticmethod
    def _plan(chances: dict[int, list[float]], need: int) -> tuple[float, dict[int, int]]:
        """Best chance to reveal ``need`` flowers from other stacks, and how many from each."""
        if need <= 0:
            return 1.0, {}
        best = [0.0] * (need + 1)
        best[0] = 1.0
        choice: list[dict[int, int]] = [{} for _ in range(need + 1)]
        for seat, f in chances.items():
            new = list(best)
            new_choice = [dict(c) for c in choice]
            for k in range(need + 1):
                if best[k] == 0.0:
                    continue
                for j in range(1, len(f)):
                    t = k + j
                    if t > need:
                        break
                    p = best[k] * f[j]
                    if p > new[t]:
                        new[t] = p
                        c = dict(choice[k])
                        c[seat] = j
                        new_choice[t] = c
            best, choice = new, new_choice
        return best[need], choice[need]

    def _success(self, view: JSON, count: int, chances: dict[int, list[float]]) -> float:
        """Chance that a challenge of ``count`` succeeds if this seat becomes the challenger."""
        stack = view["private"]["stack"]
        safe = _safe_count(stack)
        if count <= safe:
            return 1.0
        if safe < len(stack):
            return 0.0  # its own skull is revealed first
        return self._plan(chances, count - len(stack))[0]

    # -- decisions ------------------------------------------------------------------------

    def _turn(self, view: JSON) -> Action:
        pub, priv = view["public"], view["private"]
        stack = priv["stack"]
        safe = _safe_count(stack)
        spec = _entry(view, "bid")
        hi = spec["params"]["count"]["range"][1]
        can_add = _find_entry(view, "add") is not None
        chances = self._flower_chances(view)
        if not can_add:
            if safe == len(stack):
                n = self._best_open(view, chances, hi)
                return {"type": "bid", "count": n}
            return {"type": "bid", "count": max(1, min(safe, hi))}
        if safe == len(stack) and safe >= 1:
            n = self._best_open(view, chances, hi)
            if self.rng.random() < self.OPEN:
                return {"type": "bid", "count": n}
        elif safe < len(stack):
            # the own skull is on the mat: open with the flowers above it (a sure success if
            # nobody raises), or with a bare bluff, inviting the others to reveal the skull
            chance = self.SAFE_OPEN if safe >= 1 else self.BLUFF_OPEN
            if pub["cards"][view["seat"]] >= self.BLUFF_MIN_CARDS and self.rng.random() < chance:
                return {"type": "bid", "count": max(1, min(safe, hi))}
        hand = priv["hand"]
        skull_ok = SKULL in hand and FLOWER in hand and SKULL not in stack
        if skull_ok and self.rng.random() < self.SKULL_ADD:
            return {"type": "add", "card": SKULL}
        return self._card(view, "add", 0.0 if FLOWER in hand else 1.0)

    def _best_open(self, view: JSON, chances: dict[int, list[float]], hi: int) -> int:
        stack = view["private"]["stack"]
        n = max(1, min(len(stack), hi))
        while n + 1 <= hi and self._success(view, n + 1, chances) >= self.OPEN_AT:
            n += 1
        return n

    def _bid(self, view: JSON) -> Action:
        pub, priv = view["public"], view["private"]
        spec = _entry(view, "bid")
        lo, hi = spec["params"]["count"]["range"]
        chances = self._flower_chances(view)
        stack = priv["stack"]
        threshold = self.RAISE_AT
        bidder = pub["bidder"]
        people = pub["people"]
        partner_bids = people[bidder] == people[view["seat"]]  # two tribes: our other seat
        if partner_bids:
            threshold = self.OVER_PARTNER
        elif pub["successes"][bidder] >= 1:
            threshold -= self.BLOCK
        cards = pub["cards"][view["seat"]]
        if cards <= 1:
            threshold += self.LAST_CARD
        p_lo = self._success(view, lo, chances)
        if p_lo >= threshold:
            n = lo
            if self.rng.random() < self.JUMP:
                floor = max(threshold, p_lo - self.JUMP_LOSS)
                while n + 1 <= hi and self._success(view, n + 1, chances) >= floor:
                    n += 1
            return {"type": "bid", "count": n}
        if _safe_count(stack) < len(stack) and cards >= self.BLUFF_MIN_CARDS and not partner_bids:
            # a bluff with the own skull on the mat: push the others into revealing it
            still_in = [
                s
                for s in range(view["seats"])
                if s != view["seat"] and _in_game(pub, s) and not pub["passed"][s] and s != bidder
            ]
            if lo < hi and len(still_in) >= self.BLUFF_MIN_LEFT and self.rng.random() < self.BLUFF:
                return {"type": "bid", "count": lo}
        return {"type": "pass"}

    def _reveal(self, view: JSON) -> Action:
        pub = view["public"]
        seats = _entry(view, "reveal")["params"]["seat"]["one_of"]
        chances = self._flower_chances(view)
        need = pub["bid"] - pub["flowers_revealed"]
        _, plan = self._plan({s: f for s, f in chances.items() if s in seats}, need)
        if plan:
            # safest first (order does not change the chance; it shows the least)
            return {"type": "reveal", "seat": max(plan, key=lambda s: (chances[s][1], -s))}
        return {"type": "reveal", "seat": max(seats, key=lambda s: (chances[s][1], -s))}

    def _starter(self, view: JSON) -> int:
        """Its own other tribe if it has one; else the player furthest from winning (the
        starter is the first who may open the bidding)."""
        pub = view["public"]
        seats = _entry(view, "choose_starter")["params"]["seat"]["one_of"]
        people = pub["people"]
        mine = [s for s in seats if people[s] == people[view["seat"]]]
        if mine:
            return mine[0]
        return min(seats, key=lambda s: (pub["successes"][s], pub["cards"][s], self.rng.random()))


register_bot("skull", "basic", BasicBot)
register_bot("skull", "strong", StrongBot)
