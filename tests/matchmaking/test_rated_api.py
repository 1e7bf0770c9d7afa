"""Rated or unrated through both APIs: the option set at creation (lobby, queue, challenge),
carried by a rematch, shown in views, lists, tickets and challenges (each answer fits the
OpenAPI schema, GraphQL answers as REST), and bad values refused with nothing changed."""

from __future__ import annotations

import pytest

from games.models import Match, Seat
from matchmaking import services
from matchmaking.models import Challenge, Ticket
from tests.api.helpers import Player, assert_error, db_fingerprint
from tests.api.openapi_validation import assert_fits
from tests.graphql.helpers import GqlPlayer, view_as_rest
from tests.services.finished import finished_match

pytestmark = pytest.mark.django_db

FIBBER = {"game": "fibber", "seats": 2}


def test_a_match_created_unrated_says_so_in_its_view_and_the_lobby():
    a = Player("A")
    default = a.create(**FIBBER)
    unrated = a.create(**FIBBER, rated=False)
    assert_fits("MatchOut", unrated)
    assert default["rated"] is True and unrated["rated"] is False
    assert Match.objects.get(pk=unrated["id"]).rated is False
    listed = a.get("/api/matches/?game=fibber")
    assert_fits("MatchSummaryPageOut", listed.json())
    shown = {m["id"]: m["rated"] for m in listed.json()["results"]}
    assert shown == {default["id"]: True, unrated["id"]: False}
    solo = a.create(game="fibber", seats=2, bots=["basic"], time_control="solo")
    assert solo["rated"] is False


@pytest.mark.parametrize(
    ("extra", "status", "code"),
    [
        ({"rated": "yes"}, 400, "invalid"),
        ({"rated": 1}, 400, "invalid"),
        ({"rated": "false"}, 400, "invalid"),
        ({"rated": True, "bots": ["basic"], "time_control": "solo"}, 422, "invalid_options"),
        ({"rated": True, "bots": ["basic", "basic"], "join": False}, 422, "invalid_options"),
        ({"rated": True, "bots": ["basic"]}, 422, "invalid_options"),
    ],
)
def test_a_bad_rated_is_refused_and_changes_nothing(extra, status, code):
    a = Player("A")
    before = db_fingerprint()
    error = assert_error(a.post("/api/matches/", {**FIBBER, **extra}), status, code)
    assert "rated" in error["fields"] if status == 400 else error["field"] == "rated"
    assert db_fingerprint() == before


def test_graphql_creates_rated_or_unrated_as_rest():
    g = GqlPlayer("G")
    made = g.create(game="fibber", seats=2, rated=False)
    assert made["rated"] is False
    rest = Player("R")
    rest.client.credentials(HTTP_AUTHORIZATION=f"Bearer {g.token}")
    assert view_as_rest(made) == rest.view(made["id"])
    assert g.create(game="fibber", seats=2)["rated"] is True
    refused = g.error(
        "mutation C($input: CreateMatchInput!) { createMatch(input: $input) { id } }",
        input={"game": "fibber", "seats": 2, "bots": ["basic"], "rated": True},
    )
    assert refused["extensions"]["code"] == "invalid_options"
    wrong = g.run(
        "mutation C($input: CreateMatchInput!) { createMatch(input: $input) { id } }",
        input={"game": "fibber", "seats": 2, "rated": "yes"},
    )
    assert wrong["errors"] and Match.objects.count() == 2


def queue(player: Player, **body):
    return player.post("/api/queue/", {"game": "fibbers_dice", "seats_min": 2, **body})


def test_rated_and_unrated_tickets_are_seated_apart():
    a, b, c, d = (Player(n) for n in "ABCD")
    first = queue(a, rated=False)
    assert first.status_code == 201 and first.json()["rated"] is False
    assert_fits("TicketOut", first.json())
    assert queue(b).json()["rated"] is True
    assert services.queue_match() == []  # one rated, one unrated: no table
    assert queue(c, rated=False).json()["position"] == 2  # its line: the unrated tickets
    assert queue(d).json()["position"] == 2
    started = services.queue_match()
    assert len(started) == 2
    by_rated = {m.rated: m for m in Match.objects.filter(pk__in=started)}
    assert set(by_rated) == {True, False}
    seated = {
        rated: set(Seat.objects.filter(match=m).values_list("user_id", flat=True))
        for rated, m in by_rated.items()
    }
    assert seated == {False: {a.user.pk, c.user.pk}, True: {b.user.pk, d.user.pk}}
    assert a.view(str(by_rated[False].pk))["rated"] is False


def test_a_queue_table_of_one_player_and_bots_is_unrated():
    a = Player("A")
    queue(a, bots_after=0, bot_level="basic")
    (match_id,) = services.queue_match()
    assert Match.objects.get(pk=match_id).rated is False


def test_a_non_boolean_rated_ticket_is_refused_through_graphql_as_rest():
    g = GqlPlayer("G")
    mutation = "mutation Q($input: QueueInput!) { queue(input: $input) { id rated } }"
    made = g.data(mutation, input={"game": "fibbers_dice", "seatsMin": 2, "rated": False})
    assert made["queue"]["rated"] is False
    assert g.run(mutation, input={"game": "fibbers_dice", "seatsMin": 2, "rated": "no"})["errors"]
    assert Ticket.objects.count() == 1


def test_an_unrated_challenge_starts_an_unrated_match_and_its_rematch_is_unrated():
    a, b = Player("A"), Player("B")
    made = a.post("/api/challenges/", {"players": [b.user.pk], "game": "fibber", "rated": False})
    assert made.status_code == 201, made.json()
    assert_fits("ChallengeOut", made.json())
    assert made.json()["rated"] is False
    done = b.post(f"/api/challenges/{made.json()['id']}/accept/").json()
    assert Match.objects.get(pk=done["match"]).rated is False
    before = db_fingerprint()
    bad = a.post("/api/challenges/", {"players": [b.user.pk], "game": "fibber", "rated": 0})
    assert_error(bad, 400, "invalid")
    assert db_fingerprint() == before and Challenge.objects.count() == 1


@pytest.mark.parametrize("rated", [True, False])
def test_a_rematch_is_rated_as_its_source(rated):
    a, b = Player("A"), Player("B")
    source = finished_match("fibber", [a.user, b.user], [1, 2], rated=rated)
    a.post(f"/api/matches/{source.pk}/rematch/")
    started = b.post(f"/api/matches/{source.pk}/rematch/").json()
    assert started["status"] == "started"
    assert Match.objects.get(pk=started["match"]).rated is rated
    assert a.view(started["match"])["rated"] is rated
