"""The requests of quick play (docs/matchmaking.md): a ticket, a block, a challenge."""

from __future__ import annotations

from rest_framework import serializers

from games.engine import registry
from matchmaking.challenges import CHALLENGE_PLAYERS_MAX
from matchmaking.services import BOTS_AFTER_MAX

from .fields import StrictBooleanField, StrictChoiceField, StrictInput, StrictIntegerField
from .matches import ALL_BOT_LEVELS, DecisionSecondsField
from .queries import MAX_SEATS


class TicketCreateIn(StrictInput):
    """Queue for a table."""

    game = StrictChoiceField(registry.game_ids(), component="Game", help_text="The game.")
    seats_min = StrictIntegerField(
        min_value=2, max_value=MAX_SEATS, help_text="The fewest seats you accept at the table."
    )
    seats_max = StrictIntegerField(
        min_value=2,
        max_value=MAX_SEATS,
        required=False,
        default=None,
        allow_null=True,
        help_text="The most seats you accept (absent or null: `seats_min`, an exact count).",
    )
    time_control = StrictChoiceField(
        ["live", "async"],
        component="QueueTimeControl",
        default="live",
        help_text="`live` (75 s per decision) or `async` (24 h).",
    )
    rated = StrictBooleanField(
        default=True,
        help_text="A rated table (default) or an unrated one: you are seated only with "
        "players who asked for the same. A table of you and bots is never rated.",
    )
    bots_after = StrictIntegerField(
        min_value=0,
        max_value=BOTS_AFTER_MAX,
        required=False,
        default=None,
        allow_null=True,
        help_text="Bots may fill the free seats once you have waited this many seconds "
        "(absent or null: never, humans only).",
    )
    bot_level = StrictChoiceField(
        ALL_BOT_LEVELS,
        component="BotLevel",
        required=False,
        default="basic",
        help_text="The level of those bots (default `basic`). A level the game does not have: 422.",
    )


class BlockIn(StrictInput):
    """A player to block or to follow."""

    player = StrictIntegerField(min_value=1, help_text="The player's id.")


class ChallengeCreateIn(StrictInput):
    """Challenge players to a match."""

    players = serializers.ListField(
        child=StrictIntegerField(min_value=1),
        min_length=1,
        max_length=CHALLENGE_PLAYERS_MAX,
        help_text="The ids of the players you challenge, in seat order after yours.",
    )
    game = StrictChoiceField(registry.game_ids(), component="Game", help_text="The game.")
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="The game's options, as in `POST /api/matches/` (docs/rules.md); options the "
        "game does not have or values it does not allow: 422.",
    )
    time_control = StrictChoiceField(
        ["live", "async"],
        component="QueueTimeControl",
        default="live",
        help_text="`live` (75 s per decision) or `async` (24 h).",
    )
    decision_seconds = DecisionSecondsField()
    bots = serializers.ListField(
        child=StrictChoiceField(ALL_BOT_LEVELS, component="BotLevel"),
        required=False,
        default=list,
        max_length=MAX_SEATS,
        help_text="A bot level for each bot seat, after the players'.",
    )
    rated = StrictBooleanField(
        default=True, help_text="Whether the match changes ratings (default true)."
    )
