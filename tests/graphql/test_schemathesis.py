"""schemathesis in GraphQL mode against the app: queries and mutations generated from the
committed SDL, sent as a seated player of an active match (with its match id among the
generated ids), never get a server error — no 5xx and no ``internal_error`` — and every answer
is a GraphQL response. Bounded examples keep it quick; the pytest plugin does not run under
pytest 9, so each operation's strategy is driven from an ordinary parametrized test (as in
tests/api/test_schemathesis.py)."""

from __future__ import annotations

import os

import graphql
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.graphql import nodes

from api.management.commands.graphql_schema import SDL_PATH
from tests.api.helpers import Player

#: The seated player's match id, drawn among the generated ids (set by the fixture).
MATCH: dict[str, str] = {"id": "00000000-0000-0000-0000-000000000000"}


def json_values() -> st.SearchStrategy[graphql.ValueNode]:
    """GraphQL literals of any JSON value, and action-like objects with a real action type."""
    scalars = st.one_of(
        st.none().map(lambda _: nodes.Null),
        st.booleans().map(nodes.Boolean),
        st.integers(-(2**31), 2**31 - 1).map(nodes.Int),
        st.floats(allow_nan=False, allow_infinity=False).map(nodes.Float),
        st.text(max_size=20).map(nodes.String),
    )

    def obj(fields: dict[str, graphql.ValueNode]) -> graphql.ValueNode:
        return graphql.ObjectValueNode(
            fields=tuple(
                graphql.ObjectFieldNode(name=graphql.NameNode(value=k), value=v)
                for k, v in fields.items()
            )
        )

    names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,10}", fullmatch=True)
    values = st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=4).map(
                lambda items: graphql.ListValueNode(values=tuple(items))
            )
            | st.dictionaries(names, inner, max_size=4).map(obj)
        ),
        max_leaves=10,
    )
    actions = st.fixed_dictionaries(
        {"type": st.sampled_from(["call", "accept", "claim", "exchange", "x"]).map(nodes.String)},
        optional={"value": values, "cards": values},
    ).map(obj)
    return actions | values


def ids() -> st.SearchStrategy[graphql.ValueNode]:
    return st.one_of(st.just(None).map(lambda _: MATCH["id"]), st.text(max_size=40)).map(
        nodes.String
    )


schemathesis.graphql.scalar("JSON", json_values())
schemathesis.graphql.scalar("ID", ids())
schemathesis.graphql.scalar("DateTime", st.datetimes().map(lambda d: nodes.String(d.isoformat())))


def load_schema():
    from fibserver.wsgi import application

    schema = schemathesis.graphql.from_file(SDL_PATH.read_text())
    schema.location = "http://testserver/graphql/"  # the endpoint of every operation
    schema.app = application
    return schema


SCHEMA = load_schema()
OPERATIONS = [
    op.ok() for op in SCHEMA.get_all_operations() if not op.ok().label.startswith("Subscription")
]


@pytest.fixture
def seated(transactional_db):
    players = [Player() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    MATCH["id"] = match["id"]
    return match["id"], players[0].token


@pytest.mark.slow  # a fuzz of every operation, like the REST one: CI runs it, the quick loop not
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_graphql_never_fails_with_a_server_error(operation, seated):
    _match_id, token = seated

    @settings(
        max_examples=int(os.environ.get("SCHEMATHESIS_EXAMPLES", "20")),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def check(case):
        response = case.call(headers={"Authorization": f"Bearer {token}"})
        assert response.status_code < 500, response.text
        body = response.json()
        assert isinstance(body, dict) and ("data" in body or "errors" in body), body
        codes = [e.get("extensions", {}).get("code") for e in body.get("errors") or []]
        assert "internal_error" not in codes, (case.body, body)

    check()
