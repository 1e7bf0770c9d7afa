"""Matches for the notification tests, played through the services."""

from __future__ import annotations

import random
from typing import Any

from accounts.models import User
from accounts.services import guest_create
from games import services
from games.engine import registry
from games.engine.bots import random_action
from games.models import Match
from notifications.models import Notification

#: ``NOTIFICATIONS`` settings for channels that deliver to the receivers the tests start on
#: this machine (plain HTTP, a private address), at once and at most three times.
LOCAL = {
    "WEBHOOK_ALLOW_HTTP": True,
    "WEBHOOK_ALLOW_PRIVATE": True,
    "BACKOFF_SECONDS": 0.0,
    "MAX_ATTEMPTS": 3,
}


def table(game: str = "fibber", seats: int = 2, **options: Any) -> tuple[Match, list[User]]:
    """A started match of ``seats`` guests (the first is the host)."""
    users = [guest_create()[0] for _ in range(seats)]
    match = services.match_create(user=users[0], game=game, seats=seats, **options)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, users


def to_act(match: Match) -> list[int]:
    match.refresh_from_db()
    rules = registry.get(match.game)
    return list(rules.to_act(rules.from_json(match.state or {})))


def move(match: Match, users: list[User], rng: random.Random, seat: int | None = None) -> int:
    """One random legal move of a seat that must act; returns the seat."""
    rules = registry.get(match.game)
    match.refresh_from_db()
    state = rules.from_json(match.state or {})
    seat = rng.choice(rules.to_act(state)) if seat is None else seat
    action = random_action(rules.legal_actions(state, seat), rng)
    services.action_submit(match_id=match.pk, user=users[seat], action=action)
    return seat


def kinds(user: User, **filters: Any) -> list[str]:
    return list(
        Notification.objects.filter(user=user, due_at__isnull=True, **filters)
        .order_by("id")
        .values_list("kind", flat=True)
    )
