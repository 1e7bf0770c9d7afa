"""The requests of Fibber's Dice tournaments (docs/tournaments.md): a new tournament, strict as
a new match."""

from __future__ import annotations

from rest_framework import serializers

from games.engine.fibbers_dice.rules import MAX_POINTS, MIN_POINTS
from games.engine.fibbers_dice.tournament import FORMATS
from games.models import Match
from tournaments.services import MAX_DOOR_PRIZES

from .fields import (
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
)
from .matches import DecisionSecondsField


class StrictDateTimeField(serializers.DateTimeField):
    """An ISO 8601 date and time, as a JSON string only."""

    def to_internal_value(self, value):  # type: ignore[no-untyped-def]
        if not isinstance(value, str):
            self.fail("invalid", format="an ISO 8601 string")
        return super().to_internal_value(value)


class TournamentCreateIn(StrictInput):
    """Create a Fibber's Dice tournament."""

    name = StrictCharField(max_length=100, help_text="The tournament's name.")
    visibility = StrictChoiceField(
        Match.Visibility.values,
        component="Visibility",
        default="public",
        help_text="`private`: not listed; seen by the host and the entrants, and joined by id.",
    )
    starts_at = StrictDateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="When the tournament starts by itself (at the first sweep after it, once 2 "
        "players are registered; the host may start it earlier); null or absent: "
        '"start when I say".',
    )
    time_control = StrictChoiceField(
        [Match.TimeControl.LIVE, Match.TimeControl.ASYNC],
        component="TournamentTimeControl",
        default="live",
        help_text="The rounds' time control: `live` (75 s per decision) or `async` (24 h).",
    )
    decision_seconds = DecisionSecondsField()
    points = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=MIN_POINTS,
        max_value=MAX_POINTS,
        help_text="The host's starting points for every round (default: 3 up to 5 players, 2 "
        "for 6–7 in a single round; 1 in every round of several).",
    )
    format = StrictChoiceField(
        list(FORMATS),
        component="TournamentFormat",
        default="standard",
        help_text="`standard`: 4 qualifying rounds and a final; `short`: 3 and a final.",
    )
    auto_advance = StrictBooleanField(
        default=False, help_text="Start the next round as soon as one ends."
    )
    door_prizes = StrictIntegerField(
        default=0, min_value=0, max_value=MAX_DOOR_PRIZES, help_text="Door prizes to raffle."
    )
