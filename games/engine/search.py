"""The ``expert`` bots: determinized rollouts over states sampled from the seat's view.

An expert bot keeps a ``strong`` bot of its game as its *prior*: the prior's choice is what it
plays unless the search finds something clearly better. At a decision worth searching it

1. lists a few candidate actions: the prior's choice, the prior's choices under other random
   streams (its mixed strategy), and every action of a small decision (call or believe, pass
   or call, a reveal target ...), at most :attr:`Budget.candidates`;
2. samples :attr:`Budget.samples` complete states from the view (``Rules.determinize``: the
   view alone, never the real state);
3. plays every candidate from every sample with the same random streams (common random
   numbers, so the candidates are compared on the same deals and dice): the candidate first,
   then fresh rollout bots in every seat (``strong``, or a cheaper bot where a game says so),
   each deciding from its own seat's view of the sampled state, until the horizon (the end of
   the current round; a game says what a round is) or :attr:`Budget.depth` actions;
4. scores each end state for the seat (a game's :class:`Adapter` says how: points, life,
   noses, successes ..., and placements when the match ended) and keeps the prior's choice
   unless another candidate's mean is better by more than :attr:`Budget.margin` standard
   errors of the paired difference.

**Beliefs.** A uniform sample says nothing about the cards behind a claim, so a game's expert
may subclass :class:`SearchBot`: draw its samples from a belief (:meth:`SearchBot.sample_state`:
the hidden information weighed by how likely the opponents' known policy, the strong bot's,
makes what they did; still from the view and the bot's own stream alone), or decide some
decisions exactly from such a belief (games/engine/<game>/belief.py).

**Budget and reproducibility.** The search is bounded by counts, never by the clock: samples,
candidates, rollout depth and a total of engine steps per decision (:attr:`Budget.steps`).
Every random choice comes from the bot's own ``random.Random`` (seeded per match and seat by
the caller), so the same views give the same decisions on any machine, and a match replays
exactly. The only clock is a safety net: the CPU time of the deciding thread
(:attr:`Budget.safety_seconds`, some 25 times the measured CPU p99 of a decision). If a search
ever uses that much the search stops and the prior's choice is played. CPU time, not
wall-clock, so that a loaded machine (waiting for a core) never trips it: only a processor many
times slower than the one measured could, so decisions stay reproducible. It is counted in
:attr:`SearchBot.safety_stops`, and ``bench/bots.py`` reports how often it fired.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

from .bots import Bot, make_bot, register_bot
from .core import JSON, Action, Rules
from .rng import Rng


@dataclasses.dataclass(frozen=True)
class Budget:
    """The deterministic limits of one decision's search."""

    samples: int = 12
    candidates: int = 4
    depth: int = 30
    steps: int = 1200
    margin: float = 1.0
    #: Decisions with more actions than this are searched over prior samples only.
    enumerate_up_to: int = 6
    safety_seconds: float = 0.5


@dataclasses.dataclass
class Adapter:
    """What the search needs to know about one game.

    ``round_of(state)``: a count that grows as the match goes on (rounds, sequences, plays);
    a rollout stops once it has grown by ``span`` (the horizon).
    ``score(state, seat)``: how well ``seat`` stands, in the game's own units (higher is
    better); the value of an end state is the seat's score minus the mean of the others', or,
    once the match is over, ``over_weight`` times how many seats it beat.
    ``worth(view)``: whether a decision is worth a search at all (default: every decision
    with more than one legal action).
    """

    round_of: Callable[[Any], int]
    score: Callable[[Rules, Any, int], float]
    span: int = 1
    over_weight: float = 10.0
    #: The bot level that plays every seat in the rollouts ...
    rollout_level: str = "strong"
    #: ... or a factory of such bots (a game may roll out with a cheaper variant).
    rollout_bot: Callable[[random.Random], Bot] | None = None
    worth: Callable[[JSON], bool] | None = None
    budget: Budget = dataclasses.field(default_factory=Budget)


def enumerate_actions(legal_actions: list[JSON], limit: int) -> list[Action] | None:
    """Every legal action, when there are at most ``limit`` of them; ``None`` otherwise."""
    out: list[Action] = []
    for spec in legal_actions:
        partial: list[Action] = [{"type": spec["type"]}]
        for name, domain in spec["params"].items():
            if "one_of" in domain:
                values: list[Any] = list(domain["one_of"])
            elif "range" in domain:
                lo, hi = domain["range"]
                if hi - lo + 1 > limit:
                    return None
                values = list(range(lo, hi + 1))
            else:
                items, lo, hi = domain["subset_of"], domain["min"], domain["max"]
                if len(items) > limit:
                    return None
                values = [list(c) for k in range(lo, hi + 1) for c in combinations(items, k)]
            if len(partial) * len(values) > limit:
                return None
            partial = [{**a, name: v} for a in partial for v in values]
        out.extend(partial)
        if len(out) > limit:
            return None
    return out


def fast_apply(rules: Rules, state: Any, seat: int, action: Action) -> None:
    """Apply a legal action in place (rollouts own their states; bots only choose legal ones)."""
    rng = Rng(state.seed, state.rng_counter)
    rules._apply(state, seat, action, rng, [])
    state.rng_counter = rng.counter


class SearchBot:
    """Level ``expert``: the strong bot's choice, improved by determinized rollouts."""

    level = "expert"

    def __init__(self, rules: Rules, adapter: Adapter, rng: random.Random) -> None:
        self.rules = rules
        self.adapter = adapter
        self.budget = adapter.budget
        self.rng = rng
        self.prior: Bot = make_bot(rules.game_id, "strong", random.Random(rng.getrandbits(64)))
        self.searched = 0
        self.deviations = 0
        self.safety_stops = 0
        self.steps_used = 0

    # --- Candidates ----------------------------------------------------------------------

    def candidates(self, view: JSON, first: Action) -> list[Action]:
        budget = self.budget
        out = [first]
        listed = enumerate_actions(view["legal_actions"], budget.enumerate_up_to)
        if listed is not None:
            out += [a for a in listed if a != first]
            return out[: max(budget.candidates, len(listed))]
        prior_rng = getattr(self.prior, "rng", None)
        if prior_rng is None:
            return out
        try:
            for _ in range(3 * budget.candidates):
                self.prior.rng = random.Random(self.rng.getrandbits(64))  # type: ignore[attr-defined]
                action = self.prior.choose(view)
                if action not in out:
                    out.append(action)
                if len(out) >= budget.candidates:
                    break
        finally:
            self.prior.rng = prior_rng  # type: ignore[attr-defined]
        return out

    # --- Rollouts ------------------------------------------------------------------------

    def value(self, state: Any, seat: int) -> float:
        rules, adapter = self.rules, self.adapter
        if rules.is_over(state):
            places = rules.placements(state)
            return adapter.over_weight * sum(1 for p in places if p > places[seat])
        mine = adapter.score(rules, state, seat)
        others = [adapter.score(rules, state, s) for s in range(state.seats) if s != seat]
        return mine - sum(others) / max(1, len(others))

    def rollout(self, state: Any, seat: int, action: Action, stream: int) -> tuple[float, int]:
        """Play ``action``, then fresh rollout bots, to the horizon; (value, steps)."""
        rules, adapter = self.rules, self.adapter
        rng = random.Random(stream)
        start = adapter.round_of(state)
        fast_apply(rules, state, seat, action)
        bots: dict[int, Bot] = {}
        steps = 1
        while steps < self.budget.depth and not rules.is_over(state):
            if adapter.round_of(state) - start >= adapter.span:
                break
            to_act = rules.to_act(state)
            actor = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            bot = bots.get(actor)
            if bot is None:
                bot_rng = random.Random(rng.getrandbits(64))
                bot = bots[actor] = (
                    adapter.rollout_bot(bot_rng)
                    if adapter.rollout_bot is not None
                    else make_bot(rules.game_id, adapter.rollout_level, bot_rng)
                )
            fast_apply(rules, state, actor, bot.choose(rules.view(state, actor)))
            steps += 1
        return self.value(state, seat), steps

    # --- Deciding ------------------------------------------------------------------------

    def choose(self, view: JSON) -> Action:
        return self.decide(view, self.prior.choose(view))

    def decide(self, view: JSON, first: Action) -> Action:
        """Search the decision, ``first`` (the prior's choice) being the one to beat."""
        worth = self.adapter.worth
        if worth is not None and not worth(view):
            return first
        candidates = self.candidates(view, first)
        if len(candidates) < 2:
            return first
        return self.search(view, candidates)

    def sample_state(self, view: JSON, rng: random.Random) -> Any:
        """One complete state for the search: ``Rules.determinize`` (uniform over the hidden
        information the view allows). A game's expert may draw from a belief instead (the
        hidden information weighed by what the opponents' actions say about it), from the
        view and ``rng`` alone as well."""
        return self.rules.determinize(view, rng)

    def search(self, view: JSON, candidates: list[Action]) -> Action:
        budget, rules, seat = self.budget, self.rules, view["seat"]
        started = time.thread_time()
        self.searched += 1
        totals = [[] for _ in candidates]  # type: list[list[float]]
        steps = 0
        for done in range(1, budget.samples + 1):
            sample_seed, stream = self.rng.getrandbits(64), self.rng.getrandbits(64)
            base = self.sample_state(view, random.Random(sample_seed))
            row = []
            for action in candidates:
                value, used = self.rollout(rules.clone(base), seat, action, stream)
                steps += used
                row.append(value)
            for total, value in zip(totals, row, strict=True):
                total.append(value)
            if steps + steps / done > budget.steps:
                break  # another sample would likely overrun the step budget
            if time.thread_time() - started > budget.safety_seconds:
                self.safety_stops += 1
                return candidates[0]
        self.steps_used += steps
        return candidates[self.pick(totals)]

    def pick(self, totals: list[list[float]]) -> int:
        """The best candidate by mean value, if it beats the prior's (index 0) by more than
        ``margin`` standard errors of the paired difference; else the prior's."""
        n = len(totals[0])
        means = [sum(t) / n for t in totals]
        best = max(range(len(totals)), key=lambda i: (means[i], -i))
        if best == 0 or n < 2:
            return 0
        diffs = [a - b for a, b in zip(totals[best], totals[0], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > self.budget.margin * math.sqrt(var / n):
            self.deviations += 1
            return best
        return 0


def register_expert(rules: Rules, adapter: Adapter) -> None:
    """Register level ``expert`` for ``rules``' game."""
    register_bot(rules.game_id, "expert", lambda rng: SearchBot(rules, adapter, rng))
