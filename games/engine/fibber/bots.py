"""Fibber bots: ``basic`` (simple rules) and ``strong`` (card counting and expected values).

Both decide from the seat's view alone (``rules.view(state, seat)``) and keep nothing between
decisions: the server builds a new bot for every decision it takes for a seat, so a bot that
remembered earlier views would be a different bot in a match than in a benchmark. Everything
a strong bot counts is therefore what the view still shows: its own hand, the public counts
(hand sizes, the pile and the plays in it, noses), the cards the latest call revealed, and the
public record of calls (``called``: per seat, how many of its plays were called and how many of
those were fibs).

**basic** (standard rules): plays every card of the rank the Silver Nose marks, or one Wild when
it has none, and otherwise fibs with a single card it has the least use for. It calls a play
that is impossible or nearly so from its own hand (it holds most of the true cards), so a
certain fib is always called, and a play it finds more likely a fib than not (the player's
hand drawn from the cards it cannot see, by the same model of how players choose a count as
the strong bot's, without its card counting); a play that empties the hand of a player who
wears noses already at half those odds, since standing hands them back.
Easy rules: leads honestly with the rank it holds most of, follows with a true card when it
has one and fibs with one card otherwise, and calls only a certain fib.

**strong** (standard rules): counts the cards it cannot see (24 cards, four of each rank and
four Wilds, minus its hand and the cards a wrong call showed, which the caller picked up) and
computes the probability that a play of N cards is a fib (Bayes): the player's hand before the
play is drawn from the cards the other seats hold (what it cannot see, less what the plays in
the pile probably put there), with the ranks that player was asked for on its earlier turns
mostly gone from it, and weighed with how players choose N (all their true cards, now and
then with other cards added; a player without one fibs with any count, fewer likelier, and
empties the hand with a fib rarely, as that is the play tables call), then with the player's
public record of calls (the odds of a fib times the odds that calls of theirs found one).

A **certain fib** is always called: more true cards announced (four of the rank and four Wilds
in all) than can be outside this seat's hand and the cards a shown call put in another hand
that has not played since. Otherwise a call is weighed in noses (a card is a fifth of one): a
right call costs the player a nose and the pile; a wrong one costs this seat the same, except
that when the play **empties the player's hand**, standing hands the player all their noses
back and a new deal follows either way, so a right call is worth those noses too. A call at a
table of several seats helps every other seat while the caller alone risks the nose and the
pile (measured at four seats: a seat calling only certain fibs won 45 % of 200 matches against
three seats calling any play at least 40 % likely a fib), so bots that each weigh a call for
themselves leave calls to each other and let nearly every fib stand: the player's loss counts
``TABLE`` times as this seat's gain when it is the last seat to answer (9 at three seats, where
honest plays are common and hands empty fast, 3.2 at four, 2 at five or six; 1 at two), and
``EARLY`` (0.7) of that while others may still call.

It weighs every play by an *outlook* of its
noses and cards: a nose brings the Silver Nose closer and, unless an emptied hand returns it,
decides the placement at the end; a big hand (a picked-up pile) is slow to empty; and since
the order of turns is fixed, it knows whether its last turn before the safety end is the final
play (then emptying the hand on it wins) or not (then it wants one card left, as emptying
earlier brings a new hand). Once no plain nose is left, or on the final play, a call ends the
match and it works the placements out exactly. Its own play weighs every count N it could
announce: honest counts are safe; a fib is valued by the chance that some opponent, holding a
hand sampled from the unseen cards, finds the count implausible and calls (plus the table's
observed call rate), against the cards it sheds. It keeps Wilds and the ranks its next turns
will ask for, and chooses among near-equal plays at random with its own rng, so its fibs are
calibrated, not predictable. Easy rules: the same counting along the sequence of the rank in
play (each earlier claim probably spent a true card); it calls when the count proves a fib, or
when it holds no true card and the call is a smaller risk than fibbing to a next player who
can count; it fibs with the rank it holds least and leads honestly with the rank it holds
most.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from ..bots import register_bot
from ..core import JSON, Action
from .cards import COPIES, NAMES, RANKS

WILD = 5
KINDS = len(NAMES)
INDEX = {name: i for i, name in enumerate(NAMES)}
DECK = COPIES * KINDS
TRUE_CARDS = 2 * COPIES  # for any rank: its four cards and the four Wilds


# --- Shared helpers ------------------------------------------------------------------------


def counts(names: list[str] | None) -> list[int]:
    """How many cards of each kind (the five ranks, then Wild)."""
    out = [0] * KINDS
    for card in names or ():
        out[INDEX[card]] += 1
    return out


def positions(hand: list[str], take: list[int]) -> list[int]:
    """Hand positions of ``take[k]`` cards of each kind ``k`` (the hand is sorted by rank)."""
    need = list(take)
    out = []
    for i, card in enumerate(hand):
        kind = INDEX[card]
        if need[kind] > 0:
            out.append(i)
            need[kind] -= 1
    return out


def legal_types(view: JSON) -> set[str]:
    return {entry["type"] for entry in view["legal_actions"]}


@lru_cache(maxsize=8192)
def hypergeom(pool: int, good: int, draws: int) -> tuple[float, ...]:
    """P(k good cards) for k = 0..draws, drawn without replacement from ``pool`` cards of which
    ``good`` are good."""
    good = max(0, min(good, pool))
    draws = max(0, min(draws, pool))
    total = math.comb(pool, draws)
    return tuple(
        math.comb(good, k) * math.comb(pool - good, draws - k) / total for k in range(draws + 1)
    )


# How players choose the count of a play (the model behind every fib probability):
ALSO_FIB = 0.25  # a player who holds true cards still adds other cards to the play ...
EXTRA_DECAY = 0.5  # ... one more extra card this much less often than one fewer
FORCED_ONE = 0.35  # a player without a true card fibs with a single card
# When this seat judges a play: a fib that empties the hand is this much rarer (it is the
# play a table calls most, so players who can count keep it for true cards).
DUMP_FIB = 0.15
EMPTY_HONEST = 0.95  # a player whose cards are all true plays them all


@lru_cache(maxsize=4096)
def geometric(count: int, most: int, first: float) -> float:
    """P(count) for count = 1..most, ``first`` for 1 and falling geometrically."""
    weights = [first * (1 - first) ** (k - 1) for k in range(1, most + 1)]
    return weights[count - 1] / sum(weights)


@lru_cache(maxsize=16384)
def fib_probability(
    count: int,
    hand: int,
    pool: int,
    good: int,
    known_good: int = 0,
    known: int = 0,
    dump: float = 1.0,
) -> float:
    """P(a play of ``count`` cards is a fib) for a player who held ``hand`` cards before it.

    Their hand is ``known`` cards we know of (``known_good`` of them true for the announced
    rank) and ``hand - known`` cards drawn from the ``pool`` cards we cannot place, ``good`` of
    them true. A player with ``x`` true cards plays honestly with probability ``1 - ALSO_FIB``
    (all of them if that empties the hand, else ``count == x`` half the time and any smaller
    count otherwise) and otherwise adds a few other cards (fewer is likelier); a player with
    none must fib, usually with one card.
    """
    fib = honest = 0.0
    for y, p in enumerate(hypergeom(pool, good, hand - known)):
        if p == 0.0:
            continue
        x = known_good + y
        odds = dump if count == hand else 1.0
        if x == 0:
            fib += p * geometric(count, hand, FORCED_ONE) * odds
        elif count > x:
            fib += p * ALSO_FIB * geometric(count - x, hand - x, 1 - EXTRA_DECAY) * odds
        else:
            if x == hand:
                share = EMPTY_HONEST if count == x else (1 - EMPTY_HONEST) / (x - 1)
            else:
                share = 1.0 if x == 1 else (0.5 if count == x else 0.5 / (x - 1))
            honest += p * (1 - ALSO_FIB) * share
    total = fib + honest
    return fib / total if total > 0 else 1.0


def share_of_first(noses: list[int], cards: list[int], seat: int) -> float:
    """The seat's share of first place if the match ended now: fewest noses, then fewest
    cards; a shared first place counts as a fraction."""
    best = min(zip(noses, cards, strict=True))
    if (noses[seat], cards[seat]) != best:
        return 0.0
    return 1.0 / sum(1 for pair in zip(noses, cards, strict=True) if pair == best)


BASIC_CALLS_AT = 0.5  # basic calls a play it finds at least this likely a fib


# --- Basic -------------------------------------------------------------------------------


class BasicBot:
    """Sensible simple rules: true cards when it has them, a one-card fib otherwise, and a
    call when the play is (nearly) impossible given its own hand or more likely a fib than
    not. Level ``basic``."""

    level = "basic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON) -> Action:
        types = legal_types(view)
        public = view["public"]
        hand = view["private"]["hand"]
        mine = counts(hand)
        if public["variant"] == "easy":
            return self._easy(view, types, public, hand, mine)
        if "play" not in types:
            play = public["last_play"]
            rank = INDEX[play["rank"]]
            unseen = TRUE_CARDS - mine[rank] - mine[WILD]
            count = play["count"]
            implausible = count > unseen or (count >= 2 and count >= unseen - 1)
            player = play["seat"]
            before = public["hand_sizes"][player] + count
            p = fib_probability(count, before, DECK - len(hand), unseen)
            # Standing would hand an emptied hand's noses back: worth a nose to call.
            emptied = before == count and public["nose_counts"][player] > 0
            likely = p > BASIC_CALLS_AT or (emptied and p > BASIC_CALLS_AT / 2)
            return {"type": "call" if implausible or likely else "pass"}
        rank = INDEX[public["silver_nose_rank"]]
        take = [0] * KINDS
        if mine[rank] + mine[WILD] == len(hand):
            take = list(mine)  # all true: empty the hand
        elif mine[rank]:
            take[rank] = mine[rank]
        elif mine[WILD]:
            take[WILD] = 1
        else:
            take[self._least_held(mine)] = 1
        return {"type": "play", "cards": positions(hand, take)}

    def _least_held(self, mine: list[int]) -> int:
        held = [k for k in range(len(RANKS)) if mine[k]]
        fewest = min(mine[k] for k in held)
        return self.rng.choice([k for k in held if mine[k] == fewest])

    def _easy(self, view: JSON, types: set[str], public: JSON, hand, mine) -> Action:
        if "play" not in types:  # every hand is empty: call the last card or pass
            claims = trailing_claims(public)
            return {"type": "call" if claims > TRUE_CARDS else "pass"}
        rank_name = public["rank_in_play"]
        if rank_name is None:  # lead honestly with the rank held most
            held = [k for k in range(len(RANKS)) if mine[k]]
            if not held:
                return {"type": "play", "cards": [0], "rank": self.rng.choice(RANKS)}
            most = max(mine[k] for k in held)
            kind = self.rng.choice([k for k in held if mine[k] == most])
            return {"type": "play", "cards": positions(hand, one(kind)), "rank": RANKS[kind]}
        rank = INDEX[rank_name]
        if "call" in types and trailing_claims(public) + mine[rank] + mine[WILD] > TRUE_CARDS:
            return {"type": "call"}
        if mine[rank]:
            kind = rank
        elif mine[WILD]:
            kind = WILD
        else:
            kind = self._least_held(mine)
        return {"type": "play", "cards": positions(hand, one(kind)), "rank": rank_name}


def one(kind: int) -> list[int]:
    take = [0] * KINDS
    take[kind] = 1
    return take


def trailing_claims(public: JSON) -> int:
    """Easy rules: the plays of the current sequence (the rank in play) still in the pile."""
    plays = public["pile_plays"]
    if not plays:
        return 0
    rank = plays[-1]["rank"]
    n = 0
    for play in reversed(plays):
        if play["rank"] != rank:
            break
        n += 1
    return n


# --- Strong ------------------------------------------------------------------------------

PILE_TRUE = 0.85  # the share of true cards in the plays of the pile ...
PILE_WILD = 0.05  # ... and the share of Wilds among those
PLAYED_LEFT = 0.15  # what is left of a rank in a hand that has been played on it
NOSE_END = 10.0  # a nose worn at the end of the match (the unit of the outlook)
CARD_END = 1.0  # a card held at the end (the tie-break)
END_WIN = 6.0  # emptying the hand on the final play
END_WEIGHT = 0.8  # how much less a card held at the end weighs for each turn still to come
DUMP_PER_TURN = 0.6  # cards a turn sheds beyond the one it must, without much risk
SHED_PER_TURN = 0.12  # the chance, per turn left, of emptying the hand (noses back) in time
REACH = 0.85  # the chance, per turn left, that a planned empty final hand still works out
NOSE_NOW = 1.0  # a nose worn now, whenever the match ends
CARD_NOW = 0.1  # a card held now
WILD_KEEP = 0.3  # a Wild kept for a later turn
CALL_MARGIN = 0.05
OPP_CALLS_AT = 0.7  # opponents are modelled to call when they think a fib this likely
OPP_NOISE = 0.02  # ... and to call now and then anyway (more if the table calls a lot)
SILVER_SOON = 0.5  # the Silver Nose is expected before the safety end by this margin
BEYOND = 1000  # turns, for "the end is far"
TEMPERATURE = 0.05  # near-equal plays are chosen at random (softmax over values)
RECORD_PRIOR = 1.0  # a player's calls so far: one right and one wrong assumed before any
CARD_W = 0.2  # a card in hand, in noses, when a call is weighed
#: A right call's cost to the player, counted as the last answering seat's own gain this many
#: times (by seat count; more for fewer seats, where honest plays are common and hands empty
#: fast), and ``EARLY`` of that while other seats may still call (measured in bench/bots.md:
#: with the player's loss counted once, all-strong tables let most fibs stand).
TABLE = {3: 9.0, 4: 3.2, 5: 2.0}
EARLY = 0.7


class StrongBot:
    """Card counting, fib probabilities, expected values, calibrated bluffs. Level ``strong``."""

    level = "strong"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON) -> Action:
        types = legal_types(view)
        if view["public"]["variant"] == "easy":
            return EasyMind(view, types, self.rng).choose()
        return StandardMind(view, self.rng).choose("play" in types)


class StandardMind:
    """One decision of the strong bot under the standard rules."""

    def __init__(self, view: JSON, rng: random.Random) -> None:
        self.rng = rng
        self.me: int = view["seat"]
        self.seats: int = view["seats"]
        public = self.public = view["public"]
        self.hand: list[str] = view["private"]["hand"]
        self.mine = counts(self.hand)
        self.sizes: list[int] = public["hand_sizes"]
        self.noses: list[int] = public["nose_counts"]
        self.pile: int = public["pile"]
        self.final = public["table_noses"] == 0  # the next nose is the Silver Nose
        # The cards the latest call showed went to the seat that lost it (with the pile).
        self.known: dict[int, list[int]] = {}
        call = public["last_call"]
        if call and not call["fib"] and call["deal"] == public["deal"] and call["loser"] != self.me:
            self.known[call["loser"]] = self._still_held(call["loser"], counts(call["cards"]))
        # How often this table calls: every call hands out a nose (plain noses worn now, a
        # lower bound since an emptied hand returns them), spread over the other seats.
        worn = sum(public["noses"])
        rate = min(0.9, worn / max(public["plays"], 8))
        self.call_rate = max(OPP_NOISE, 1 - (1 - rate) ** (1 / max(1, self.seats - 1)))
        self.silver_soon = (public["table_noses"] + 1) < rate * (
            public["max_plays"] - public["plays"]
        ) * SILVER_SOON
        #: How much a right call's cost to the player counts as this seat's gain (the last
        #: seat to answer; ``early`` of it while others may still call): :meth:`call_worth`.
        self.table = TABLE.get(self.seats, TABLE[max(TABLE)]) if self.seats > 2 else 1.0
        self.early = EARLY
        self.unplaced = [COPIES - self.mine[k] for k in range(KINDS)]
        for known in self.known.values():
            self.unplaced = [a - b for a, b in zip(self.unplaced, known, strict=True)]

    def _still_held(self, seat: int, known: list[int]) -> list[int]:
        """Revealed cards, less what the seat may have played since (its claims first)."""
        known = list(known)
        for play in self.public["pile_plays"]:
            if play["seat"] != seat:
                continue
            left = play["count"]
            for kind in (INDEX[play["rank"]], WILD, *range(KINDS)):
                used = min(left, known[kind])
                known[kind] -= used
                left -= used
        return known

    def choose(self, playing: bool) -> Action:
        return self.play() if playing else self.answer()

    # --- Calls -------------------------------------------------------------------------

    def in_pile(self, plays: list[JSON]) -> list[float]:
        """The cards of each kind the pile probably holds, from the plays in it: mostly the
        announced rank, a Wild now and then, a few fibbed cards of other ranks."""
        claimed = [0] * len(RANKS)
        for play in plays:
            claimed[INDEX[play["rank"]]] += play["count"]
        total = sum(claimed)
        spread = (1 - PILE_TRUE) / (len(RANKS) - 1)
        out = [PILE_TRUE * (1 - PILE_WILD) * c + spread * (total - c) for c in claimed]
        out.append(PILE_TRUE * PILE_WILD * total)
        return out

    def fib_chance(self, seat: int, count: int, rank: int, hand_before: int) -> float:
        """P(the play in the window is a fib): the player's hand before it, drawn from the
        cards held by the other seats (what this seat cannot see, less what the pile probably
        holds), is weighed with how players choose a count."""
        known = self.known.get(seat, [0] * KINDS)
        plays = self.public["pile_plays"][:-1]
        in_pile = self.in_pile(plays)
        avail = [max(0.0, self.unplaced[k] - in_pile[k]) for k in range(KINDS)]
        pool = (
            sum(self.sizes[s] for s in range(self.seats) if s != self.me)
            + self.public["set_aside"]
            + count
            - sum(known)
        )
        # The ranks the player announced since their hand was last filled are mostly gone
        # from it: a player plays the rank asked for when they have it.
        # Their earlier turns asked for the ranks before this one (seen in the pile, or
        # assumed for as many turns as the hand has shrunk since a deal).
        purged = {INDEX[play["rank"]] for play in plays if play["seat"] == seat}
        per_hand = DECK // self.seats
        step = self.seats % len(RANKS)
        for k in range(1, min(len(RANKS) - 1, per_hand - hand_before) + 1):
            purged.add((rank - k * step) % len(RANKS))
        purged.discard(rank)
        weights = list(avail)
        for kind in purged:
            weights[kind] *= PLAYED_LEFT
        total = sum(weights)
        good = (weights[rank] + weights[WILD]) * pool / total if total else 0.0
        good = min(good, float(self.unplaced[rank] + self.unplaced[WILD]), float(pool))
        known_good = known[rank] + known[WILD]
        low = int(good)
        p = fib_probability(count, hand_before, pool, low, known_good, sum(known), DUMP_FIB)
        if good > low and low + 1 <= pool:
            high = fib_probability(
                count, hand_before, pool, low + 1, known_good, sum(known), DUMP_FIB
            )
            p += (good - low) * (high - p)
        return self.by_record(seat, p)

    def by_record(self, seat: int, p: float) -> float:
        """``p`` weighed with how the seat's plays fared when called in this match (public):
        the odds of a fib times the odds that a call of theirs found one (one of each
        assumed before any call)."""
        if p <= 0.0 or p >= 1.0:
            return p
        called, caught = self.public.get("called", [[0, 0]] * self.seats)[seat]
        odds = p / (1 - p) * ((caught + RECORD_PRIOR) / (called - caught + RECORD_PRIOR))
        return odds / (1 + odds)

    # --- Time --------------------------------------------------------------------------

    def turns_after(self, play_number: int) -> tuple[int, bool]:
        """This seat's turns from play number ``play_number`` (its own) to the safety end, and
        whether its last one is the final play. Redeals keep the order of turns."""
        left = self.public["max_plays"] - play_number
        if left < 0:
            return 0, False
        return left // self.seats + 1, left % self.seats == 0

    def outlook(self, cards: int, noses: int, turns: int, final_player: bool) -> float:
        """How good it is to hold ``cards`` cards and ``noses`` noses with ``turns`` turns of
        this seat left before the safety end (in nose units). What decides a match that runs
        to the end: noses first (shed only by emptying one's hand), then cards. A seat whose
        last turn is the final play wins by emptying its hand on it (no redeal follows);
        any other seat wants one card left, since emptying earlier brings a new hand."""
        per_hand = DECK // self.seats
        if self.silver_soon:  # the Silver Nose, not the safety end, will end this match
            turns = BEYOND
        # Meanwhile a nose brings the Silver Nose closer and a big hand is slow to empty.
        value = -NOSE_NOW * noses - CARD_NOW * cards
        for _ in range(4):
            if turns == 0:
                if cards == 0:  # this was the last play and it emptied the hand
                    return value + (END_WIN if final_player else -CARD_END * per_hand)
                return value - CARD_END * cards - NOSE_END * noses
            target = 0 if final_player else 1
            need = turns + target
            if cards == 0:  # emptied now: noses back, a new hand
                cards, noses = per_hand, 0
                continue
            if cards >= need:
                extra = cards - need - DUMP_PER_TURN * turns
                left = target + max(0.0, extra)
                shed = SHED_PER_TURN * turns if cards <= per_hand + turns else 0.0
                value -= NOSE_END * noses * max(0.0, 1 - shed)
                value -= CARD_END * left * END_WEIGHT ** max(0, turns - 1)
                if final_player and extra <= 0:
                    value += END_WIN * REACH**turns
                return value
            # Too few cards to last: the hand empties in ``cards`` turns at most, noses go
            # back, and a new hand comes.
            turns -= cards
            cards, noses = per_hand, 0
        return value

    # --- Calls -------------------------------------------------------------------------

    def sure_elsewhere(self, player: int, rank: int) -> int:
        """True cards for ``rank`` this seat knows are not in ``player``'s hand: its own, and
        those a true play showed at the latest call, still held for sure by the seat that
        took them (less every card that seat has played since)."""
        sure = self.mine[rank] + self.mine[WILD]
        call = self.public["last_call"]
        if call and not call["fib"] and call["deal"] == self.public["deal"]:
            loser = call["loser"]
            if loser not in (self.me, player):
                shown = counts(call["cards"])
                since = sum(p["count"] for p in self.public["pile_plays"] if p["seat"] == loser)
                sure += max(0, shown[rank] + shown[WILD] - since)
        return sure

    def certain_fib(self, player: int, count: int, rank: int) -> bool:
        """More true cards announced than can be anywhere but where this seat knows."""
        return count > TRUE_CARDS - self.sure_elsewhere(player, rank)

    def answer(self) -> Action:
        public = self.public
        play = public["last_play"]
        player, count, rank = play["seat"], play["count"], INDEX[play["rank"]]
        if self.certain_fib(player, count, rank):
            return {"type": "call"}
        after = self.sizes[player]
        p = self.fib_chance(player, count, rank, after + count)
        if self.final or public["plays"] + 1 >= public["max_plays"]:
            return {"type": "call" if self._final_call(p, player, after) else "pass"}
        return {"type": "call" if self.call_worth(p, player, after) > CALL_MARGIN else "pass"}

    def call_worth(self, p: float, player: int, after: int) -> float:
        """What a call is worth against letting the play stand, in noses (a card held is
        ``CARD_W`` of a nose): a right call costs the player a nose and the pile; a wrong one
        costs this seat the same, but when the play empties the player's hand, the pile goes
        with the new deal and the player gets their noses back either way, which a right
        call is the only thing to prevent. The player's loss is weighed as this seat's gain
        ``TABLE`` times (a little less while other seats may still call, ``EARLY``): a call
        helps the whole table, and a table whose seats leave calls to each other lets every
        fib stand."""
        gain = loss = 1.0 + CARD_W * self.pile
        if after == 0:  # the player holds the pile instead of their noses and a new hand
            gain = 1.0 + self.noses[player] + CARD_W * (self.pile - DECK // self.seats)
            loss = 1.0
        last = len(self.public["waiting"]) <= 1
        weight = self.table if last else self.table * self.early
        return p * gain * weight - (1 - p) * loss

    def _final_call(self, p: float, player: int, after: int) -> bool:
        """A call now ends the match (the Silver Nose, or the last play): compare placements."""
        me, noses, cards = self.me, self.noses, self.sizes
        right = list(noses)
        right[player] += 1
        right_cards = list(cards)
        right_cards[player] += self.pile
        wrong = list(noses)
        wrong[me] += 1
        wrong_cards = list(cards)
        wrong_cards[me] += self.pile
        if after == 0:
            wrong[player] = 0  # the play stood with an empty hand: noses go back
        if self.final:
            stand = self._going_on_share()
        else:
            stood = list(noses)
            if after == 0:
                stood[player] = 0
            stand = share_of_first(stood, cards, me)
        call = p * share_of_first(right, right_cards, me) + (1 - p) * share_of_first(
            wrong, wrong_cards, me
        )
        return call > stand

    def _going_on_share(self) -> float:
        """A rough chance of first place if the match goes on."""
        now = share_of_first(self.noses, self.sizes, self.me)
        return 0.5 * now + 0.5 / self.seats

    # --- Plays -------------------------------------------------------------------------

    def call_chance(self, count: int) -> float:
        """P(some opponent calls a play of ``count`` cards from this hand). Each opponent holds
        a hand drawn from the cards this seat cannot see; they are modelled to call when the
        play needs nearly all the true cards they do not hold, or when, from their hand, it
        looks like a fib with probability ``OPP_CALLS_AT`` or more."""
        rank = INDEX[self.public["silver_nose_rank"]]
        n = len(self.hand)
        pool = DECK - n
        good = TRUE_CARDS - self.mine[rank] - self.mine[WILD]
        stand = 1.0
        for seat in range(self.seats):
            if seat == self.me:
                continue
            size = self.sizes[seat]
            calls = 0.0
            for y, p in enumerate(hypergeom(pool, good, size)):
                if not p:
                    continue
                unseen = TRUE_CARDS - y  # the true cards this opponent cannot see
                if (
                    count > unseen
                    or (count >= 2 and count >= unseen - 1)
                    or fib_probability(count, n, DECK - size, unseen) >= OPP_CALLS_AT
                ):
                    calls += p
            stand *= 1 - (self.call_rate + (1 - self.call_rate) * calls)
        return 1 - stand

    def keep_order(self, rank: int) -> list[int]:
        """Kinds in the order this seat would rather part with them: the announced rank (true
        now, asked for again only five turns later), then the ranks whose turn comes last for
        this seat, Wilds at the very end."""
        step = self.seats % len(RANKS)

        def wait(kind: int) -> int:
            for k in range(1, len(RANKS) + 1):
                if (rank + k * step) % len(RANKS) == kind:
                    return k
            return len(RANKS) + 1

        others = sorted(
            (k for k in range(len(RANKS)) if k != rank), key=lambda k: (-wait(k), self.mine[k])
        )
        return [rank, *others, WILD]

    def play(self) -> Action:
        options = self.play_options()
        best = max(v for v, _ in options)
        weights = [math.exp((v - best) / TEMPERATURE) for v, _ in options]
        _, take = self.rng.choices(options, weights=weights)[0]
        return {"type": "play", "cards": positions(self.hand, take)}

    def play_options(self) -> list[tuple[float, list[int]]]:
        """Every count this seat could play, as (value, cards of each kind to play): the
        ``count``-th entry plays ``count`` cards. :meth:`play` picks one by a softmax over the
        values; ``games/engine/fibber/belief.py`` reads the same weights as the likelihood of
        a play."""
        public = self.public
        rank = INDEX[public["silver_nose_rank"]]
        hand, mine, me = self.hand, self.mine, self.me
        n = len(hand)
        true_held = mine[rank] + mine[WILD]
        noses = self.noses[me]
        turns, final_player = self.turns_after(public["plays"] + 1)
        order = self.keep_order(rank)
        options: list[tuple[float, list[int]]] = []
        caught_value = None
        for count in range(1, n + 1):
            take = [0] * KINDS
            left = count
            honest = count <= true_held
            if honest:  # the rank first, then Wilds
                take[rank] = min(left, mine[rank])
                take[WILD] = left - take[rank]
            else:
                for kind in order:
                    take[kind] = min(left, mine[kind])
                    left -= take[kind]
            after = n - count
            stood = self.outlook(after, noses, turns - 1, final_player)
            stood -= WILD_KEEP * take[WILD] * (after > 0)
            if self.final or (turns == 1 and final_player):
                value = self._ending_play_value(count, honest, stood)
            elif honest:
                value = stood
            else:
                if caught_value is None:
                    caught_value = self.outlook(n + self.pile, noses + 1, turns - 1, final_player)
                called = self.call_chance(count)
                value = (1 - called) * stood + called * caught_value
            options.append((value, take))
        return options

    def _ending_play_value(self, count: int, honest: bool, stood: float) -> float:
        """A call of this play ends the match (the Silver Nose is next, or this is the final
        play): a caught fib costs the match; a play that stands is worth its outlook."""
        if honest:
            return stood
        me = self.me
        noses = list(self.noses)
        noses[me] += 1
        cards = list(self.sizes)
        cards[me] += self.pile
        caught = END_WIN * share_of_first(noses, cards, me) - NOSE_END
        called = self.call_chance(count)
        return (1 - called) * stood + called * caught


class EasyMind:
    """One decision of the strong bot under the easy rules (one card a play, the next seat
    that holds cards answers, noses are unlimited, five rounds).

    The rank in play stays until a call, so the true cards for it (four and the Wilds) run
    out along a sequence: each earlier claim of the sequence probably used one. The chance
    that the card just played is a fib is the chance that the player's hand held no true card
    left (a player who has one plays it); a call is worth it when that beats the cost of being
    wrong, or, with no true card to play, the risk of fibbing in turn."""

    RIVAL = 0.15  # an opponent's nose, against one of this seat's own (one rival of three)

    def __init__(self, view: JSON, types: set[str], rng: random.Random) -> None:
        self.rng = rng
        self.types = types
        self.me: int = view["seat"]
        self.seats: int = view["seats"]
        public = self.public = view["public"]
        self.hand: list[str] = view["private"]["hand"]
        self.mine = counts(self.hand)
        self.sizes: list[int] = public["hand_sizes"]
        # Cards of each kind that may still be in other hands: not in this hand, not shown
        # in the pile by a call, and not probably spent by earlier claims of the round.
        out = [float(COPIES - m) for m in self.mine]
        self.shown = [0] * KINDS  # true cards for each rank known to be in the pile
        call = public["last_call"]
        if call and not call["fib"] and call["round"] == public["round"] and call["cards"]:
            kind = INDEX[call["cards"][0]]  # a true card shown stays in the pile
            out[kind] -= 1
            shown_for = range(len(RANKS)) if kind == WILD else (kind,)
            if call["rank"] == public["rank_in_play"] or kind == WILD:
                for rank in shown_for:
                    self.shown[rank] += 1
        plays = public["pile_plays"]
        self.run = trailing_claims(public)
        for play in plays[: len(plays) - self.run]:  # earlier sequences of the round
            kind = INDEX[play["rank"]]
            if out[kind] >= 1:
                out[kind] -= 0.8
                out[WILD] -= 0.1
            else:
                out[WILD] -= 0.5
        self.unplaced = [max(0.0, x) for x in out]
        self.pool = sum(s for i, s in enumerate(self.sizes) if i != self.me) + public["set_aside"]

    def _true_left(self, rank: int, claims: int, pool: int) -> float:
        """True cards for ``rank`` left in other hands after ``claims`` claims of it (each
        true when its player had one)."""
        good = self.unplaced[rank] + self.unplaced[WILD]
        per_hand = max(1, pool // max(1, self.seats - 1))
        for _ in range(claims):
            had = 1 - hypergeom_f(pool, good, per_hand)
            good = max(0.0, good - had)
        return good

    def fib_chance(self) -> float:
        """P(the last card played is a fib)."""
        public = self.public
        play = public["last_play"]
        if play is None:
            return 0.0
        if self.run <= 1:  # a lead may announce any rank: a fib there is a choice
            return 0.1
        rank = INDEX[play["rank"]]
        if self.run > TRUE_CARDS - self.mine[rank] - self.mine[WILD] - self.shown[rank]:
            return 1.0  # more claims in a row than true cards this seat does not see
        pool = self.pool + 1  # the card just played was in their hand
        good = self._true_left(rank, self.run - 1, pool)
        hand_before = self.sizes[play["seat"]] + 1
        none = hypergeom_f(pool, good, hand_before)
        return min(SOFT_MOST, none + (1 - none) * 0.03)

    def caught_chance(self, rank: int) -> float:
        """P(the next seat that holds cards calls a fib of this seat): they call when the
        count leaves them sure, or likely, that the card is a fib."""
        nxt = None
        for step in range(1, self.seats):
            seat = (self.me + step) % self.seats
            if self.sizes[seat]:
                nxt = seat
                break
        if nxt is None:
            return 0.0
        pool = DECK - len(self.hand)
        good = TRUE_CARDS - self.mine[rank] - self.mine[WILD]
        claims = self.run + 1
        calls = 0.0
        for y, p in enumerate(hypergeom(pool, good, self.sizes[nxt])):
            if claims + y > TRUE_CARDS:
                calls += p
            elif y == 0 and claims >= 4:  # no true card themselves, a long sequence
                calls += p * 0.3
        return 0.05 + 0.95 * calls

    def choose(self) -> Action:
        public = self.public
        if "play" not in self.types:  # every hand is empty: call the last card or pass
            p = self.fib_chance()
            return {"type": "call" if p * self.RIVAL > (1 - p) else "pass"}
        rank_name = public["rank_in_play"]
        if rank_name is None:
            return self.lead()
        rank = INDEX[rank_name]
        can_call = "call" in self.types
        p = self.fib_chance() if can_call else 0.0
        mine = self.mine
        if mine[rank] or mine[WILD]:
            if can_call and p * self.RIVAL > (1 - p) + 0.05:
                return {"type": "call"}
            kind = rank if mine[rank] else WILD
            return {"type": "play", "cards": positions(self.hand, one(kind)), "rank": rank_name}
        # No true card: fib, or call if the previous card is the likelier fib.
        if can_call and p * self.RIVAL - (1 - p) > -self.caught_chance(rank):
            return {"type": "call"}
        kind = self.spare_kind()
        return {"type": "play", "cards": positions(self.hand, one(kind)), "rank": rank_name}

    def spare_kind(self) -> int:
        """The card to fib with: one of the rank held least (pairs make good leads)."""
        held = [k for k in range(len(RANKS)) if self.mine[k]]
        if not held:
            return WILD
        fewest = min(self.mine[k] for k in held)
        return self.rng.choice([k for k in held if self.mine[k] == fewest])

    def lead(self) -> Action:
        """Lead honestly with the rank held most (the others are likely to lack it), the one
        with the fewest true cards left elsewhere on a tie."""
        held = [k for k in range(len(RANKS)) if self.mine[k]]
        if not held:  # only Wilds: any announcement is true
            return {"type": "play", "cards": [0], "rank": self.rng.choice(RANKS)}
        key = {k: (self.mine[k], -self.unplaced[k]) for k in held}
        best = max(key.values())
        kind = self.rng.choice([k for k in held if key[k] == best])
        return {"type": "play", "cards": positions(self.hand, one(kind)), "rank": RANKS[kind]}


SOFT_MOST = 0.85  # easy rules: how sure a fib can be without a count that proves it


def hypergeom_f(pool: int, good: float, draws: int) -> float:
    """P(no good card among ``draws``), with a fractional number of good cards."""
    low = int(good)
    p = hypergeom(pool, low, draws)[0]
    if good > low and low + 1 <= pool:
        p += (good - low) * (hypergeom(pool, low + 1, draws)[0] - p)
    return p


register_bot("fibber", "basic", BasicBot)
register_bot("fibber", "strong", StrongBot)
