"""What ``games`` holds about a player, for the deletion and the export of an account
(registered with :mod:`accounts.hooks` in ``GamesConfig.ready``).

The export renders every section through the reader that serves it over the API: each match
through :func:`games.reads.views.read_view` for the player's own seat and its log through
:func:`games.reads.redaction.event_for` for that seat (the one redaction path: another seat's
hidden cards never appear), the careers through :func:`games.reads.leaderboards.my_stats`."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from accounts import hooks
from accounts.erasure import Decision, delete, handled, keep
from accounts.models import User

from .models import Event, RatingPoint, Seat
from .reads.leaderboards import my_stats
from .reads.redaction import event_for
from .reads.views import read_view

ERASURE: dict[str, Decision] = {
    # matches
    "games.Seat.user": handled(
        "games.services.departure: lobby seats freed, active seats played by the takeover "
        "bot, finished seats kept under the anonymous label (the others' records)"
    ),
    "games.Match.created_by": keep("the host of finished matches (lobbies are left first)"),
    "games.IdempotencyRecord.user": delete("stored answers of the user's own moves"),
    "games.Vacation.user": delete(
        "the user's vacations (games.services.departure ends one: the takeover bot plays on)"
    ),
    # careers, ratings, leaderboards
    "games.Career.user": delete("the user's statistics: they leave every leaderboard"),
    "games.RatingPoint.user": delete("the user's rating history (others' are not recomputed)"),
}


def depart(user: User) -> None:
    from .services.departure import player_depart

    player_depart(user=user)


def match_entries(user: User) -> Iterator[dict[str, Any]]:
    """Each match the player holds a seat in, newest first, once per seat held: the view of
    that seat and every event of the log as that seat sees it."""
    seats = (
        Seat.objects.filter(user=user)
        .order_by("-match__created_at", "match_id", "position")
        .values_list("match_id", "position")
    )
    for match_id, position in seats.iterator():
        view, _tag = read_view(match_id, user, position)
        events = Event.objects.filter(match_id=match_id).order_by("seq")
        yield {
            "match": str(match_id),
            "seat": position,
            "view": view,
            "events": [event_for(e, position) for e in events.iterator()],
        }


def careers(user: User) -> dict[str, Any]:
    return my_stats(user)


def rating_history(user: User) -> list[dict[str, Any]]:
    """Every rating point (the careers' ``history`` holds only the latest ones)."""
    rows = (
        RatingPoint.objects.filter(user=user)
        .order_by("game", "record_id")
        .values("game", "match_id", "played_at", "rating", "mu", "sigma", "place")
    )
    return [{**r, "match_id": str(r["match_id"]), "played_at": _iso(r["played_at"])} for r in rows]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def register() -> None:
    hooks.register(
        "games",
        erasure=ERASURE,
        depart=depart,
        export={"careers": careers, "rating_history": rating_history},
        bounded=("matches", match_entries),
    )
