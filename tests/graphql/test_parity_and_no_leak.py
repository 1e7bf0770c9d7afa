"""GraphQL shows what REST shows, and leaks nothing REST does not.

- Parity: for random matches, every seat's (and a spectator's) GraphQL ``match`` view and
  ``events`` equal REST's JSON for the same seat and version.
- No leaks: for twin matches that differ only in what seat S cannot see (built as in
  tests/api/test_no_leak_api.py), S's GraphQL view, event page, subscription messages and the
  errors of refused actions are byte-identical.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.services import token_issue
from api.graphql.context import Context
from api.graphql.schema import schema
from games.engine import registry
from tests.api.test_no_leak_api import bad_actions, played_match, twin_of

from .helpers import ACT, EVENTS, MATCH, GqlPlayer, events_as_rest, view_as_rest
from .ws_client import SUBSCRIBE

pytestmark = pytest.mark.django_db

EXAMPLES = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def token_of(user: Any) -> str | None:
    return None if user is None else token_issue(user=user)


def rest_client(token: str | None) -> APIClient:
    client = APIClient()
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
@EXAMPLES
@given(steps=st.integers(0, 40), pick=st.randoms(use_true_random=False))
def test_graphql_views_and_events_equal_rest_for_every_seat(rules, steps, pick):
    rng = random.Random(pick.random())
    match, users = played_match(rules, steps, rng)
    for seat in [None, *range(match.seat_count)]:
        token = token_of(users[seat] if seat is not None else None)
        rest, gql = rest_client(token), GqlPlayer(token=token, anonymous=token is None)
        base = f"/api/matches/{match.pk}/"
        assert view_as_rest(gql.view(str(match.pk))) == rest.get(base).json()
        after = rng.randint(0, match.last_seq)
        page = gql.data(EVENTS, id=str(match.pk), after=after)["events"]
        assert events_as_rest(page) == rest.get(f"{base}events/?after={after}").json()


def subscription_messages(match_id: str, user: Any, count: int) -> list[Any]:
    """The first ``count`` messages of ``matchEvents(after: 0)`` as ``user`` (in-process: the
    same schema the websocket runs), each as its JSON payload."""

    async def collect() -> list[Any]:
        context = Context(meta={}, websocket=True)
        context.set_user(user)
        stream = await schema.subscribe(
            SUBSCRIBE, variable_values={"id": match_id, "after": 0}, context_value=context
        )
        out: list[Any] = []
        async for result in stream:  # type: ignore[union-attr]
            errors = [e.formatted for e in result.errors or []]
            out.append({"data": result.data, "errors": errors})
            if len(out) >= count or errors:
                break
        await stream.aclose()  # type: ignore[union-attr]
        return out

    return async_to_sync(collect)()


def bodies(match: Any, user: Any) -> list[str]:
    """Everything ``user`` receives about ``match`` through GraphQL, as text."""
    token = token_of(user)
    player = GqlPlayer(token=token, anonymous=token is None)
    match_id = str(match.pk)
    view = player.run(MATCH, id=match_id)
    out = [view, player.run(EVENTS, id=match_id, after=0)]
    out += subscription_messages(match_id, user, match.last_seq)
    if user is not None:
        for bad in bad_actions(view_as_rest(view["data"]["match"])):
            answer = player.run(ACT, id=match_id, action=bad)
            assert answer["data"]["act"] is None and answer["errors"], answer
            out.append(answer)
    text = [orjson.dumps(b).decode() for b in out]
    return [t.replace(match_id, "MATCH").replace(match.invite_code, "CODE") for t in text]


@pytest.mark.slow  # the REST and engine no-leak properties run in the quick loop
@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
@EXAMPLES
@given(steps=st.integers(0, 40), pick=st.randoms(use_true_random=False))
def test_what_a_seat_receives_through_graphql_does_not_depend_on_what_it_cannot_see(
    rules, steps, pick
):
    match, users = played_match(rules, steps, random.Random(pick.random()))
    for seat in [None, *range(match.seat_count)]:
        user = users[seat] if seat is not None else None
        twin = twin_of(match, seat, random.Random(pick.random()))
        assert bodies(twin, user) == bodies(match, user)
