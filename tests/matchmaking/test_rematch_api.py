"""Rematch through REST: after the end, the same seats (bots at their levels) and options,
started when every human has accepted; decline ends the offer; misuse is a clear 4xx."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.models import Match, Seat
from tests.api.helpers import Player
from tests.api.openapi_validation import assert_fits
from tests.services.finished import finished_match

pytestmark = pytest.mark.django_db


def table():
    a, b = Player("A"), Player("B")
    match = finished_match("fabfib", [a.user, "strong", b.user], [2, 1, 3])
    return a, b, match


def rematch(player: Player, match: Match, method: str = "post"):
    return getattr(player.client, method)(f"/api/matches/{match.pk}/rematch/")


def test_the_rematch_starts_when_every_human_accepted_with_the_same_seats():
    a, b, match = table()
    none = rematch(a, match, "get")
    assert none.status_code == 200 and none.json()["status"] == "none"
    offered = rematch(a, match)
    assert offered.status_code == 200, offered.json()
    assert_fits("RematchOut", offered.json())
    assert offered.json()["accepted"] == [a.user.pk]
    assert offered.json()["waiting_for"] == [b.user.pk]
    assert rematch(a, match).status_code == 409  # accepted already
    started = rematch(b, match).json()
    assert_fits("RematchOut", started)
    assert started["status"] == "started" and started["waiting_for"] == []
    new = Match.objects.get(pk=started["match"])
    assert new.status == Match.Status.ACTIVE and new.options == match.options
    seats = list(Seat.objects.filter(match=new).order_by("position"))
    assert [(s.user_id, s.bot_level) for s in seats] == [
        (a.user.pk, ""),
        (None, "strong"),
        (b.user.pk, ""),
    ]
    assert a.view(str(new.pk))["status"] == "active"
    assert rematch(b, match).status_code == 409  # the offer is over


def test_a_declined_or_expired_offer_is_over():
    a, b, match = table()
    rematch(a, match)
    declined = rematch(b, match, "delete")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert declined.json()["declined_by"] == b.user.pk
    assert rematch(a, match).status_code == 409
    c, d, other = table()
    rematch(c, other)
    later = timezone.now() + timedelta(minutes=11)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert rematch(d, other).status_code == 409
        assert rematch(d, other, "get").json()["status"] == "expired"
    assert rematch(d, other, "get").json()["status"] == "expired"  # stored by the read


def test_misuse_is_refused():
    a, _b, match = table()
    stranger = Player("S")
    assert rematch(stranger, match).status_code == 403
    assert rematch(a, match, "delete").status_code == 404  # nothing offered
    assert a.client.post("/api/matches/nope/rematch/").status_code == 404
    running = a.create(game="fabfib", seats=3, bots=["basic", "basic"])
    assert a.client.post(f"/api/matches/{running['id']}/rematch/").status_code == 409
    anonymous = Player("X")
    anonymous.client.credentials()
    assert rematch(anonymous, match).status_code == 401


def test_alone_against_bots_the_rematch_starts_at_once():
    a = Player("A")
    match = finished_match("skull", [a.user, "basic", "basic"], [1, 2, 3])
    answer = rematch(a, match).json()
    assert answer["status"] == "started"


def test_the_other_humans_are_told_of_a_rematch_offer():
    a, b, match = table()
    assert rematch(a, match).status_code in (200, 201)
    told = [n for n in b.get("/api/me/notifications/").json()["results"]]
    assert [(n["kind"], n["match"]) for n in told] == [("rematch_offered", str(match.pk))]
    assert not a.get("/api/me/notifications/").json()["results"]
    started = rematch(b, match).json()
    kinds = [n["kind"] for n in b.get("/api/me/notifications/").json()["results"]]
    assert kinds.count("rematch_offered") == 1 and "match_started" in kinds  # told once
    assert started["status"] == "started"
