"""Follows through REST: a follower sees the public matches of the players they follow and
whether they are queueing; a block either way refuses a follow and ends one."""

from __future__ import annotations

import pytest

from tests.api.helpers import Player
from tests.api.openapi_validation import assert_fits

pytestmark = pytest.mark.django_db


def test_a_follower_sees_public_matches_and_queueing_not_private_ones():
    a, b = Player("A"), Player("B")
    followed = a.post("/api/follows/", {"player": b.user.pk})
    assert followed.status_code == 201
    assert_fits("FollowListOut", followed.json())
    (entry,) = followed.json()["follows"]
    assert entry == {"player": {"id": b.user.pk, "name": "B"}, "looking_for": None, "matches": []}
    public = b.create(game="fabfib", seats=3)
    b.create(game="fabfib", seats=3, visibility="private")
    b.post("/api/queue/", {"game": "skull", "seats_min": 3})
    (entry,) = a.get("/api/follows/").json()["follows"]
    assert entry["matches"] == [public["id"]] and entry["looking_for"] == "skull"
    assert_fits("FollowListOut", a.get("/api/follows/").json())
    assert a.client.delete(f"/api/follows/{b.user.pk}/").json() == {"follows": []}
    assert a.client.delete(f"/api/follows/{b.user.pk}/").status_code == 404


def test_blocks_and_misuse():
    a, b = Player("A"), Player("B")
    a.post("/api/follows/", {"player": b.user.pk})
    b.post("/api/blocks/", {"player": a.user.pk})
    assert a.get("/api/follows/").json() == {"follows": []}  # the block ended the follow
    assert a.post("/api/follows/", {"player": b.user.pk}).status_code == 403
    assert a.post("/api/follows/", {"player": a.user.pk}).status_code == 422
    assert a.post("/api/follows/", {"player": 10**9}).status_code == 404
    assert a.post("/api/follows/", {"player": True}).status_code == 400
    assert a.client.delete("/api/follows/x/").status_code == 404
