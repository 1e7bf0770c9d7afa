"""No N+1: the number of SQL queries of ``matches(first: 50)`` with seats and users, and of
``match(id)`` with everything, does not grow with the number of matches, seats or events."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.engine.bots import random_action

from .helpers import MATCH, GqlPlayer, post

pytestmark = pytest.mark.django_db

LOBBY = (
    "query($mine: Boolean!) { matches(first: 50, filter: {mine: $mine}) { edges { cursor node "
    "{ id game status filled bots seats { position botLevel mustAct deadline away place "
    "user { id name } } } } pageInfo { hasNextPage endCursor } } }"
)


def queries(player: GqlPlayer, document: str, **variables) -> tuple[int, dict]:
    client = Client()
    with CaptureQueriesContext(connection) as captured:
        answer = post(client, document, variables, player.token).json()
    assert "errors" not in answer, answer
    return len(captured), answer["data"]


def lobby(host: GqlPlayer, matches: int) -> None:
    guests = [GqlPlayer() for _ in range(3)]
    for _ in range(matches):
        match = host.create(game="skull", seats=6, bots=["random"])
        for g in guests:
            g.join(match["id"])


@pytest.mark.slow  # a few seconds (a subprocess, or 50 matches): the full tier
@pytest.mark.parametrize("mine", [False, True])
def test_the_match_list_costs_the_same_queries_for_2_or_50_matches(mine):
    host = GqlPlayer()
    lobby(host, 2)
    few, data = queries(host, LOBBY, mine=mine)
    assert len(data["matches"]["edges"]) == 2
    lobby(host, 48)
    many, data = queries(host, LOBBY, mine=mine)
    edges = data["matches"]["edges"]
    assert len(edges) == 50 and all(len(e["node"]["seats"]) == 6 for e in edges)
    assert sum(1 for s in edges[0]["node"]["seats"] if s["user"]) == 4
    assert many == few, f"{few} queries for 2 matches, {many} for 50"
    print(f"matches(first: 50) with seats, mine={mine}: {many} queries")


def test_a_match_view_costs_the_same_queries_early_and_late():
    players = [GqlPlayer() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.join(match["id"])
    early, _ = queries(players[0], MATCH, id=match["id"])
    rng = random.Random(5)
    for _ in range(12):
        views = [(p, p.view(match["id"])) for p in players]
        movers = [(p, v) for p, v in views if v["legalActions"]]
        if not movers:
            break  # the match is over
        mover, view = movers[0]
        assert "errors" not in mover.act(match["id"], random_action(view["legalActions"], rng))
    late, data = queries(players[0], MATCH, id=match["id"])
    assert len(data["match"]["events"]) > 2 and late == early
    print(f"match(id) with seats, events and legal actions: {late} queries")
