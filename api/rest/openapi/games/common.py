"""What every game's components share: seats, places, the game ids and the action types."""

from __future__ import annotations

from api.play import actions
from api.play.matches import GAME_COMPONENT
from api.play.queries import MAX_SEATS, SEAT_MAX
from games.engine import registry

from ..builders import (
    arr,
    define,
    enum,
    integer,
)

NAMES = GAME_COMPONENT  # game id -> component stem ("fibbers_dice" -> "FibbersDice")
GAME_IDS = registry.game_ids()

SEAT = define("Seat", integer(0, SEAT_MAX, "A seat position: 0 is the first seat, clockwise."))
SEATS = arr(SEAT)
PLACE = integer(1, MAX_SEATS)
PLACEMENTS = arr(PLACE, description="1-based place of every seat; ties share a place.")

GAME = enum("Game", GAME_IDS, "A game id.")
for game in GAME_IDS:
    enum(f"{NAMES[game]}Game", [game])
for action_type in actions.ACTION_TYPES:
    enum(f"{actions.type_component(action_type)}Type", [action_type])
