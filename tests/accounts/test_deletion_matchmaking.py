"""Deleting an account settles its place in matchmaking and its notifications: tickets leave
the queue, open challenges and rematch offers it is part of are declined (they could never
start), its blocks and follows (both ways) go, its inbox and webhooks go."""

from __future__ import annotations

import pytest

from matchmaking import services as queue_services
from matchmaking.models import Block, Challenge, Follow, Rematch, Ticket
from notifications.models import Notification
from tests.api.helpers import Player
from tests.services.finished import finished_match

pytestmark = pytest.mark.django_db


def delete(player: Player) -> None:
    response = player.client.delete("/api/me/", {"token": player.token}, format="json")
    assert response.status_code == 204, response.content


def test_tickets_challenges_rematches_blocks_and_follows_are_settled():
    gone, b, c = Player("Gone"), Player("B"), Player("C")
    assert gone.post("/api/queue/", {"game": "fibbers_dice", "seats_min": 2}).status_code == 201
    to_gone = b.post("/api/challenges/", {"players": [gone.user.pk, c.user.pk], "game": "fabfib"})
    by_gone = gone.post(
        "/api/challenges/", {"players": [c.user.pk], "game": "fabfib", "bots": ["basic"]}
    )
    assert to_gone.status_code == by_gone.status_code == 201
    assert c.post(f"/api/challenges/{to_gone.json()['id']}/accept/").status_code == 200
    unrelated = b.post(
        "/api/challenges/", {"players": [c.user.pk], "game": "fabfib", "bots": ["basic"]}
    ).json()
    match = finished_match("fabfib", [gone.user, "strong", b.user], [2, 1, 3])
    assert b.post(f"/api/matches/{match.pk}/rematch/").status_code in (200, 201)
    assert gone.post("/api/blocks/", {"player": c.user.pk}).status_code in (200, 201)
    assert b.post("/api/follows/", {"player": gone.user.pk}).status_code in (200, 201)
    Notification.objects.create(user=gone.user, kind="match_started", key="k", data={})

    delete(gone)

    assert not Ticket.objects.filter(user=gone.user).exists()
    for made in (to_gone, by_gone):
        assert Challenge.objects.get(pk=made.json()["id"]).status == Challenge.Status.DECLINED
    # Accepting the challenge that named the deleted player can no longer start it.
    late = c.post(f"/api/challenges/{to_gone.json()['id']}/accept/")
    assert late.status_code == 409
    assert Challenge.objects.get(pk=unrelated["id"]).status == Challenge.Status.OPEN
    assert Rematch.objects.get(source=match).status == Rematch.Status.DECLINED
    assert not Block.objects.filter(blocker=gone.user).exists()
    assert not Follow.objects.filter(followed=gone.user).exists()
    assert not Notification.objects.filter(user=gone.user).exists()
    # The queue never seats the deleted account.
    assert queue_services.queue_match() == []
