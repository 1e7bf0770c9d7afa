"""Fibber's Dice events in GraphQL: the same services and readers as REST, REST's codes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from .helpers import GqlPlayer

pytestmark = pytest.mark.django_db(transaction=True)

FIELDS = """id name status format singleRound entrants registrationOpen registered version
  standings { player { id name } late qualifiedInRound finalPlace }
  rounds { number final status match players placements { player place } qualified }
  prizePicks raffle { doorPrizes commitment drawn seed entrants winners algorithm }"""
CREATE = (
    "mutation C($input: CreateTournamentInput!) "
    f"{{ createTournament(input: $input) {{ {FIELDS} }} }}"
)
REGISTER = f"mutation R($id: ID!) {{ registerForTournament(id: $id) {{ {FIELDS} }} }}"
START = f"mutation S($id: ID!) {{ startTournament(id: $id) {{ {FIELDS} }} }}"
SHORT = "mutation F($id: ID!) { switchTournamentToShortFormat(id: $id) { format } }"
NEXT = "mutation N($id: ID!) { startNextRound(id: $id) { id } }"
DETAIL = f"query D($id: ID!) {{ tournament(id: $id) {{ {FIELDS} }} }}"
LIST = "query L { tournaments { id name status entrants standings { late } } }"
MINE = "query M($id: ID!) { myTournamentMatch(id: $id) { registered round match seat reason } }"


def rest(player: GqlPlayer, path: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {player.token}")
    return client.get(path).json()


def test_an_event_through_graphql_matches_rest_and_refuses_misuse_with_rests_codes():
    host = GqlPlayer("Host")
    created = host.data(CREATE, input={"name": "Gql dice", "doorPrizes": 1})["createTournament"]
    tournament_id = created["id"]
    assert created["status"] == "open" and created["raffle"]["seed"] is None
    players = [GqlPlayer(f"G{i}") for i in range(3)]
    for p in players:
        assert p.data(REGISTER, id=tournament_id)["registerForTournament"]["registered"]
    assert players[0].error(REGISTER, id=tournament_id)["extensions"]["code"] == "conflict"
    assert players[0].error(START, id=tournament_id)["extensions"]["code"] == "forbidden"
    started = host.data(START, id=tournament_id)["startTournament"]
    assert started["singleRound"] is True and started["rounds"][0]["status"] == "running"
    assert host.error(START, id=tournament_id)["extensions"]["code"] == "conflict"
    assert host.error(NEXT, id=tournament_id)["extensions"]["code"] == "conflict"
    assert host.error(SHORT, id=tournament_id)["extensions"]["code"] == "conflict"
    late = GqlPlayer("Late")
    joined = late.data(REGISTER, id=tournament_id)["registerForTournament"]
    assert joined["standings"][-1]["late"] and len(joined["rounds"][0]["players"]) == 4
    mine = late.data(MINE, id=tournament_id)["myTournamentMatch"]
    assert mine["seat"] == 3 and mine["reason"] == "playing"
    detail = host.data(DETAIL, id=tournament_id)["tournament"]
    body = rest(host, f"/api/tournaments/{tournament_id}/")
    assert detail["rounds"][0]["match"] == body["rounds"][0]["match"]
    assert [s["player"]["id"] for s in detail["standings"]] == [
        s["player"]["id"] for s in body["standings"]
    ]
    assert detail["raffle"]["commitment"] == body["raffle"]["commitment"]
    assert any(e["id"] == tournament_id for e in GqlPlayer().data(LIST)["tournaments"])


def test_a_private_or_missing_event_is_not_found_and_bad_input_is_refused_as_in_rest():
    host = GqlPlayer()
    private = host.data(CREATE, input={"name": "Secret", "visibility": "private"})
    tournament_id = private["createTournament"]["id"]
    assert GqlPlayer().error(DETAIL, id=tournament_id)["extensions"]["code"] == "not_found"
    assert GqlPlayer().error(DETAIL, id="nope")["extensions"]["code"] == "not_found"
    refused = host.error(CREATE, input={"name": "x", "points": 0})
    assert refused["extensions"]["code"] == "invalid"
    assert GqlPlayer().error(SHORT, id=tournament_id)["extensions"]["code"] == "not_found"


def test_the_tournaments_earlier_graphql_names_still_answer_and_are_marked_deprecated():
    """Clients written when tournaments were called events keep working: the old fields are
    the same resolvers, marked deprecated in the schema."""
    host = GqlPlayer("Host")
    old = "mutation C($input: CreateTournamentInput!) { createDiceEvent(input: $input) { id } }"
    tournament_id = host.data(old, input={"name": "Old names"})["createDiceEvent"]["id"]
    player = GqlPlayer("P")
    registered = player.data(
        "mutation R($id: ID!) { registerForEvent(id: $id) { registered } }", id=tournament_id
    )
    assert registered["registerForEvent"]["registered"] is True
    found = GqlPlayer().data(
        "query D($id: ID!) { diceEvent(id: $id) { id entrants } }", id=tournament_id
    )
    assert found["diceEvent"] == {"id": tournament_id, "entrants": 1}
    listed = GqlPlayer().data("query L { diceEvents { id } }")["diceEvents"]
    assert tournament_id in {t["id"] for t in listed}
    from api.graphql.schema import schema

    graphql = schema._schema  # the graphql-core schema: fields by their GraphQL names
    by_name = {
        **graphql.get_type("Query").fields,  # type: ignore[union-attr]
        **graphql.get_type("Mutation").fields,  # type: ignore[union-attr]
    }
    for name in ("diceEvent", "diceEvents", "myEventMatch", "createDiceEvent", "startEvent"):
        assert by_name[name].deprecation_reason, name
    for name in ("tournament", "tournaments", "myTournamentMatch", "createTournament"):
        assert not by_name[name].deprecation_reason, name
