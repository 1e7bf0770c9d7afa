"""What every writer shares: the database clock, the match's rules, the row lock and seats
(who the caller is and which seats are theirs: :mod:`games.access`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, Func
from django.utils import timezone

from kernel.errors import Conflict, Forbidden, NotFound

from ..access import Caller, MatchId, is_host, match_pk, user_seats
from ..engine import registry
from ..engine.core import Rules
from ..models import Match, Seat


def db_now() -> datetime:
    """The database's clock: every deadline is set and judged by it, whichever server runs."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT clock_timestamp()")
            return cursor.fetchone()[0]
    return timezone.now()


def rules_for(match: Match) -> Rules[Any]:
    return registry.get(match.game)


def engine_state(match: Match, rules: Rules[Any]) -> Any:
    """The engine state of a match that has started."""
    if match.state is None:
        raise Conflict("The match has not started.", status=match.status)
    return rules.from_json(match.state)


def locked(match_id: MatchId, *, clock: bool = False) -> Match:
    """The match, its row locked until the transaction ends. With ``clock`` the same
    statement also reads the database clock (:func:`clock_of`), so a step that sets a
    deadline needs no ``SELECT clock_timestamp()`` of its own."""
    query = Match.objects.select_for_update().filter(pk=match_pk(match_id))
    if clock and connection.vendor == "postgresql":
        query = query.annotate(
            db_clock=Func(function="clock_timestamp", output_field=DateTimeField())
        )
    match = query.first()
    if match is None:
        raise NotFound("No such match.")
    return match


def clock_of(match: Match) -> datetime:
    """The database clock as read with the match's row lock, else read now."""
    read: datetime | None = match.__dict__.get("db_clock")
    return read if read is not None else db_now()


def seats_of(match: Match) -> list[Seat]:
    """The match's seats in position order, with their users."""
    return list(match.seats.select_related("user").order_by("position"))


def require_seat(match: Match, seats: list[Seat], user: Caller, message: str) -> list[Seat]:
    """The caller's seats; a private match does not exist for anyone without one (or the
    host's right to it)."""
    mine = user_seats(seats, user)
    if not mine:
        if match.visibility == Match.Visibility.PRIVATE and not is_host(match, user):
            raise NotFound("No such match.")
        raise Forbidden(message)
    return mine


def places_of(match: Match, seats: list[Seat]) -> list[list[Seat]]:
    """The seats grouped by participant (the game's :meth:`Rules.places`)."""
    by_position = {s.position: s for s in seats}
    return [
        [by_position[p] for p in place]
        for place in rules_for(match).places(match.seat_count, match.options)
    ]


def bump(match: Match) -> None:
    match.version += 1
