"""Ratings: openskill's Plackett–Luce model over each match's placement (free-for-all, 2 or
more participants: up to 64 in a Fibber's Dice tournament round; ties allowed). Pure functions of
numbers: no Django, no database.

A rating is ``(mu, sigma)``: the estimated skill and its uncertainty. What players see is the
conservative ``mu - 3 sigma`` (openskill's ordinal), which starts at 0 and rises as the
uncertainty shrinks, so a newcomer does not top a board by one lucky match.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
#: A new player's rating: the model's defaults (25 and 25/3).
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma
#: How many sigmas the display rating keeps below mu.
Z = 3.0


def display(mu: float, sigma: float) -> float:
    """The conservative rating players see: ``mu - 3 sigma`` (openskill's ordinal)."""
    return mu - Z * sigma


#: A new player's display rating (0, up to rounding).
START = display(MU, SIGMA)


def rate(
    ratings: Sequence[tuple[float, float]], places: Sequence[int]
) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` of each participant from their places in one match (1 = first,
    ties share a place). Only the order of the places matters. Needs two or more."""
    if len(ratings) != len(places) or len(ratings) < 2:
        raise ValueError("a rated match needs two or more participants, each with a place")
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in ratings]
    new = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in new]
