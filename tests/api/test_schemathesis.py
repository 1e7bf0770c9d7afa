"""The OpenAPI schema against the app (schemathesis): authenticated as a seated player of an
active match, requests generated for every operation never get a 5xx and every response fits the
schema. Bounded examples keep it quick in CI.

Schemathesis' pytest plugin does not run under pytest 9 yet, so each operation's hypothesis
strategy is driven from an ordinary parametrized test."""

from __future__ import annotations

import os

import pytest
import schemathesis
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)

from .helpers import Player

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


def load_schema():
    from fibserver.wsgi import application

    document = SchemaGenerator(urlconf="api.rest.schema_urls").get_schema(request=None, public=True)
    schema = schemathesis.openapi.from_dict(document)
    schema.app = application
    return schema


SCHEMA = load_schema()
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]


@pytest.fixture
def seated(transactional_db):
    """A seated player of an active Fab Fib match (and the match id). The requests go to the
    real WSGI app, which closes connections between requests: the data must be committed."""
    players = [Player() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    return match["id"], players[0].token


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_the_api_never_fails_and_always_matches_its_schema(operation, seated):
    match_id, token = seated

    @settings(
        max_examples=int(os.environ.get("SCHEMATHESIS_EXAMPLES", "20")),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(), data=st.data())
    def check(case, data):
        if case.path_parameters and "match_id" in case.path_parameters:
            case.path_parameters["match_id"] = data.draw(
                st.sampled_from([match_id, case.path_parameters["match_id"]])
            )
        case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=CHECKS)

    check()
