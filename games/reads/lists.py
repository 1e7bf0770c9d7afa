"""Lists of matches: the open lobby, a player's own matches, their turns (the async inbox),
each entry with public facts only, a page in one query."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from accounts.models import User

from ..models import Match, Seat
from .views import render_seat


def render_seats(match: Match) -> list[dict[str, Any]]:
    """The public seat entries of a list item, in seat order, from the seats (and their users)
    the queryset prefetched: no query of its own."""
    return [render_seat(s) for s in sorted(match.seats.all(), key=lambda s: s.position)]


def render_summary(match: Match) -> dict[str, Any]:
    """A lobby or list entry: public facts only. The seat counts come from
    :func:`with_seat_counts` when the list was read with it, else from the prefetched seats."""
    if hasattr(match, "filled_seats"):
        filled, bots = match.filled_seats, match.bot_seats  # type: ignore[attr-defined]
    else:
        seats = list(match.seats.all())
        filled = sum(1 for s in seats if not s.is_empty)
        bots = sum(1 for s in seats if s.is_bot)
    return {
        "id": str(match.pk),
        "game": match.game,
        "status": match.status,
        "visibility": match.visibility,
        "options": match.options,
        "seat_count": match.seat_count,
        "filled": filled,
        "bots": bots,
        "time_control": match.time_control,
        "rated": match.rated,
        "created_at": match.created_at.isoformat(),
        "version": match.version,
    }


#: The columns a summary (:func:`render_summary`) shows.
SUMMARY_FIELDS = [
    "id",
    "game",
    "status",
    "visibility",
    "options",
    "seat_count",
    "time_control",
    "rated",
    "created_at",
    "version",
]


def with_seat_counts(qs: QuerySet[Match]) -> QuerySet[Match]:
    """A list of matches read for their summaries: the summary's columns only, and the seat
    counts as two subqueries of the same statement (by ``seat_unique_position``), so a page
    costs one query and no seat is turned into a model instance."""
    seats = Seat.objects.filter(match=OuterRef("pk")).order_by().values("match")

    def count(rows: Any) -> Coalesce:
        return Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n")), 0)

    return qs.only(*SUMMARY_FIELDS).annotate(
        filled_seats=count(seats.exclude(user=None, bot_level="")),
        bot_seats=count(seats.exclude(bot_level="")),
    )


def open_matches(*, game: str | None = None) -> QuerySet[Match]:
    qs = Match.objects.filter(status=Match.Status.LOBBY, visibility=Match.Visibility.PUBLIC)
    if game:
        qs = qs.filter(game=game)
    return qs.defer("state").order_by("-created_at")


def matches_of(*, user: User, status: str | None = None) -> QuerySet[Match]:
    """The matches the caller holds a seat in or created (a bot exhibition they host).

    The seats as a subquery (``seat_user_joined`` finds them) rather than a join: no
    ``DISTINCT`` over every column of every match, for the page and for its count; the engine
    state and the end-of-match statistics, which a summary does not show, are not read."""
    seated = Seat.objects.filter(user=user).values("match_id")
    qs = Match.objects.filter(Q(pk__in=seated) | Q(created_by=user))
    if status:
        qs = qs.filter(status=status)
    return qs.defer("state", "stats", "takeover_stats", "placements").order_by("-created_at")


def read_turns(*, user: User) -> list[dict[str, Any]]:
    """The caller's seats that must act, soonest deadline first (no deadline last)."""
    seats = (
        Seat.objects.filter(user=user, must_act=True, match__status=Match.Status.ACTIVE)
        .select_related("match")
        .only("position", "deadline", "match__id", "match__game", "match__version")
    )
    entries = [
        {
            "match": str(s.match.pk),
            "game": s.match.game,
            "seat": s.position,
            "deadline": s.deadline.isoformat() if s.deadline else None,
            "version": s.match.version,
        }
        for s in seats
    ]
    entries.sort(key=lambda e: (e["deadline"] is None, e["deadline"] or ""))
    return entries
