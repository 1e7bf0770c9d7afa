"""A generic test client: plays any registered game through the REST API using only
``legal_actions`` (a client can build any legal action without knowing the rules)."""

from __future__ import annotations

import random
import re
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern
from rest_framework.test import APIClient

from accounts.services import guest_create
from games.engine import registry
from games.engine.bots import random_action
from games.models import Event, Match


class Player:
    #: An event this player hosts, when a test made one (the hostile battery).
    tournament_id: str = ""

    def __init__(self, name: str = "") -> None:
        self.user, self.token = guest_create(display_name=name or None)
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.token}")

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.client.get(path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return self.client.post(path, body if body is not None else {}, format="json", **kwargs)

    def create(self, **body: Any) -> dict[str, Any]:
        response = self.post("/api/matches/", body)
        assert response.status_code == 201, response.content
        return response.json()

    def view(self, match_id: str) -> dict[str, Any]:
        response = self.get(f"/api/matches/{match_id}/")
        assert response.status_code == 200, response.content
        return response.json()

    def act(self, match_id: str, action: dict[str, Any], **headers: Any) -> Any:
        return self.post(f"/api/matches/{match_id}/actions/", action, **headers)


def play_to_the_end(
    match_id: str, players: list[Player], rng: random.Random, limit: int = 20000
) -> dict:
    """Every human acts from its own view until the match is over; returns the last view."""
    for _ in range(limit):
        views = [p.view(match_id) for p in players]
        if views[0]["status"] != "active":
            return views[0]
        movers = [(p, v) for p, v in zip(players, views, strict=True) if v["legal_actions"]]
        assert movers, "an active match where no human can act must be waiting for bots"
        player, view = rng.choice(movers)
        action = random_action(view["legal_actions"], rng)
        response = player.act(match_id, {**action, "expected_version": view["version"]})
        assert response.status_code == 200, response.content
    raise AssertionError("the match did not end")


def applied_actions(match_id: Any) -> list[Event]:
    """The first event row of each applied action: one per decision taken."""
    return list(Event.objects.filter(match_id=match_id).exclude(action=None).order_by("seq"))


def replays_to_stored_state(match_id: Any) -> bool:
    """Re-running the logged actions from the seed gives exactly the stored state."""
    match = Match.objects.get(pk=match_id)
    rules = registry.get(match.game)
    state = rules.new_game(match.seat_count, match.options, match.seed).state
    for event in applied_actions(match_id):
        assert event.actor is not None
        state = rules.apply(state, event.actor, event.action).state
    return rules.to_json(state) == match.state


def wsgi_call(app: Any, env: dict[str, Any]) -> tuple[int, bytes, list[tuple[str, str]]]:
    """One request through the WSGI application ``app``: its status, whole body and headers."""
    head: list[Any] = []
    result = app(env, lambda status, headers, *_: head.append((status, headers)))
    try:
        body = b"".join(result)
    finally:
        result.close()
    status, headers = head[0]
    return int(status.split()[0]), body, headers


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is ``status`` with the one JSON error shape (and ``code``, if given)."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def db_fingerprint() -> tuple[int, ...]:
    """What a rejected request must not change: the row counts of every table a request can
    write, the sum of match versions and the number of seats held by users (one query)."""
    from django.db import connection

    from accounts.models import Session, User
    from games.models import Career, IdempotencyRecord, Seat

    tables = [
        m._meta.db_table for m in (User, Session, Match, Seat, Event, IdempotencyRecord, Career)
    ]
    parts = [f"(SELECT COUNT(*) FROM {table})" for table in tables]
    parts.append(f"(SELECT COALESCE(SUM(version), 0) FROM {Match._meta.db_table})")
    parts.append(f"(SELECT COUNT(user_id) FROM {Seat._meta.db_table})")
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts))
        row = cursor.fetchone()
    assert row is not None
    return tuple(row)


def api_routes() -> list[str]:
    """Every route under ``api/`` in the root URL conf, e.g. ``api/matches/<str:match_id>/``."""
    routes: list[str] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                route = prefix + str(entry.pattern)
                if route.startswith("api/"):
                    assert isinstance(entry.pattern, RoutePattern), f"regex route {route}"
                    routes.append(route)
                else:
                    assert not re.match(r"\^?api/", route), f"regex route {route}: handle it"

    walk(get_resolver().url_patterns, "")
    return sorted(set(routes))
