"""A caller's event feed: the log rows after a sequence number, as the caller's seat may see
them, with the match's version and status read in the same snapshot (so a feed never skips or
repeats an event). The long-poll, the follower and the GraphQL subscription all read pages
here."""

from __future__ import annotations

from typing import Any

from ..access import Caller, MatchId
from ..models import Event, Match
from .redaction import event_for
from .store import snapshot
from .views import read_match, viewer_seat

#: The most events a page holds; ``more`` says to ask again after its last ``seq``.
EVENTS_PAGE = 200


def events_after(
    match: Match, seat: int | None, after: int, limit: int | None = None
) -> list[dict[str, Any]]:
    """At most ``limit`` (default: ``EVENTS_PAGE``, read when called) events after ``after``."""
    rows = Event.objects.filter(match=match, seq__gt=after).order_by("seq")
    rows = rows[: limit if limit is not None else EVENTS_PAGE]
    return [event_for(e, seat) for e in rows]


def read_feed(
    match_id: MatchId, caller: Caller, after: int, seat: int | None = None
) -> dict[str, Any]:
    """The caller's events after ``after``, read in one snapshot with the match's version and
    last sequence number. ``more`` says a page was cut short: continue after the last event's
    ``seq``."""
    with snapshot():
        match = read_match(match_id, caller)
        viewer = viewer_seat(match, caller, seat)
        events = events_after(match, viewer, after)
    return {
        "events": events,
        "last_seq": match.last_seq,
        "more": bool(events) and events[-1]["seq"] < match.last_seq,
        "version": match.version,
        "status": match.status,
    }
