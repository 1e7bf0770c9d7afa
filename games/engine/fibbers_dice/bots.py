"""Fibber's Dice bots: ``basic`` (fixed rules) and ``strong`` (probabilities and opponent models).

Both decide from the seat's view only (``rules.view(state, seat)``): the public announcements,
reveals and points, and the seat's own roll. Neither imports nor touches the state.

Probabilities. Two dice give 36 equally likely outcomes; a non-double score (31 … 65) and Max
(2+1) each come from 2 of them, a double from 1. ``P_EQ[r]`` is the chance that a roll reads
score rank ``r`` exactly, ``P_GE[r]`` that it is at least ``r`` (an announcement of ``r`` then
stands when called).

**basic**: announces the truth when it beats the standing announcement (the starter always
announces the truth), otherwise the smallest higher score; calls when a roll would be at least
the announcement with a chance below :data:`BASIC_CALL_BELOW`.

**strong**: minimises the chance of losing the point. It models every other seat still in the
game as a mix of an *honest* announcer (truth when it beats the standing score, else the
smallest higher one, so an announcement forced one step upward is often a fib while a jump is
true) and an *uninformative* one (announcements independent of the roll), and as a caller with a
cutoff (calls announcements at or above some score, with some noise). The cutoff, the noise and
the honesty weight are learnt per seat from what the views show: every announcement after the
first of a sequence means its maker believed the one before, and how announcements follow each
other tells honest announcers from uninformative ones; ``last_reveal`` shows who called what and
what the dice were. With these models a backward induction over the 21 scores gives, for the
table in front of it, the expected cost of believing any standing score (it must then roll and
announce strictly higher, perhaps a fib that the next seat may call, and the sequence may come
back round) and of announcing any score with any roll. The cost of a seat losing the point
includes a look-ahead: the loser starts the next sequence, and the seat just before the bot is
by far the most dangerous starter (a high true roll announced straight to it). It calls when
calling is cheaper than believing; it announces the cheapest score, choosing with its own rng
among scores that are about as cheap (often the truth and a bluff), so that its bluffs and
under-announcements are not predictable. The tables are cached per set of opponent models and
precomputed at import for the prior model; a decision is a lookup and a few sums.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from functools import cache
from typing import NamedTuple

from ..bots import register_bot
from ..core import JSON, Action
from . import headsup
from . import scores as S
from .scores import P_EQ, P_GE, P_LE

N = len(S.SCORES)  # 21 scores
TOP = N - 1  # rank of Max

#: The basic bot calls an announcement that a roll reaches with a chance below this.
BASIC_CALL_BELOW = 0.4


def _respond_phase(view: JSON) -> bool:
    return any(spec["type"] == "call" for spec in view["legal_actions"])


def _legal_scores(view: JSON) -> list[str]:
    for spec in view["legal_actions"]:
        if spec["type"] == "announce":
            return list(spec["params"]["score"]["one_of"])
    return []


class BasicBot:
    """Simple fixed rules. Level ``basic``."""

    level = "basic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: JSON) -> Action:
        public = view["public"]
        if _respond_phase(view):
            standing = S.rank(public["announcement"])
            if P_GE[standing] < BASIC_CALL_BELOW:
                return {"type": "call"}
            return {"type": "believe"}
        legal = _legal_scores(view)
        roll = view["private"]["roll"]["score"]
        if roll in legal:  # the truth beats the standing announcement (or opens the sequence)
            return {"type": "announce", "score": roll}
        return {"type": "announce", "score": legal[0]}  # the smallest higher score


class BasicPolicy:
    """The ``basic`` level as a Markov policy of the heads-up game (headsup.py): the truth
    when it beats the standing score, else the smallest higher one; calls what a roll reaches
    with a chance below ``BASIC_CALL_BELOW``."""

    def announce(
        self, point: headsup.Point, role: int, standing: int, roll: int
    ) -> headsup.Distribution:
        return {roll if roll > standing else standing + 1: 1.0}

    def call(self, point: headsup.Point, role: int, previous: int, standing: int) -> float:
        return 1.0 if P_GE[standing] < BASIC_CALL_BELOW else 0.0


# --- Strong bot: opponent models ---------------------------------------------------------


class Model(NamedTuple):
    """What the strong bot assumes about one opponent (quantised, so tables can be cached).

    ``cutoff``: calls announcements of this rank or higher; ``noise``: with this chance it
    decides by a coin instead; ``honest``: weight of the honest announcer against an
    uninformative one.
    """

    cutoff: int
    noise: float
    honest: float

    def call_chance(self, rank: int) -> float:
        return (1 - self.noise) * (rank >= self.cutoff) + self.noise * 0.5


#: Prior cutoff: call when a roll reaches the announcement with a chance below 0.4.
PRIOR_CUTOFF = min(r for r in range(N) if P_GE[r] < 0.4)
PRIOR_HONEST_LOG_ODDS = math.log(3.0)  # honest weight 0.75 before any evidence
DEFAULT_MODEL = Model(PRIOR_CUTOFF, 0.2, 0.75)


#: The levels a learnt noise and honesty weight are rounded to, so that the tables of a
#: table whose models have settled are computed once and then found in the cache.
NOISE_LEVELS = (0.03, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0)
HONEST_LEVELS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.97, 1.0)


def _snap(value: float, levels: tuple[float, ...]) -> float:
    return min(levels, key=lambda level: abs(level - value))


#: A caller is either a threshold caller (calls at or above a cutoff, slips with this chance)
#: or a coin (calls half of the time, whatever was announced).
SLIP = 0.03
CUTOFFS = tuple(range(1, N))
COIN_PRIOR = 0.2


def _call_log_likelihoods() -> dict[tuple[int, bool], list[float]]:
    """log P(calls or believes rank r | type): the cutoffs, then the coin."""
    table = {}
    for r in range(N):
        for called in (False, True):
            row = []
            for cutoff in CUTOFFS:
                p = Model(cutoff, SLIP, 1.0).call_chance(r)
                row.append(math.log(p if called else 1 - p))
            row.append(math.log(0.5))
            table[(r, called)] = row
    return table


def _call_prior() -> list[float]:
    weights = [math.exp(-0.4 * abs(cutoff - PRIOR_CUTOFF)) for cutoff in CUTOFFS]
    total = sum(weights)
    return [math.log((1 - COIN_PRIOR) * w / total) for w in weights] + [math.log(COIN_PRIOR)]


_CALL_LL = _call_log_likelihoods()
_CALL_PRIOR = _call_prior()


def honest_log_ratio(score: int, previous: int | None) -> float:
    """log of P(announce score | honest) / P(announce score | uninformative)."""
    if previous is None:  # an honest starter announces the truth
        return math.log(P_EQ[score] * N)
    honest = P_LE[score] if score == previous + 1 else P_EQ[score]
    return math.log(honest * (TOP - previous))


class SeatRecord:
    """Evidence about one seat gathered from the views: a posterior over its type as a caller,
    and the log-odds that it announces honestly rather than uninformatively."""

    def __init__(self) -> None:
        self.call_log_post = list(_CALL_PRIOR)
        self.honest_log_odds = PRIOR_HONEST_LOG_ODDS
        self._model: Model | None = DEFAULT_MODEL

    def saw_response(self, rank: int, called: bool) -> None:
        ll = _CALL_LL[(rank, called)]
        self.call_log_post = [a + b for a, b in zip(self.call_log_post, ll, strict=True)]
        self._model = None

    def saw_honesty(self, log_ratio: float) -> None:
        self.honest_log_odds = max(-8.0, min(8.0, self.honest_log_odds + log_ratio))
        self._model = None

    def model(self) -> Model:
        if self._model is None:
            post = self.call_log_post
            top = max(post)
            weights = [math.exp(x - top) for x in post]
            coin = weights[-1] / sum(weights)
            best = max(range(len(CUTOFFS)), key=post.__getitem__)
            noise = max(SLIP, coin + (1 - coin) * SLIP)
            honest = 1 / (1 + math.exp(-self.honest_log_odds))
            self._model = Model(
                CUTOFFS[best], _snap(noise, NOISE_LEVELS), _snap(honest, HONEST_LEVELS)
            )
        return self._model


# --- Strong bot: the tables --------------------------------------------------------------

#: Weight of the next sequence: whoever loses the point starts it, and some starters are far
#: more dangerous for the bot than others (the seat just before it, with a high true roll).
LOOKAHEAD = 0.7
LOOKAHEAD_STEPS = 1


class Tables(NamedTuple):
    """Expected costs for the bot; position 0 is the bot, k the k-th seat still in after it.

    ``cost[k]``: the cost of position k losing the point (1 for the bot, plus for anyone the
    look-ahead: the chance that the bot loses the sequence that the loser then starts).
    ``believe[c]``: expected cost once the bot believed standing rank c and plays on as well as
    it can. ``after[b]``: once the next seat believed the bot's announcement b.
    ``call_next[b]``: the chance that the next seat calls b. ``start[k]``: expected cost of a
    sequence that position k starts.
    """

    cost: tuple[float, ...]
    believe: tuple[float, ...]
    after: tuple[float, ...]
    call_next: tuple[float, ...]
    start: tuple[float, ...]


@cache
def announce_mix(honest: float, c: int | None) -> tuple[tuple[int, float, float], ...]:
    """(c', chance, chance that c' is announced and true) for an opponent who believed c
    (``None``: who starts), as a mix of an honest and an uninformative announcer."""
    w = honest
    out = []
    if c is None:
        for nxt in range(N):  # honest starters announce the truth
            out.append((nxt, w * P_EQ[nxt] + (1 - w) / N, w * P_EQ[nxt] + (1 - w) / N * P_GE[nxt]))
        return tuple(out)
    uniform = 1 / (TOP - c)
    for nxt in range(c + 1, N):
        # Honest: the truth when it beats c, else the smallest higher score as a fib.
        honest_p = P_LE[nxt] if nxt == c + 1 else P_EQ[nxt]
        p = w * honest_p + (1 - w) * uniform
        true = w * P_EQ[nxt] + (1 - w) * uniform * P_GE[nxt]
        out.append((nxt, p, true))
    return tuple(out)


def build_tables(models: tuple[Model, ...], cost: tuple[float, ...]) -> Tables:
    """Backward induction over the standing rank, from double 6s down to 31.

    ``models[k - 1]`` is position k; the last one announces to the bot.
    """
    m = len(models)
    seats = m + 1
    calls = [[0.0] * N] + [[model.call_chance(c) for c in range(N)] for model in models]
    # believed[k][c]: expected cost once position k believed rank c.
    believed = [[0.0] * N for _ in range(seats)]
    call1, bel1 = calls[1], believed[1]
    me_cost, next_cost = cost[0], cost[1]

    def announced(k: int, mix: tuple[tuple[int, float, float], ...]) -> float:
        """Expected cost once position k (an opponent) announced from ``mix``."""
        nxt = (k + 1) % seats
        lose_k, lose_next = cost[k], cost[nxt]
        total = 0.0
        if nxt == 0:  # it announces to the bot, which calls or believes, whichever is cheaper
            bel = believed[0]
            for score, p, true in mix:
                on_call = true * lose_next + (p - true) * lose_k
                if score == TOP:  # Max is shown at once
                    total += on_call
                else:
                    on_believe = p * bel[score]
                    total += on_call if on_call < on_believe else on_believe
            return total
        call, bel = calls[nxt], believed[nxt]
        for score, p, true in mix:
            on_call = true * lose_next + (p - true) * lose_k
            if score == TOP:
                total += on_call
            else:
                pc = call[score]
                total += pc * on_call + (1 - pc) * p * bel[score]
        return total

    # fib_min[j]: the cheapest fib of a rank >= j (a false Max costs the bot the point).
    fib_min = [me_cost] * (N + 1)
    # true_cost[b]: announcing b with a roll of at least b.
    true_cost = [me_cost] * N
    max_part = P_EQ[TOP] * next_cost  # a Max roll is announced: the next seat loses

    def bot_plays_on(c: int) -> float:
        """Expected cost once the bot has rolled above standing c (-1: it starts)."""
        # Every roll up to c must fib.
        expected = max_part + (P_LE[c] * fib_min[c + 1] if c >= 0 else 0.0)
        best_true = me_cost  # cheapest true announcement in (c, roll]
        for roll in range(c + 1, TOP):
            if true_cost[roll] < best_true:
                best_true = true_cost[roll]
            fib = fib_min[roll + 1]
            expected += P_EQ[roll] * (best_true if best_true < fib else fib)
        return expected

    for c in range(TOP - 1, -1, -1):
        for k in range(1, seats):
            believed[k][c] = announced(k, announce_mix(models[k - 1].honest, c))
        if c + 1 < TOP:
            fib = call1[c + 1] * me_cost + (1 - call1[c + 1]) * bel1[c + 1]
            fib_min[c + 1] = min(fib_min[c + 2], fib)
        believed[0][c] = bot_plays_on(c)
        true_cost[c] = call1[c] * next_cost + (1 - call1[c]) * bel1[c]
    start = [bot_plays_on(-1)] + [
        announced(k, announce_mix(models[k - 1].honest, None)) for k in range(1, seats)
    ]
    return Tables(cost, tuple(believed[0]), tuple(bel1), tuple(call1), tuple(start))


def loss_when_announcing(roll: int, b: int, tables: Tables) -> float:
    """Expected cost of announcing rank ``b`` with rank ``roll``."""
    me, following = tables.cost[0], tables.cost[1]
    if b == TOP:
        return following if roll == TOP else me
    call = tables.call_next[b]
    return call * (following if roll >= b else me) + (1 - call) * tables.after[b]


_CACHE: OrderedDict[tuple[Model, ...], Tables] = OrderedDict()
_CACHE_SIZE = 512


def tables_for(models: tuple[Model, ...]) -> Tables:
    """The tables against opponents ``models``, with a look-ahead to the next sequence.

    The bare chances of losing the point give the danger of each starter (the seat just
    before the bot, starting with a high true roll, is by far the most dangerous). Whoever
    loses the point starts next, so that danger is added to the cost of each seat losing it,
    and the tables are worked out again with those costs.
    """
    hit = _CACHE.get(models)
    if hit is not None:
        _CACHE.move_to_end(models)
        return hit
    indicator = (1.0,) + (0.0,) * len(models)
    tables = build_tables(models, indicator)
    for _ in range(LOOKAHEAD_STEPS):
        danger = tables.start
        cost = tuple(indicator[k] + LOOKAHEAD * danger[k] for k in range(len(indicator)))
        tables = build_tables(models, cost)
    _CACHE[models] = tables
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return tables


# Precomputed at import: the tables of every table size against opponents of the prior model.
for _m in range(1, 10):
    tables_for((DEFAULT_MODEL,) * _m)


def chance_true(model: Model, score: int, previous: int | None) -> float:
    """Chance that an announcement of rank ``score`` (after ``previous``) is true."""
    for nxt, p, true in announce_mix(model.honest, previous):
        if nxt == score:
            return true / p
    raise AssertionError("an announcement is always higher than the previous one")


# --- Strong bot --------------------------------------------------------------------------

#: Announcements whose chance of losing is within this of the best are candidates ...
NEAR = 0.01
#: ... weighted by exp(-(loss - best) / TEMPERATURE).
TEMPERATURE = 0.004


class StrongBot:
    """Probabilities, opponent models and randomised near-optimal announcements. Level
    ``strong``."""

    level = "strong"
    #: In a heads-up match, play the solved game's equilibrium (headsup.py) instead of the
    #: models: no strategy beats it, which the models were far from (docs/bot-levels.md).
    solved = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.records: dict[int, SeatRecord] = {}
        self.seen_beliefs: set[tuple[int, int]] = set()
        self.seen_reveals: set[int] = set()

    # Learning from the public part of the view -------------------------------------------

    def _record(self, seat: int) -> SeatRecord:
        return self.records.setdefault(seat, SeatRecord())

    def observe(self, view: JSON) -> None:
        public = view["public"]
        me = view["seat"]
        announcements = public["announcements"]
        for index, entry in enumerate(announcements):
            key = (public["sequence"], index)
            if key in self.seen_beliefs or entry["seat"] == me:
                continue
            self.seen_beliefs.add(key)
            record = self._record(entry["seat"])
            previous = S.rank(announcements[index - 1]["score"]) if index else None
            record.saw_honesty(honest_log_ratio(S.rank(entry["score"]), previous))
            if previous is not None:  # it believed the announcement before
                record.saw_response(previous, False)
        reveal = public["last_reveal"]
        if reveal is None or reveal["sequence"] in self.seen_reveals:
            return
        self.seen_reveals.add(reveal["sequence"])
        announced, shown = S.rank(reveal["score"]), S.rank(reveal["shown"])
        if reveal["kind"] == "call" and reveal["caller"] != me:
            self._record(reveal["caller"]).saw_response(announced, True)
        if reveal["seat"] == me:
            return
        if shown > announced:  # an honest announcer would have said the truth
            ratio = math.log(0.05)
        elif shown == announced:
            ratio = math.log(4.0)
        elif reveal["kind"] == "max":  # honest only when forced above double 6s
            ratio = math.log(0.2)
        else:
            ratio = 0.0
        self._record(reveal["seat"]).saw_honesty(ratio)

    def opponents(self, view: JSON) -> tuple[list[int], tuple[Model, ...]]:
        """The seats still in the game after this one, clockwise, and their models."""
        out = view["public"]["out"]
        me = view["seat"]
        seats = [(me + step) % len(out) for step in range(1, len(out))]
        alive = [s for s in seats if not out[s]]
        models = tuple(
            self.records[s].model() if s in self.records else DEFAULT_MODEL for s in alive
        )
        return alive, models

    # Deciding -----------------------------------------------------------------------------

    def choose(self, view: JSON) -> Action:
        self.observe(view)
        if self.solved and len(view["public"]["out"]) == 2:
            found = headsup.decision(view, self.rng)
            if found is not None:
                return found
        public = view["public"]
        _, models = self.opponents(view)
        tables = tables_for(models)
        if _respond_phase(view):
            return self._respond(public, models[-1], tables)
        return self._announce(view, tables)

    def _respond(self, public: JSON, announcer: Model, tables: Tables) -> Action:
        standing = S.rank(public["announcement"])
        history = public["announcements"]
        previous = S.rank(history[-2]["score"]) if len(history) >= 2 else None
        true = chance_true(announcer, standing, previous)
        lose_calling = true * tables.cost[0] + (1 - true) * tables.cost[-1]
        lose_believing = tables.believe[standing]
        # A coin only between two nearly equal choices.
        margin = lose_believing - lose_calling
        p_call = min(1.0, max(0.0, 0.5 + margin / 0.04))
        if p_call in (0.0, 1.0):
            return {"type": "call"} if p_call == 1.0 else {"type": "believe"}
        return {"type": "call"} if self.rng.random() < p_call else {"type": "believe"}

    def announce_losses(self, view: JSON, tables: Tables) -> dict[str, float]:
        roll = S.rank(view["private"]["roll"]["score"])
        return {
            score: loss_when_announcing(roll, S.rank(score), tables)
            for score in _legal_scores(view)
        }

    def _announce(self, view: JSON, tables: Tables) -> Action:
        if view["private"]["roll"]["score"] == S.MAX:
            return {"type": "announce", "score": S.MAX}  # shown at once: the next seat loses
        losses = self.announce_losses(view, tables)
        best = min(losses.values())
        candidates = [(s, loss) for s, loss in losses.items() if loss <= best + NEAR]
        weights = [math.exp(-(loss - best) / TEMPERATURE) for _, loss in candidates]
        score = self.rng.choices([s for s, _ in candidates], weights)[0]
        return {"type": "announce", "score": score}


register_bot("fibbers_dice", "basic", BasicBot)
register_bot("fibbers_dice", "strong", StrongBot)
