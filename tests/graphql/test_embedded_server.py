"""The embedded default serves subscriptions too: the server of ``scripts/serve`` (uvicorn on
``fibserver.asgi``, SQLite, no Redis, bots on the embedded runner) answers GraphQL over HTTP
and streams ``matchEvents`` over a websocket, polling the events table."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.embedded.test_sqlite_server import Server

from .ws_client import Subscriber

pytestmark = pytest.mark.slow


def gql(base: str, query: str, token: str | None = None, **variables) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps({"query": query, "variables": variables}).encode()
    request = urllib.request.Request(f"{base}/graphql/", data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.loads(response.read())
    assert "errors" not in answer, answer
    return answer["data"]


def test_the_embedded_server_streams_a_solo_match_to_a_subscriber(tmp_path):
    server = Server(tmp_path)
    try:
        token = gql(server.url, 'mutation { guest(displayName: "Ada") { token } }')["guest"][
            "token"
        ]
        match = gql(
            server.url,
            'mutation { createMatch(input: {game: fabfib, seats: 3, bots: ["random", '
            '"random"], timeControl: solo}) { id lastSeq } }',
            token,
        )["createMatch"]
        sub = Subscriber(server.url.removeprefix("http://"), token)
        sub.subscribe(match["id"], after=0)
        first = sub.events(match["lastSeq"], timeout=10)
        assert [e["seq"] for e in first] == list(range(1, match["lastSeq"] + 1))
        # The bots play until it is the human's turn; their moves arrive as they are committed.
        view = {"legalActions": []}
        seen = first[-1]["seq"]
        for _ in range(50):
            view = gql(
                server.url,
                "query($id: ID!) { match(id: $id) { lastSeq legalActions { type params } } }",
                token,
                id=match["id"],
            )["match"]
            if view["legalActions"]:
                break
            seen = sub.events(1, timeout=10)[-1]["seq"]
        if view["lastSeq"] > seen:
            seen = sub.events(view["lastSeq"] - seen, timeout=10)[-1]["seq"]
        assert seen == view["lastSeq"]
        entry = view["legalActions"][0]
        action = {"type": entry["type"]}
        for name, domain in entry["params"].items():
            action[name] = domain["one_of"][0] if "one_of" in domain else domain["subset_of"][:1]
        gql(
            server.url,
            "mutation($id: ID!, $a: JSON!) { act(matchId: $id, action: $a) { version } }",
            token,
            id=match["id"],
            a=action,
        )
        (mine,) = sub.events(1, timeout=10)
        assert mine["seq"] == seen + 1 and mine["type"] == action["type"]
        sub.close()
    finally:
        server.stop()
