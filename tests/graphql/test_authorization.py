"""Who may do what through GraphQL: the REST authorization matrix (tests/api/test_authorization.py)
over every GraphQL operation that takes a match, with the same answers — a REST status becomes
its error code (200: no error), so a private match is "not found" to outsiders here too."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.test_authorization import CASES
from tests.api.test_authorization import setup as match_for

from .helpers import post

pytestmark = pytest.mark.django_db

CODE = {200: None, 401: "not_authenticated", 403: "forbidden", 404: "not_found", 409: "conflict"}

DOCUMENTS = {
    "view": "query($id: ID!) { match(id: $id) { id } }",
    "events": "query($id: ID!) { events(matchId: $id) { lastSeq } }",
    "replay": "query($id: ID!) { replay(matchId: $id) { seed } }",
    "stats": "query($id: ID!) { matchStats(matchId: $id) { matchId } }",
    "actions": "mutation($id: ID!, $a: JSON!) { act(matchId: $id, action: $a) { version } }",
    "join": "mutation($id: ID!) { joinMatch(matchId: $id) { id } }",
    "leave": "mutation($id: ID!) { leaveMatch(matchId: $id) { id } }",
    "bots": 'mutation($id: ID!) { addBots(matchId: $id, level: "random") { id } }',
    "start": "mutation($id: ID!) { startMatch(matchId: $id) { id } }",
}


def gql_code(client, endpoint: str, match_id: str, view: dict) -> str | None:
    legal = view["legal_actions"] or [{"type": "call", "params": {}}]
    entry = legal[0]
    action = {"type": entry["type"], **{k: d["one_of"][0] for k, d in entry["params"].items()}}
    header = client._credentials.get("HTTP_AUTHORIZATION", "")
    token = header.removeprefix("Bearer ") or None
    answer = post(Client(), DOCUMENTS[endpoint], {"id": match_id, "a": action}, token).json()
    errors = answer.get("errors")
    return errors[0]["extensions"]["code"] if errors else None


@pytest.mark.slow  # the same selectors as the REST matrix, which runs in the quick loop
@pytest.mark.parametrize(("kind", "visibility", "endpoint", "role", "expected"), CASES)
def test_authorization_matrix_through_graphql(kind, visibility, endpoint, role, expected):
    match_id, clients, view = match_for(kind, visibility)
    assert gql_code(clients[role], endpoint, match_id, view) == CODE[expected]


@pytest.mark.parametrize(
    "document",
    [
        "{ me { id } }",
        "{ myTurns { matchId } }",
        "{ matches(filter: {mine: true}) { edges { cursor } } }",
        "mutation { logout }",
        'mutation { upgrade(username: "someone", password: "a long passphrase") { token } }',
        "mutation { createMatch(input: {game: fabfib, seats: 3}) { id } }",
        'mutation { joinMatch(inviteCode: "ABCDEF") { id } }',
    ],
)
def test_operations_for_a_caller_need_a_token(document):
    errors = post(Client(), document).json()["errors"]
    assert errors[0]["extensions"]["code"] == "not_authenticated"
    errors = post(Client(), document, token="not-a-token").json()["errors"]
    assert errors[0]["extensions"]["code"] == "authentication_failed"
