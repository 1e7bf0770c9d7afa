"""A GraphQL test client: a player (a guest made through the service) posting documents to
``/graphql/`` with its token, and the documents the tests share."""

from __future__ import annotations

import random
from typing import Any

import orjson
from django.test import Client

from accounts.services import guest_create
from games.engine.bots import random_action

SEAT = "position user { id name } botLevel mustAct deadline away vacationUntil place"
EVENT = "seq version type byBot data"
VIEW = f"""
fragment View on MatchView {{
  id game status version visibility options seatCount timeControl decisionSeconds rated
  createdBy inviteCode seedCommitment seats {{ {SEAT} }} you {{ seat seats }} toAct deadline
  legalActions {{ type label params }} view public private placements endReason lastSeq
  events {{ {EVENT} }}
}}
"""
MATCH = "query Match($id: ID!, $seat: Int) { match(id: $id, seat: $seat) { ...View } }" + VIEW
EVENTS = (
    "query Events($id: ID!, $after: Int!, $seat: Int) { events(matchId: $id, after: $after, "
    f"seat: $seat) {{ events {{ {EVENT} }} lastSeq more version status }} }}"
)
ACT = (
    "mutation Act($id: ID!, $action: JSON!, $v: Int, $key: String, $seat: Int) { "
    "act(matchId: $id, action: $action, expectedVersion: $v, idempotencyKey: $key, seat: $seat)"
    " { ...View } }" + VIEW
)
CREATE = (
    "mutation Create($input: CreateMatchInput!) { createMatch(input: $input) { ...View } }" + VIEW
)
JOIN = (
    "mutation Join($id: ID, $code: String) { joinMatch(matchId: $id, inviteCode: $code) "
    "{ ...View } }" + VIEW
)


def post(client: Client, query: str, variables: dict | None = None, token: str | None = None):
    """POST a document; the raw Django response."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = orjson.dumps({"query": query, "variables": variables or {}})
    return client.post("/graphql/", body, content_type="application/json", headers=headers)


class GqlPlayer:
    def __init__(self, name: str = "", token: str | None = None, anonymous: bool = False) -> None:
        """A new guest, or the holder of ``token`` (``anonymous``: no token at all)."""
        if token is None and not anonymous:
            self.user, token = guest_create(display_name=name or None)
        self.token: str | None = token
        self.client = Client()

    def run(self, query: str, **variables: Any) -> dict[str, Any]:
        """The whole answer (``data`` and maybe ``errors``)."""
        response = post(self.client, query, variables, self.token)
        assert response.status_code == 200, response.content
        return response.json()

    def data(self, query: str, **variables: Any) -> dict[str, Any]:
        """The ``data`` of an answer that must have no error."""
        answer = self.run(query, **variables)
        assert "errors" not in answer, answer
        return answer["data"]

    def error(self, query: str, **variables: Any) -> dict[str, Any]:
        """The one error of an answer that must fail."""
        answer = self.run(query, **variables)
        assert len(answer.get("errors", [])) == 1, answer
        return answer["errors"][0]

    def create(self, **input: Any) -> dict[str, Any]:
        return self.data(CREATE, input=input)["createMatch"]

    def join(self, match_id: str, code: str | None = None) -> dict[str, Any]:
        return self.data(JOIN, id=match_id, code=code)["joinMatch"]

    def view(self, match_id: str, seat: int | None = None) -> dict[str, Any]:
        return self.data(MATCH, id=match_id, seat=seat)["match"]

    def act(self, match_id: str, action: Any, **variables: Any) -> dict[str, Any]:
        return self.run(ACT, id=match_id, action=action, **variables)


def seat_as_rest(seat: dict[str, Any]) -> dict[str, Any]:
    return {
        "position": seat["position"],
        "user": seat["user"],
        "bot_level": seat["botLevel"],
        "must_act": seat["mustAct"],
        "deadline": seat["deadline"],
        "away": seat["away"],
        "vacation_until": seat["vacationUntil"],
        "place": seat["place"],
    }


def view_as_rest(view: dict[str, Any]) -> dict[str, Any]:
    """A GraphQL ``MatchView`` (all fields of :data:`VIEW`) in REST's field names."""
    assert view["public"] == (view["view"] or {}).get("public")
    assert view["private"] == (view["view"] or {}).get("private")
    return {
        "id": view["id"],
        "game": view["game"],
        "status": view["status"],
        "version": view["version"],
        "visibility": view["visibility"],
        "options": view["options"],
        "seat_count": view["seatCount"],
        "time_control": view["timeControl"],
        "decision_seconds": view["decisionSeconds"],
        "rated": view["rated"],
        "created_by": view["createdBy"],
        "invite_code": view["inviteCode"],
        "seed_commitment": view["seedCommitment"],
        "seats": [seat_as_rest(s) for s in view["seats"]],
        "you": view["you"],
        "to_act": view["toAct"],
        "deadline": view["deadline"],
        "legal_actions": view["legalActions"],
        "view": view["view"],
        "placements": view["placements"],
        "end_reason": view["endReason"],
        "last_seq": view["lastSeq"],
        "events": [event_as_rest(e) for e in view["events"]],
    }


def event_as_rest(event: dict[str, Any]) -> dict[str, Any]:
    data = event["data"]
    assert (event["seq"], event["version"], event["type"], event["byBot"]) == (
        data["seq"],
        data["version"],
        data["type"],
        bool(data.get("by_bot")),
    )
    return data


def events_as_rest(page: dict[str, Any]) -> dict[str, Any]:
    return {
        "events": [event_as_rest(e) for e in page["events"]],
        "last_seq": page["lastSeq"],
        "more": page["more"],
        "version": page["version"],
        "status": page["status"],
    }


def play_to_the_end(
    match_id: str, players: list[GqlPlayer], rng: random.Random, limit: int = 20000
) -> dict[str, Any]:
    """Every human acts from its own ``legalActions`` until the match is over."""
    for _ in range(limit):
        views = [p.view(match_id) for p in players]
        if views[0]["status"] != "active":
            return views[0]
        movers = [(p, v) for p, v in zip(players, views, strict=True) if v["legalActions"]]
        assert movers, "an active match where no human can act must be waiting for bots"
        player, view = rng.choice(movers)
        action = random_action(view["legalActions"], rng)
        answer = player.act(match_id, action, v=view["version"])
        assert "errors" not in answer, answer
    raise AssertionError("the match did not end")
