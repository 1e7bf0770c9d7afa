"""Challenges through REST: named players accept or decline, the private match starts when all
accepted, blocks keep a player from being challenged, misuse is a clear 4xx changing nothing."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.models import Match, Seat
from matchmaking.models import Challenge
from tests.api.helpers import Player
from tests.api.openapi_validation import assert_fits

pytestmark = pytest.mark.django_db


def challenge(by: Player, *players: Player, **body):
    return by.post(
        "/api/challenges/",
        {"players": [p.user.pk for p in players], "game": "fabfib", **body},
    )


def test_the_match_starts_when_every_challenged_player_accepted():
    a, b, c = Player("A"), Player("B"), Player("C")
    made = challenge(a, b, c, bots=["basic"])
    assert made.status_code == 201, made.json()
    assert_fits("ChallengeOut", made.json())
    ch = made.json()
    assert ch["status"] == "open" and ch["players"] == [b.user.pk, c.user.pk]
    received = b.get("/api/challenges/")
    assert_fits("ChallengeListOut", received.json())
    assert [x["id"] for x in received.json()["challenges"]] == [ch["id"]]
    assert a.post(f"/api/challenges/{ch['id']}/accept/").status_code == 409  # its own
    first = b.post(f"/api/challenges/{ch['id']}/accept/")
    assert first.status_code == 200 and first.json()["accepted"] == [b.user.pk]
    assert b.post(f"/api/challenges/{ch['id']}/accept/").status_code == 409
    done = c.post(f"/api/challenges/{ch['id']}/accept/").json()
    assert_fits("ChallengeOut", done)
    assert done["status"] == "started"
    match = Match.objects.get(pk=done["match"])
    assert match.status == Match.Status.ACTIVE and match.visibility == "private"
    seats = Seat.objects.filter(match=match).order_by("position")
    assert [(s.user_id, s.bot_level) for s in seats] == [
        (a.user.pk, ""),
        (b.user.pk, ""),
        (c.user.pk, ""),
        (None, "basic"),
    ]


def test_declined_withdrawn_or_expired_is_over():
    a, b = Player("A"), Player("B")
    ch = challenge(a, b, game="fibbers_dice").json()
    declined = b.post(f"/api/challenges/{ch['id']}/decline/").json()
    assert declined["status"] == "declined" and declined["declined_by"] == b.user.pk
    assert b.post(f"/api/challenges/{ch['id']}/accept/").status_code == 409
    ch = challenge(a, b, game="fibbers_dice").json()
    assert a.post(f"/api/challenges/{ch['id']}/decline/").json()["status"] == "declined"
    ch = challenge(a, b, game="fibbers_dice").json()
    later = timezone.now() + timedelta(minutes=16)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert b.post(f"/api/challenges/{ch['id']}/accept/").status_code == 409
        assert b.get(f"/api/challenges/{ch['id']}/").json()["status"] == "expired"


def test_a_block_either_way_keeps_a_player_from_being_challenged():
    a, b = Player("A"), Player("B")
    b.post("/api/blocks/", {"player": a.user.pk})
    assert challenge(a, b, game="fibbers_dice").status_code == 403
    assert challenge(b, a, game="fibbers_dice").status_code == 403
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"players": [], "game": "fabfib"}, 400),
        ({"players": ["2"], "game": "fabfib"}, 400),
        ({"players": [10**9, 10**9 + 1], "game": "fabfib"}, 404),
        ({"game": "fabfib", "players": None}, 400),
        ({"game": "fibbers_dice", "options": {"nope": 1}}, 422),
        ({"game": "fibbers_dice", "options": []}, 400),
        ({"game": "skull"}, 422),  # two players: Skull needs three
        ({"game": "fibbers_dice", "time_control": "solo"}, 400),
        ({"game": "fibbers_dice", "bots": ["nope"]}, 400),
    ],
)
def test_bad_challenges_are_refused_and_change_nothing(body, status):
    a, b = Player("A"), Player("B")
    response = a.post("/api/challenges/", {"players": [b.user.pk], **body})
    assert response.status_code == status, response.json()
    assert set(response.json()) == {"error"}
    assert not Challenge.objects.exists()


def test_strangers_and_odd_ids_get_404():
    a, b, s = Player("A"), Player("B"), Player("S")
    ch = challenge(a, b, game="fibbers_dice").json()
    assert s.get(f"/api/challenges/{ch['id']}/").status_code == 404
    assert s.post(f"/api/challenges/{ch['id']}/accept/").status_code == 404
    assert a.get("/api/challenges/abc/").status_code == 404
    assert a.post("/api/challenges/0/decline/").status_code == 404
    assert challenge(a, a, game="fibbers_dice").status_code == 422


def test_the_challenged_players_and_the_rematch_table_are_told_in_their_inbox():
    a, b, c = Player("A"), Player("B"), Player("C")
    made = challenge(a, b, c).json()
    for player in (b, c):
        inbox = player.get("/api/me/notifications/").json()
        assert_fits("NotificationPageOut", inbox)
        told = [n for n in inbox["results"] if n["kind"] == "challenged"]
        assert [(n["challenge"], n["game"], n["match"]) for n in told] == [
            (made["id"], "fabfib", None)
        ]
    assert not [n for n in a.get("/api/me/notifications/").json()["results"]]
    # Challenging a deleted account is a 404, as for any unknown player.
    gone = Player("Gone")
    assert gone.client.delete("/api/me/", {"token": gone.token}, format="json").status_code == 204
    refused = challenge(a, gone, b)
    assert refused.status_code == 404
    assert a.post("/api/follows/", {"player": gone.user.pk}).status_code == 404
