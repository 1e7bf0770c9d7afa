"""Query parameters, declared once and read the same way by every face: a ``seat`` to look
or act through, a page, the match list's filters, the event feed's ``after`` and ``wait``,
a leaderboard page, the tournament list's filter.

The readers take the parameters as a mapping of names to text (a REST request's
``query_params``, a plain Django request's ``GET``, GraphQL's arguments as text) and answer the
checked values, or ``400 invalid`` with ``fields``. Unknown parameters are never refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.settings import api_settings

from games import boards
from games.engine import registry
from games.engine.core import Rules
from games.models import Match
from games.reads import leaderboards
from tournaments.models import Tournament

from .fields import (
    QueryBooleanField,
    QueryIntegerField,
    QueryNumberField,
    StrictChoiceField,
    validate,
)

#: Options only a tournament sets on its rounds (docs/tournaments.md), never a match's creator.
TOURNAMENT_OPTIONS = frozenset({"tournament"})


def _seat_ranges(rules: Rules[Any], *, tournaments: bool = False) -> list[tuple[int, int]]:
    return [
        rules.seat_range(options)
        for options in rules.option_examples
        if tournaments or not TOURNAMENT_OPTIONS & set(options)
    ]


def seat_span(rules: Rules[Any], *, tournaments: bool = False) -> tuple[int, int]:
    """The fewest and most seats a match of the game can be created with, over all its
    options; ``tournaments``: also the rounds of tournaments (Fibber's Dice tournament rounds
    seat 64)."""
    ranges = _seat_ranges(rules, tournaments=tournaments)
    return min(lo for lo, _ in ranges), max(hi for _, hi in ranges)


#: Every seat position a match can have (a tournament round of Fibber's Dice seats 64).
MAX_SEATS = max(seat_span(rules, tournaments=True)[1] for rules in registry.all_rules())
SEAT_MAX = MAX_SEATS - 1


def seat_field(**kwargs: Any) -> QueryIntegerField:
    return QueryIntegerField(min_value=0, max_value=SEAT_MAX, required=False, **kwargs)


class SeatQuery(serializers.Serializer):
    """Query parameters are not refused for being unknown (``limit``, ``offset`` …)."""

    seat = seat_field(
        help_text="Which of your seats to look or act through (Skull two_tribes); not yours: 403."
    )


class PageQuery(serializers.Serializer):
    limit = QueryIntegerField(
        min_value=1, max_value=200, required=False, help_text="Page size (default 50)."
    )
    offset = QueryIntegerField(
        min_value=0, max_value=999_999_999, required=False, help_text="Entries to skip."
    )


class MatchListQuery(serializers.Serializer):
    game = StrictChoiceField(
        registry.game_ids(), component="Game", required=False, help_text="Only this game."
    )
    mine = QueryBooleanField(
        required=False,
        default=False,
        help_text="The caller's matches (seated or hosted), any status; needs a token.",
    )
    status = StrictChoiceField(
        Match.Status.values,
        component="MatchStatus",
        required=False,
        help_text="Only matches in this status (the open list holds only `lobby` matches).",
    )


class EventsQuery(SeatQuery):
    """The event feed's parameters, and no others: unlike the other queries, the feed refuses
    a parameter it does not take (400 ``invalid`` naming it), so a client asking for a page
    size (``limit``) learns that there is none — a page holds at most ``EVENTS_PAGE`` events
    and ``more`` says to ask again — instead of reading a page it did not ask for."""

    def to_internal_value(self, data: Any) -> Any:
        allowed = {*self.fields, api_settings.URL_FORMAT_OVERRIDE}  # ``?format=``, as everywhere
        unknown = sorted(str(name) for name in data if name not in allowed)
        if unknown:
            takes = ", ".join(sorted(self.fields))
            message = f"Unknown parameter; this feed takes: {takes}."
            raise ValidationError({name: [message] for name in unknown})
        return super().to_internal_value(data)

    after = QueryIntegerField(
        min_value=0,
        max_value=999_999_999,
        required=False,
        default=0,
        help_text="The last sequence number seen (0: from the start).",
    )
    wait = QueryNumberField(
        min_value=0,
        max_value=30,
        required=False,
        default=0,
        help_text="Seconds to hold the request until news arrive (long-poll), at most 30.",
    )


class LeaderboardQuery(serializers.Serializer):
    board = StrictChoiceField(
        list(boards.BOARD_IDS),
        component="Board",
        required=False,
        default="rating",
        help_text="Which board.",
    )
    limit = QueryIntegerField(
        min_value=1,
        max_value=leaderboards.PAGE_MAX,
        required=False,
        default=leaderboards.PAGE_DEFAULT,
        help_text="Entries per page.",
    )
    offset = QueryIntegerField(
        min_value=0, max_value=999_999_999, required=False, default=0, help_text="Entries to skip."
    )
    around = StrictChoiceField(
        ["me"],
        component="Around",
        required=False,
        help_text="The page around the caller's own rank (needs a token).",
    )
    active_days = QueryIntegerField(
        min_value=1,
        max_value=36500,
        required=False,
        help_text="Only players whose latest match ended within this many days.",
    )


class GameQuery(serializers.Serializer):
    game = StrictChoiceField(
        registry.game_ids(), component="Game", required=False, help_text="Only this game."
    )


class RequiredGameQuery(serializers.Serializer):
    game = StrictChoiceField(registry.game_ids(), component="Game", help_text="The game.")


class TournamentListQuery(serializers.Serializer):
    status = StrictChoiceField(
        [Tournament.Status.OPEN, Tournament.Status.RUNNING, Tournament.Status.FINISHED],
        component="TournamentStatus",
        required=False,
        help_text="Only events in this status (default: open and running).",
    )


# --- Readers -----------------------------------------------------------------------------------


def plain(params: Mapping[str, str]) -> dict[str, str]:
    """Query parameters as one value per name (the last, as Django's ``QueryDict.get``), so a
    declaration reads them the same from every face."""
    return dict(params.items())


def seat_of(params: Mapping[str, str]) -> int | None:
    """The ``?seat=`` a caller holding two seats (Skull two_tribes) looks or acts through."""
    if "seat" not in params:
        return None  # nothing to check: SeatQuery ignores every other parameter
    seat: int | None = validate(SeatQuery, plain(params)).get("seat")
    return seat


def feed_of(params: Mapping[str, str]) -> tuple[int, float, int | None]:
    """The event feed's ``after`` (the last sequence number seen), ``wait`` (seconds of
    long-poll, at most ``MAX_WAIT_SECONDS``) and ``seat``."""
    query = validate(EventsQuery, plain(params))
    wait = min(float(query["wait"]), float(settings.FIBSERVER["MAX_WAIT_SECONDS"]))
    return int(query["after"]), wait, query.get("seat")


def whole_number(name: str, value: int | None) -> int | None:
    """A whole-number argument (GraphQL's ``seat`` and ``after``) by the query parameter's
    rule, so both faces refuse the same values with the same message."""
    if value is None:
        return None
    query = EventsQuery if name == "after" else SeatQuery
    number: int = validate(query, {name: str(value)})[name]
    return number
