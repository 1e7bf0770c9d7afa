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
#: Why a finished match of each game ended (the engine's vocabulary, docs/rules.md).
ENDINGS = {
    game: enum(
        f"{NAMES[game]}Ending",
        registry.get(game).end_reasons,
        f"Why a {registry.get(game).name} match ended (docs/rules.md).",
    )
    for game in GAME_IDS
}
#: A match's end reason: a game's own once it finished, the server's when it was aborted
#: (``completed``: finished before matches recorded the game's reason).
MATCH_END_REASON = enum(
    "EndReason",
    [
        *dict.fromkeys(r for game in GAME_IDS for r in registry.get(game).end_reasons),
        "abandoned",
        "aborted_by_staff",
        "completed",
    ],
    "Why the match ended: the game's own reason when it finished (`silver_nose`, "
    "`last_alive` …, docs/rules.md), `abandoned` (a lobby left empty) or `aborted_by_staff` "
    "when it was aborted; `completed` for a match that finished before this was recorded.",
)

GAME = enum("Game", GAME_IDS, "A game id.")
for game in GAME_IDS:
    enum(f"{NAMES[game]}Game", [game])
for action_type in actions.ACTION_TYPES:
    enum(f"{actions.type_component(action_type)}Type", [action_type])
