"""Who may do what: every endpoint that takes a match id, called as the seated player, another
seat of the same match, a player of another match, and anonymously."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from .helpers import Player, play_to_the_end

pytestmark = pytest.mark.django_db

ROLES = ("seated", "other_seat", "other_match", "anonymous")


def setup(kind: str, visibility: str = "public") -> tuple[str, dict[str, APIClient], dict]:
    """A match in state ``kind`` (lobby, active, finished) and a client per role.

    "seated" is the creator, except in an active match: the seat that must act."""
    creator, second, third, outsider = Player(), Player(), Player(), Player()
    outsider.create(game="fabfib", seats=3)  # the outsider plays elsewhere
    options = {"life": 1} if kind == "finished" else {}  # one call knocks a player out
    match = creator.create(game="fabfib", seats=3, visibility=visibility, options=options)
    players = [creator, second] if kind == "lobby" else [creator, second, third]
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/", {"invite_code": match["invite_code"]})
    if kind == "finished":
        play_to_the_end(match["id"], players, random.Random(1))
    seated = creator
    if kind == "active":
        seated = next(p for p in players if p.view(match["id"])["legal_actions"])
    other = next(p for p in players if p is not seated)
    clients = {
        "seated": seated.client,
        "other_seat": other.client,
        "other_match": outsider.client,
        "anonymous": APIClient(),
    }
    return match["id"], clients, seated.view(match["id"])


def call(client: APIClient, endpoint: str, match_id: str, view: dict) -> int:
    base = f"/api/matches/{match_id}/"
    if endpoint == "view":
        return client.get(base).status_code
    if endpoint == "events":
        return client.get(base + "events/").status_code
    if endpoint in ("replay", "stats"):
        return client.get(base + endpoint + "/").status_code
    if endpoint == "actions":
        legal = view["legal_actions"] or [{"type": "call", "params": {}}]
        entry = legal[0]
        body = {"type": entry["type"], **{k: d["one_of"][0] for k, d in entry["params"].items()}}
        return client.post(base + "actions/", body, format="json").status_code
    if endpoint == "bots":
        return client.post(base + "bots/", {"level": "random"}, format="json").status_code
    return client.post(base + endpoint + "/", {}, format="json").status_code


# endpoint -> expected status per role (seated, other_seat, other_match, anonymous)
ACTIVE_PUBLIC = {
    "view": (200, 200, 200, 200),
    "events": (200, 200, 200, 200),
    "actions": (200, 403, 403, 401),
    "replay": (404, 404, 404, 404),
    "stats": (404, 404, 404, 404),
    "join": (409, 409, 409, 401),
    "leave": (409, 409, 403, 401),
    "bots": (409, 409, 403, 401),
}
ACTIVE_PRIVATE = {
    "view": (200, 200, 404, 404),
    "events": (200, 200, 404, 404),
    "actions": (200, 403, 404, 401),
    "replay": (404, 404, 404, 404),
    "join": (409, 409, 404, 401),  # those who can see it learn it has started
    "leave": (409, 409, 404, 401),
}
LOBBY_PUBLIC = {
    "view": (200, 200, 200, 200),
    "actions": (409, 409, 403, 401),
    "join": (409, 409, 200, 401),
    "leave": (200, 200, 403, 401),
    "bots": (200, 200, 403, 401),
    "start": (409, 403, 403, 401),  # the creator may start; 2 seats are too few for Fab Fib
}
FINISHED_PUBLIC = {
    "view": (200, 200, 200, 200),
    "events": (200, 200, 200, 200),
    "replay": (200, 200, 200, 200),
    "stats": (200, 200, 200, 200),
    "actions": (409, 409, 403, 401),
}
FINISHED_PRIVATE = {
    "view": (200, 200, 404, 404),
    "replay": (200, 200, 404, 404),
    "stats": (200, 200, 404, 404),
}

CASES = [
    (kind, visibility, endpoint, role, expected[i])
    for kind, visibility, table in (
        ("active", "public", ACTIVE_PUBLIC),
        ("active", "private", ACTIVE_PRIVATE),
        ("lobby", "public", LOBBY_PUBLIC),
        ("finished", "public", FINISHED_PUBLIC),
        ("finished", "private", FINISHED_PRIVATE),
    )
    for endpoint, expected in table.items()
    for i, role in enumerate(ROLES)
]


@pytest.mark.parametrize(("kind", "visibility", "endpoint", "role", "expected"), CASES)
def test_authorization_matrix(kind, visibility, endpoint, role, expected):
    match_id, clients, view = setup(kind, visibility)
    assert call(clients[role], endpoint, match_id, view) == expected
