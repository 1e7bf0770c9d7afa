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
    f"mutation C($input: CreateEventInput!) {{ createDiceEvent(input: $input) {{ {FIELDS} }} }}"
)
REGISTER = f"mutation R($id: ID!) {{ registerForEvent(id: $id) {{ {FIELDS} }} }}"
START = f"mutation S($id: ID!) {{ startEvent(id: $id) {{ {FIELDS} }} }}"
SHORT = "mutation F($id: ID!) { switchEventToShortFormat(id: $id) { format } }"
NEXT = "mutation N($id: ID!) { startNextRound(id: $id) { id } }"
DETAIL = f"query D($id: ID!) {{ diceEvent(id: $id) {{ {FIELDS} }} }}"
LIST = "query L { diceEvents { id name status entrants standings { late } } }"
MINE = "query M($id: ID!) { myEventMatch(id: $id) { registered round match seat reason } }"


def rest(player: GqlPlayer, path: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {player.token}")
    return client.get(path).json()


def test_an_event_through_graphql_matches_rest_and_refuses_misuse_with_rests_codes():
    host = GqlPlayer("Host")
    created = host.data(CREATE, input={"name": "Gql dice", "doorPrizes": 1})["createDiceEvent"]
    event_id = created["id"]
    assert created["status"] == "open" and created["raffle"]["seed"] is None
    players = [GqlPlayer(f"G{i}") for i in range(3)]
    for p in players:
        assert p.data(REGISTER, id=event_id)["registerForEvent"]["registered"]
    assert players[0].error(REGISTER, id=event_id)["extensions"]["code"] == "conflict"
    assert players[0].error(START, id=event_id)["extensions"]["code"] == "forbidden"
    started = host.data(START, id=event_id)["startEvent"]
    assert started["singleRound"] is True and started["rounds"][0]["status"] == "running"
    assert host.error(START, id=event_id)["extensions"]["code"] == "conflict"
    assert host.error(NEXT, id=event_id)["extensions"]["code"] == "conflict"
    assert host.error(SHORT, id=event_id)["extensions"]["code"] == "conflict"
    late = GqlPlayer("Late")
    joined = late.data(REGISTER, id=event_id)["registerForEvent"]
    assert joined["standings"][-1]["late"] and len(joined["rounds"][0]["players"]) == 4
    mine = late.data(MINE, id=event_id)["myEventMatch"]
    assert mine["seat"] == 3 and mine["reason"] == "playing"
    detail = host.data(DETAIL, id=event_id)["diceEvent"]
    body = rest(host, f"/api/events/{event_id}/")
    assert detail["rounds"][0]["match"] == body["rounds"][0]["match"]
    assert [s["player"]["id"] for s in detail["standings"]] == [
        s["player"]["id"] for s in body["standings"]
    ]
    assert detail["raffle"]["commitment"] == body["raffle"]["commitment"]
    assert any(e["id"] == event_id for e in GqlPlayer().data(LIST)["diceEvents"])


def test_a_private_or_missing_event_is_not_found_and_bad_input_is_refused_as_in_rest():
    host = GqlPlayer()
    private = host.data(CREATE, input={"name": "Secret", "visibility": "private"})
    event_id = private["createDiceEvent"]["id"]
    assert GqlPlayer().error(DETAIL, id=event_id)["extensions"]["code"] == "not_found"
    assert GqlPlayer().error(DETAIL, id="nope")["extensions"]["code"] == "not_found"
    refused = host.error(CREATE, input={"name": "x", "points": 0})
    assert refused["extensions"]["code"] == "invalid"
    assert GqlPlayer().error(SHORT, id=event_id)["extensions"]["code"] == "not_found"
