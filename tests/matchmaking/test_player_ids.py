"""Player ids in request bodies that no account can have (over 64 bits, or the largest a
database integer holds and beyond) are refused as missing players, never a 500, on every
database: challenges, blocks and follows, through REST and GraphQL."""

from __future__ import annotations

import pytest

from matchmaking.models import Block, Challenge, Follow
from tests.api.helpers import Player

pytestmark = pytest.mark.django_db

HUGE = [2**63 - 1, 2**63, 2**64 + 5, 10**40]


def _error(response) -> dict:
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert "error" in body, body
    return body


@pytest.mark.parametrize("player", HUGE)
def test_a_challenge_to_an_impossible_id_is_404_and_makes_nothing(player):
    a, b = Player("A"), Player("B")
    for players in ([player], [b.user.pk, player]):
        made = a.post("/api/challenges/", {"players": players, "game": "fibbers_dice"})
        assert made.status_code == 404, made.content
        _error(made)
    assert not Challenge.objects.exists()


@pytest.mark.parametrize("player", HUGE)
@pytest.mark.parametrize("route", ["/api/blocks/", "/api/follows/"])
def test_blocking_or_following_an_impossible_id_is_404(route, player):
    a = Player("A")
    made = a.post(route, {"player": player})
    assert made.status_code == 404, made.content
    _error(made)
    assert not Block.objects.exists() and not Follow.objects.exists()
    assert a.client.delete(f"{route}{player}/").status_code == 404
