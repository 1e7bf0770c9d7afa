"""The quick-play queue and blocks through REST: every answer fits the OpenAPI schema, bad
input is a 4xx that changes nothing, a pass of the matcher seats compatible players at an
ordinary started match, blocks keep players apart, bots fill after the player's limit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, Seat
from matchmaking import services
from matchmaking.models import Ticket
from tests.api.helpers import Player
from tests.api.openapi_validation import assert_fits

pytestmark = pytest.mark.django_db


def queue(player: Player, **body):
    return player.post("/api/queue/", {"game": "fibbers_dice", "seats_min": 2, **body})


def code(response):
    return response.json()["error"]["code"]


def test_two_players_queue_and_the_matcher_seats_them_at_a_started_match():
    a, b = Player("A"), Player("B")
    first = queue(a)
    assert first.status_code == 201, first.json()
    assert_fits("TicketOut", first.json())
    assert first.json()["status"] == "waiting" and first.json()["position"] == 1
    assert queue(b).json()["position"] == 2
    started = services.queue_match()
    assert len(started) == 1
    match = Match.objects.get(pk=started[0])
    assert match.status == Match.Status.ACTIVE and match.game == "fibbers_dice"
    assert sorted(Seat.objects.filter(match=match).values_list("user_id", flat=True)) == sorted(
        [a.user.pk, b.user.pk]
    )
    listed = a.get("/api/queue/")
    assert listed.status_code == 200
    assert_fits("TicketListOut", listed.json())
    (ticket,) = listed.json()["tickets"]
    assert ticket["status"] == "matched" and ticket["match"] == str(match.pk)
    assert ticket["position"] is None
    view = a.view(str(match.pk))
    assert view["status"] == "active"
    # A matched ticket cannot be cancelled; the next pass seats nobody again.
    assert a.client.delete(f"/api/queue/{ticket['id']}/").status_code == 409
    assert services.queue_match() == []


def test_one_waiting_ticket_per_player_and_cancelling_is_instant():
    a = Player("A")
    ticket = queue(a).json()
    again = queue(a)
    assert again.status_code == 409 and code(again) == "conflict"
    cancelled = a.client.delete(f"/api/queue/{ticket['id']}/")
    assert cancelled.status_code == 200
    assert_fits("TicketOut", cancelled.json())
    assert cancelled.json()["status"] == "cancelled"
    assert queue(a).status_code == 201


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "chess", "seats_min": 2}, 400),
        ({"game": "fibbers_dice", "seats_min": "2"}, 400),
        ({"game": "fibbers_dice", "seats_min": 2, "rated": "yes"}, 400),
        ({"game": "fibbers_dice", "seats_min": 2, "rated": 1}, 400),
        ({"game": "fibbers_dice", "seats_min": 2, "rated": None}, 400),
        ({"game": "fibbers_dice", "seats_min": 2, "unrated": True}, 400),
        ({"game": "fibbers_dice", "seats_min": 2, "time_control": "solo"}, 400),
        ({"game": "fibbers_dice", "seats_min": 3, "seats_max": 2}, 422),
        ({"game": "skull", "seats_min": 2}, 422),
        ({"game": "fibbers_dice", "seats_min": 2, "bots_after": -1}, 400),
        ({"game": "fibbers_dice", "seats_min": 2, "bots_after": 5, "bot_level": "nope"}, 400),
        ([], 400),
    ],
)
def test_bad_tickets_are_refused_and_change_nothing(body, status):
    a = Player("A")
    response = a.post("/api/queue/", body)
    assert response.status_code == status, response.json()
    assert_fits({400: "InvalidError", 422: "RefusedError"}[status], response.json())
    assert not Ticket.objects.exists()


def test_unknown_or_foreign_tickets_are_404_and_anonymous_is_401():
    a, b = Player("A"), Player("B")
    ticket = queue(a).json()
    assert b.client.delete(f"/api/queue/{ticket['id']}/").status_code == 404
    assert b.get(f"/api/queue/{ticket['id']}/").status_code == 404
    assert a.get("/api/queue/x1/").status_code == 404
    assert a.client.delete("/api/queue/0/").status_code == 404
    assert a.get(f"/api/queue/{ticket['id']}/").status_code == 200
    anonymous = Player("C")
    anonymous.client.credentials()
    assert anonymous.get("/api/queue/").status_code == 401
    assert Ticket.objects.get().status == "waiting"


def test_blocked_players_are_never_seated_together():
    a, b = Player("A"), Player("B")
    blocked = a.post("/api/blocks/", {"player": b.user.pk})
    assert blocked.status_code == 201
    assert_fits("BlockListOut", blocked.json())
    assert blocked.json() == {"players": [b.user.pk]}
    queue(a), queue(b)
    assert services.queue_match() == []
    # Unblocked: seated at the next pass.
    assert a.client.delete(f"/api/blocks/{b.user.pk}/").json() == {"players": []}
    assert len(services.queue_match()) == 1


def test_blocks_refuse_misuse():
    a = Player("A")
    assert a.post("/api/blocks/", {"player": a.user.pk}).status_code == 422
    assert a.post("/api/blocks/", {"player": 10**9}).status_code == 404
    assert a.post("/api/blocks/", {"player": "1"}).status_code == 400
    assert a.client.delete("/api/blocks/5/").status_code == 404
    assert a.get("/api/blocks/").json() == {"players": []}


def test_bots_fill_the_table_after_the_players_limit():
    a = Player("A")
    ticket = queue(a, seats_min=3, seats_max=4, bots_after=10, bot_level="basic").json()
    assert ticket["bot_level"] == "basic"
    assert services.queue_match() == []
    later = timezone.now() + timedelta(seconds=11)
    (match_id,) = services.queue_match(now=later)
    seats = Seat.objects.filter(match_id=match_id).order_by("position")
    assert [s.user_id for s in seats] == [a.user.pk, None, None]
    assert [s.bot_level for s in seats] == ["", "basic", "basic"]
    assert Match.objects.get(pk=match_id).status == Match.Status.ACTIVE


def test_a_ticket_expires():
    a = Player("A")
    queue(a)
    services.queue_match(now=timezone.now() + timedelta(minutes=16))
    assert Ticket.objects.get().status == "expired"
    assert queue(a).status_code == 201
