"""Finished matches with known placements, statistics and decisions, written straight to the
tables the end-of-match work reads (what the finisher would have left behind)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from accounts.models import User
from accounts.services import guest_create
from games import services
from games.engine import registry
from games.models import Event, Match, Seat

BOT = "basic"


def people(n: int) -> list[User]:
    return [guest_create()[0] for _ in range(n)]


def finished_match(
    game: str,
    seats: list[User | str],
    placements: list[int],
    *,
    stats: list[dict[str, int]] | None = None,
    takeover: list[dict[str, int]] | None = None,
    options: dict[str, Any] | None = None,
    decisions: dict[int, tuple[int, int]] | None = None,
    finished_at: datetime | None = None,
    status: str = "finished",
    rated: bool = True,
) -> Match:
    """A match of ``game`` whose seats are held by users or bots (a level), finished with
    ``placements``. ``decisions``: position -> (own, by bot) decisions, written as events."""
    rules = registry.get(game)
    normalized = rules.normalize_options(len(seats), dict(options or {}))
    keys = rules.stats(rules.new_game(len(seats), normalized, "00" * 32).state)[0]
    match = Match.objects.create(
        game=game,
        options=normalized,
        seat_count=len(seats),
        status=status,
        decision_seconds=75,
        rated=rated,
        placements=placements if status == "finished" else None,
        stats=stats or [dict.fromkeys(keys, 0) for _ in seats],
        takeover_stats=takeover,
        finished_at=finished_at or services.db_now() - timedelta(seconds=30),
    )
    for position, holder in enumerate(seats):
        Seat.objects.create(
            match=match,
            position=position,
            user=holder if isinstance(holder, User) else None,
            bot_level=holder if isinstance(holder, str) else "",
            place=placements[position] if status == "finished" else None,
        )
    version = 1
    rows = []
    for position, (own, by_bot) in sorted((decisions or {}).items()):
        for flag, count in ((False, own), (True, by_bot)):
            for _ in range(count):
                version += 1
                rows.append(
                    Event(
                        match=match,
                        seq=version,
                        version=version,
                        type="action",
                        actor=position,
                        action={"type": "x"},
                        by_bot=flag,
                    )
                )
    Event.objects.bulk_create(rows)
    return match
