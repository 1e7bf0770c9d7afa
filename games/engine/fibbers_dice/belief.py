"""Fibber's Dice beliefs: how likely the standing announcement is true, given how the ``strong``
bot announces.

A uniform determinization (sample.py) rolls the announcer's dice afresh, so the announcement
says nothing about them. But the ``expert`` bot's opponents are ``strong`` bots, whose choice of
an announcement for each roll is known code (:meth:`StrongBot._announce`: the score whose
chance of losing the point is lowest in its tables, a softmax among the near-best, Max when it
rolls Max). So the announcer's roll has the posterior

    P(roll r | announced b after c)  ∝  P(r) · π(b | r, c),

with π the strong bot's announcement policy against the table in front of the announcer. The
tables depend on the announcer's models of the seats after it, which it learnt from the public
record; :class:`Observer` learns the same models from the same public record (every seat's
announcements, beliefs and revealed calls, this bot's own included, since the announcer sees
those too).

Everything here reads only the public part of the views; the real state is never seen. The
posterior is an exact sum over the 21 scores; :func:`sample_roll` draws from it with the ``rng``
given (the bot's own stream).
"""

from __future__ import annotations

import math
import random

from ..core import JSON
from . import scores as S
from .bots import (
    DEFAULT_MODEL,
    NEAR,
    P_EQ,
    TEMPERATURE,
    TOP,
    Model,
    SeatRecord,
    StrongBot,
    Tables,
    loss_when_announcing,
    tables_for,
)
from .bots import chance_true as modelled_true

N = len(S.SCORES)
# Never trust the model all the way: this share of the posterior is the prior's (the roll
# alone), for an announcer that is not the modelled bot or a table the models miss.
FLOOR = 0.03

_OBSERVER_SEAT = -1  # a seat no one sits in: the observer records every seat

SeatRecords = dict[int, SeatRecord]


def announce_policy(roll: int, previous: int | None, tables: Tables) -> dict[int, float]:
    """π(b | roll, previous): the strong bot's chance of announcing each rank ``b`` with rank
    ``roll`` after ``previous`` (``None``: it starts the sequence), with ``tables`` its tables."""
    if roll == TOP:
        return {TOP: 1.0}
    low = 0 if previous is None else previous + 1
    losses = {b: loss_when_announcing(roll, b, tables) for b in range(low, N)}
    best = min(losses.values())
    near = {b: loss for b, loss in losses.items() if loss <= best + NEAR}
    weights = {b: math.exp(-(loss - best) / TEMPERATURE) for b, loss in near.items()}
    total = sum(weights.values())
    return {b: w / total for b, w in weights.items()}


def roll_posterior(announced: int, previous: int | None, tables: Tables) -> list[float]:
    """P(roll = r) for r = 0..20, for an announcer who announced ``announced`` after
    ``previous`` with ``tables``, mixed with the prior by :data:`FLOOR`."""
    weights = [P_EQ[r] * announce_policy(r, previous, tables).get(announced, 0.0) for r in range(N)]
    total = sum(weights)
    if total <= 0.0:
        return list(P_EQ)
    return [(1 - FLOOR) * w / total + FLOOR * P_EQ[r] for r, w in enumerate(weights)]


def chance_true(announced: int, previous: int | None, tables: Tables) -> float:
    """P(the announcer's roll is at least what it announced)."""
    post = roll_posterior(announced, previous, tables)
    return sum(post[announced:])


class Observer(StrongBot):
    """The strong bot's learning, from a seat no one sits in: models of every seat, learnt
    from the public record as every strong bot at the table learns them."""

    def watch(self, view: JSON) -> None:
        self.observe({"seat": _OBSERVER_SEAT, "public": view["public"]})

    def models_after(self, public: JSON, seat: int) -> tuple[Model, ...]:
        """The models ``seat`` holds of the seats still in after it, clockwise."""
        out = public["out"]
        seats = [(seat + step) % len(out) for step in range(1, len(out))]
        return tuple(
            self.records[s].model() if s in self.records else DEFAULT_MODEL
            for s in seats
            if not out[s]
        )


def standing_true(view: JSON, observer: Observer) -> float:
    """P(the standing announcement is true), for the seat that must believe or call it."""
    public = view["public"]
    history = public["announcements"]
    announced = S.rank(public["announcement"])
    previous = S.rank(history[-2]["score"]) if len(history) >= 2 else None
    tables = tables_for(observer.models_after(public, public["announcer"]))
    return chance_true(announced, previous, tables)


def next_call_chance(
    public: JSON,
    seat: int,
    announced: int,
    previous: int | None,
    observer: Observer,
    width: float = 0.04,
) -> float:
    """The chance that the next seat still in, a strong bot, calls ``announced`` by ``seat``:
    its rule (bots.py ``StrongBot._respond``) run on what it believes, which does not depend
    on ``seat``'s dice."""
    out = public["out"]
    nxt = next(
        (seat + step) % len(out) for step in range(1, len(out)) if not out[(seat + step) % len(out)]
    )
    models = observer.models_after(public, nxt)
    tables = tables_for(models)
    true = modelled_true(models[-1], announced, previous)
    calling = true * tables.cost[0] + (1 - true) * tables.cost[-1]
    margin = tables.believe[announced] - calling
    return min(1.0, max(0.0, 0.5 + margin / width))


#: A predicted call chance is trusted no further than this from 0 and 1 (the observer's models
#: of the next seat are learnt, not its own, so a confident prediction can miss).
CLIP = 0.1


def was_called(public: JSON, seat: int, sequence: int, score: str) -> bool:
    """Whether ``seat``'s announcement ``score`` of sequence ``sequence`` was called, as the
    public record shows it at this seat's next decision (otherwise the next seat believed
    it: the sequence went on, or ended in a later call)."""
    reveal = public["last_reveal"]
    return (
        reveal is not None
        and reveal["kind"] == "call"
        and reveal["sequence"] == sequence
        and reveal["seat"] == seat
        and reveal["score"] == score
    )


def fit_step(predicted: float, called: bool) -> float:
    """The log-likelihood ratio of one observed answer: the next seat as the strong bot
    (calling with chance ``predicted``, clipped by :data:`CLIP`) against a seat that calls
    or believes as a coin falls. Summed over a match it says whether the model fits."""
    p = min(1 - CLIP, max(CLIP, predicted))
    return math.log((p if called else 1 - p) / 0.5)


def announcement_fit(announced: int, previous: int | None, tables: Tables) -> float:
    """The log-likelihood ratio of one observed announcement: the announcer as the strong bot
    (its policy summed over the rolls, mixed with :data:`FLOOR` of the other model) against an
    announcer that picks any legal score alike."""
    low = 0 if previous is None else previous + 1
    uniform = 1.0 / (N - low)
    strong = sum(
        P_EQ[r] * announce_policy(r, previous, tables).get(announced, 0.0) for r in range(N)
    )
    return math.log(((1 - FLOOR) * strong + FLOOR * uniform) / uniform)


def dice_for(rank: int) -> list[int]:
    """Two dice (high first) that read score rank ``rank``."""
    score = S.SCORES[rank]
    if score == S.MAX:
        return [2, 1]
    if score.startswith("double"):
        face = int(score.split()[1][0])
        return [face, face]
    return [int(score[0]), int(score[1])]


def sample_roll(view: JSON, observer: Observer, rng: random.Random) -> list[int]:
    """The standing announcer's dice, drawn from the posterior (:func:`roll_posterior`)."""
    public = view["public"]
    history = public["announcements"]
    announced = S.rank(public["announcement"])
    previous = S.rank(history[-2]["score"]) if len(history) >= 2 else None
    tables = tables_for(observer.models_after(public, public["announcer"]))
    post = roll_posterior(announced, previous, tables)
    return dice_for(rng.choices(range(N), weights=post)[0])
