"""No leaks through the API: for two matches that differ only in what seat S cannot see, S's
view, event feed, rematch offer and error bodies are byte-identical."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.services import guest_create, token_issue
from games import services
from games.engine import registry
from games.engine.bots import random_action
from games.models import Event, Match, Seat, new_invite_code

pytestmark = pytest.mark.django_db


def bad_actions(view: dict) -> list[dict]:
    """Actions that must be refused: unknown types, unknown parameters, values off the domain."""
    bad: list[Any] = [{"type": "no_such_action"}, ["not", "an", "object"]]
    for entry in view.get("legal_actions", []):
        bad.append({"type": entry["type"], "bogus": 1})
        for name in entry["params"]:
            bad.append({"type": entry["type"], name: 10**9})
    return bad


def played_match(rules, steps: int, rng: random.Random) -> tuple[Match, list]:
    lo, _ = rules.seat_range({})
    users = [guest_create()[0] for _ in range(lo)]
    match = services.match_create(user=users[0], game=rules.game_id, seats=lo)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    for _ in range(steps):
        match.refresh_from_db()
        if match.status != "active":
            break
        state = rules.from_json(match.state)
        seat = rng.choice(rules.to_act(state))
        action = random_action(rules.legal_actions(state, seat), rng)
        services.action_submit(match_id=match.pk, user=users[seat], action=action)
    match.refresh_from_db()
    return match, users


def twin_of(match: Match, seat: int | None, rng: random.Random) -> Match:
    """A copy of ``match`` in which everything ``seat`` cannot see is different."""
    rules = registry.get(match.game)
    twin = Match.objects.get(pk=match.pk)
    twin.id = uuid.uuid4()
    twin.invite_code = new_invite_code()
    assert match.state is not None
    twin.state = rules.to_json(rules.hidden_variant(rules.from_json(match.state), seat, rng))
    twin.save(force_insert=True)
    for s in Seat.objects.filter(match=match):
        s.pk, s.match = None, twin
        s.save(force_insert=True)
    for e in Event.objects.filter(match=match):
        e.pk, e.match = None, twin
        e.private = {
            k: ({"garbage": rng.random()} if k != str(seat) else v) for k, v in e.private.items()
        }
        e.action, e.chance = {"type": "hidden"}, [["hidden", rng.random()]]
        e.save(force_insert=True)
    return twin


def bodies(client: APIClient, match: Match, seat_user) -> list[str]:
    base = f"/api/matches/{match.pk}/"
    view = client.get(base)
    out = [view.content, client.get(base + "events/?after=0").content]
    if seat_user is not None:
        out.append(client.get(base + "rematch/").content)  # the rematch offer (or its refusal)
        for bad in bad_actions(view.json()):
            response = client.post(base + "actions/", bad, format="json")
            assert response.status_code in (400, 403, 409, 422), response.content
            out.append(response.content)
    text = [b.decode() for b in out]
    return [t.replace(str(match.pk), "MATCH").replace(match.invite_code, "CODE") for t in text]


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.integers(0, 40), pick=st.randoms(use_true_random=False))
def test_what_a_seat_receives_does_not_depend_on_what_it_cannot_see(rules, steps, pick):
    match, users = played_match(rules, steps, random.Random(pick.random()))
    for seat in [None, *range(match.seat_count)]:
        client = APIClient()
        user = users[seat] if seat is not None else None
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=user)}")
        twin = twin_of(match, seat, random.Random(pick.random()))
        assert bodies(client, twin, user) == bodies(client, match, user)
        assert (
            json.loads(client.get(f"/api/matches/{match.pk}/").content)["version"] == match.version
        )
