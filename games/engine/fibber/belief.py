"""Fibber beliefs: how likely a play is a fib, given how the ``strong`` bot chooses its plays.

A uniform determinization (sample.py) spreads the cards a seat cannot see evenly, so the cards
of the play in a call window are as likely true as any others: the play's count says nothing.
But a player's count *does* say something about its hand, and the opponents the ``expert`` bot
meets are ``strong`` bots, whose choice of a count is known code
(:meth:`StandardMind.play_options` and its softmax). This module weighs hidden hands by how
likely that policy makes the plays the table has seen (importance sampling):

* Since the pile was last picked up (a call) or dealt, no card has moved but by plays, and
  every one of them is in the public record (``pile_plays``: seat, count, rank). At the
  start of that *window* the player's hand held its cards now plus everything it has played
  since, and, when the last call's loser is the player, the cards that call revealed (it took
  them with the pile).
* A *sample* draws that starting hand from the cards the seat cannot place (the unseen cards
  less those known to sit in another hand), then replays the player's plays of the window:
  at each, the policy (run on the player's view then, rebuilt from the public record and the
  sampled hand) gives the probability of the count it announced, and the cards it plays for
  that count. The sample's weight is the product of those probabilities; the last play's
  cards say whether it was a fib.
* :func:`fib_posterior_fit` also says how well the counts fit that policy against a player
  choosing any count alike (the expert falls back to the strong bot when they fit badly).
* :func:`fib_posterior` is the weighted share of the samples in which the play is a fib.

Everything here reads only the seat's view (the seat's own hand and the public record); the
real state is never seen. Every random choice comes from the ``rng`` given (the bot's own
stream), so a decision replays exactly.
"""

from __future__ import annotations

import math
import random

from ..core import JSON
from .bots import COPIES, INDEX, KINDS, NAMES, TEMPERATURE, WILD, StandardMind, counts

# Never trust the model all the way: a share of every sample's weight that does not depend on
# the plays (the opponent may not be the modelled bot, or the model may miss something).
FLOOR = 0.02
_NO_RNG = random.Random(0)  # play_options never draws; the mind only needs one to exist


def window(public: JSON) -> list[JSON]:
    """The plays since the pile was last picked up or dealt (the public record)."""
    return list(public["pile_plays"])


def known_cards(view: JSON) -> dict[int, list[int]]:
    """Cards the seat knows another seat took with the pile at the start of the window: the
    cards the last call revealed, when that call was in this deal (it started the window)."""
    public = view["public"]
    call = public["last_call"]
    if not call or call["deal"] != public["deal"] or not call.get("cards"):
        return {}
    if call["loser"] == view["seat"]:
        return {}
    return {call["loser"]: counts(call["cards"])}


def view_before(view: JSON, plays: list[JSON], j: int, hand: list[int]) -> JSON:
    """The view of the seat that made play ``j`` of the window, just before it, holding
    ``hand`` (cards of each kind), rebuilt from the public record."""
    public = view["public"]
    play = plays[j]
    sizes = list(public["hand_sizes"])
    for later in plays[j:]:
        sizes[later["seat"]] += later["count"]
    # ``plays`` counts resolved plays: in a call window the last play is not resolved yet.
    unresolved = 1 if public["phase"] == "call" else 0
    before = dict(public)
    before.update(
        phase="play",
        turn=play["seat"],
        hand_sizes=sizes,
        pile=sum(p["count"] for p in plays[:j]),
        pile_plays=[dict(p) for p in plays[:j]],
        silver_nose_rank=play["rank"],
        plays=public["plays"] - (len(plays) - j - unresolved),
        last_play=dict(plays[j - 1]) if j else None,
        waiting=[],
        passed=[],
    )
    names = [NAMES[k] for k in range(KINDS) for _ in range(hand[k])]
    return {
        "seat": play["seat"],
        "seats": view["seats"],
        "public": before,
        "private": {"hand": names},
    }


def play_weights(view: JSON) -> tuple[list[float], list[list[int]]]:
    """The strong bot's probabilities of playing 1, 2, ... cards from ``view`` (its softmax),
    with the cards of each kind it plays for each count."""
    options = StandardMind(view, _NO_RNG).play_options()
    best = max(v for v, _ in options)
    weights = [math.exp((v - best) / TEMPERATURE) for v, _ in options]
    total = sum(weights)
    return [w / total for w in weights], [take for _, take in options]


class Posterior:
    """Weighted samples of one player's hand over the window, for the seat's ``view``."""

    def __init__(self, view: JSON, player: int) -> None:
        self.view = view
        self.player = player
        self.plays = window(view["public"])
        self._policy: dict[tuple[int, tuple[int, ...]], tuple[list[float], list[list[int]]]] = {}
        mine = counts(view["private"]["hand"])
        known = known_cards(view)
        self.start_known = known.get(player, [0] * KINDS)
        pool = [COPIES - mine[k] for k in range(KINDS)]
        for cards in known.values():
            pool = [a - b for a, b in zip(pool, cards, strict=True)]
        self.pool = [max(0, x) for x in pool]
        sizes = view["public"]["hand_sizes"]
        self.start_size = sizes[player] + sum(p["count"] for p in self.plays if p["seat"] == player)

    def policy(self, j: int, hand: list[int]) -> tuple[list[float], list[list[int]]]:
        key = (j, tuple(hand))
        cached = self._policy.get(key)
        if cached is None:
            before = view_before(self.view, self.plays, j, hand)
            cached = play_weights(before)
            self._policy[key] = cached
        return cached

    def draw_start(self, rng: random.Random) -> list[int] | None:
        """The player's hand at the start of the window: the known cards and a uniform draw
        from the pool (``None`` if the pool cannot fill it)."""
        need = self.start_size - sum(self.start_known)
        cards = [k for k in range(KINDS) for _ in range(self.pool[k])]
        if need < 0 or need > len(cards):
            return None
        hand = list(self.start_known)
        for k in rng.sample(cards, need):
            hand[k] += 1
        return hand

    def sample(self, rng: random.Random) -> tuple[float, bool, float, float, bool] | None:
        """One weighted sample: (weight, whether the window's last play is a fib, the weight
        of the player's counts under a player choosing any count it could alike, and the
        weight and the fib under the basic bot's rules instead, from the same hand)."""
        hand = self.draw_start(rng)
        if hand is None:
            return None
        plain = list(hand)
        weight = uniform = plain_weight = 1.0
        fib = plain_fib = False
        last = len(self.plays) - 1
        for j, play in enumerate(self.plays):
            if play["seat"] != self.player:
                continue
            count = play["count"]
            rank = INDEX[play["rank"]]
            if count > sum(hand):
                return None
            probs, takes = self.policy(j, hand)
            weight *= probs[count - 1]
            uniform /= len(probs)
            take = takes[count - 1]
            if j == last:
                fib = any(take[k] for k in range(KINDS) if k not in (rank, WILD))
            hand = [a - b for a, b in zip(hand, take, strict=True)]
            if plain_weight > 0.0:
                chosen, lie = basic_take(plain, rank)
                if sum(chosen) == count and count <= sum(plain):
                    plain_weight *= 1 - BASIC_SLIP
                else:  # not what the basic rules play: any other count, rarely
                    plain_weight *= BASIC_SLIP / max(1, sum(plain) - 1)
                    chosen, lie = spread_take(plain, rank, count)
                if j == last:
                    plain_fib = lie
                plain = [a - b for a, b in zip(plain, chosen, strict=True)]
        return weight, fib, uniform, plain_weight, plain_fib


#: How often a player of the basic bot's rules is taken to play some other count.
BASIC_SLIP = 0.05
#: The prior odds of a player following the strong bot's policy against the basic bot's rules.
STRONG_ODDS = 1.0


def basic_take(hand: list[int], rank: int) -> tuple[list[int], bool]:
    """The basic bot's play from ``hand`` (cards of each kind) on ``rank``: every card when
    all are true, else its cards of the rank, else one Wild, else one other card (a fib)."""
    take = [0] * KINDS
    if hand[rank] + hand[WILD] == sum(hand):
        return list(hand), False
    if hand[rank]:
        take[rank] = hand[rank]
        return take, False
    if hand[WILD]:
        take[WILD] = 1
        return take, False
    kind = min((k for k in range(KINDS) if hand[k]), key=lambda k: hand[k])
    take[kind] = 1
    return take, True


def spread_take(hand: list[int], rank: int, count: int) -> tuple[list[int], bool]:
    """``count`` cards from ``hand``, true ones first (a count off the basic rules)."""
    take = [0] * KINDS
    left = count
    for kind in (rank, WILD, *range(KINDS)):
        used = min(left, hand[kind] - take[kind])
        take[kind] += used
        left -= used
    return take, any(take[k] for k in range(KINDS) if k not in (rank, WILD))


def fib_posterior(view: JSON, rng: random.Random, samples: int = 48) -> float | None:
    """P(the play in the call window is a fib), weighing sampled hands of its player by how
    likely the strong bot's policy makes that player's plays of the window; ``None`` when no
    sample has any weight (the plays fit no hand the model allows)."""
    out = fib_posterior_fit(view, rng, samples)
    return None if out is None else out[0]


def fib_posterior_fit(
    view: JSON, rng: random.Random, samples: int = 48
) -> tuple[float, float] | None:
    """:func:`fib_posterior_fits` without the fit against the basic rules."""
    out = fib_posterior_fits(view, rng, samples)
    return None if out is None else (out[0], out[1])


def fib_posterior_fits(
    view: JSON, rng: random.Random, samples: int = 48
) -> tuple[float, float, float] | None:
    """:func:`fib_posterior` and the log-likelihood ratio of the player's counts in the window
    under the strong bot's policy against a player choosing any count alike (both estimated
    on the same samples; the strong policy's share mixed with :data:`FLOOR` of the other)."""
    play = view["public"]["last_play"]
    posterior = Posterior(view, play["seat"])
    fib = total = alike = 0.0
    floor = 0.0
    plain = 0
    basic = basic_fib = 0.0
    for _ in range(samples):
        drawn = posterior.sample(rng)
        if drawn is None:
            continue
        weight, is_fib, uniform, basic_weight, basic_is_fib = drawn
        total += weight
        alike += uniform
        fib += weight * is_fib
        floor += 1
        plain += is_fib
        basic += basic_weight
        basic_fib += basic_weight * basic_is_fib
    if total <= 0.0 or floor == 0:
        return None
    # The player follows the strong policy or the basic rules (weighed by how well each
    # explains the window's counts); the fit is the strong policy's against any count.
    p = (STRONG_ODDS * fib + basic_fib) / (STRONG_ODDS * total + basic)
    fit = math.log(((1 - FLOOR) * total + FLOOR * alike) / alike)
    against_basic = math.log(((1 - FLOOR) * total + FLOOR * alike) / (basic + FLOOR * alike))
    return (1 - FLOOR) * p + FLOOR * plain / floor, fit, against_basic
