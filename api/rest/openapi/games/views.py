"""A view of every game (its options, public and private parts) and the bluff statistics."""

from __future__ import annotations

from typing import Any

from api.play.queries import MAX_SEATS
from games.engine import registry
from games.engine.fabfib import rules as fabfib
from games.engine.fibber import state as fibber
from games.engine.fibbers_dice import rules as dice
from games.engine.skull import rules as skull

from ..builders import (
    BOOL,
    NAT,
    Schema,
    define,
    described,
    integer,
    nullable,
    obj,
    one_of,
    ref,
)
from .common import ENDINGS, GAME_IDS, NAMES, PLACEMENTS, SEAT, SEATS
from .fabfib import FABFIB_PRIVATE, FABFIB_PUBLIC
from .fibber import FIBBER_PRIVATE, FIBBER_PUBLIC
from .fibbers_dice import DICE_PRIVATE, DICE_PUBLIC
from .options import OPTIONS
from .skull import SKULL_PRIVATE, SKULL_PUBLIC

# --- Views -----------------------------------------------------------------------------------

PUBLIC = {
    "fabfib": FABFIB_PUBLIC,
    "fibber": FIBBER_PUBLIC,
    "fibbers_dice": DICE_PUBLIC,
    "skull": SKULL_PUBLIC,
}
PRIVATE = {
    "fabfib": FABFIB_PRIVATE,
    "fibber": FIBBER_PRIVATE,
    "fibbers_dice": DICE_PRIVATE,
    "skull": SKULL_PRIVATE,
}
VIEWS = {
    game: define(
        f"{NAMES[game]}View",
        obj(
            {
                "game": ref(f"{NAMES[game]}Game"),
                "seats": integer(1, MAX_SEATS),
                "options": OPTIONS[game],
                "seat": nullable(described(SEAT, "Whose eyes this is (null: a spectator).")),
                "to_act": SEATS,
                "over": BOOL,
                "public": PUBLIC[game],
                "private": nullable(described(PRIVATE[game], "Null for a spectator.")),
            },
            {"placements": PLACEMENTS, "end_reason": ENDINGS[game]},
            description=f"A {registry.get(game).name} view: what the caller may know.",
        ),
    )
    for game in GAME_IDS
}
GAME_VIEW = define(
    "GameView",
    {
        **one_of({game: VIEWS[game] for game in GAME_IDS}, "game"),
        "description": "The engine's view of the match for the caller (its `legal_actions` are "
        "the match's). `placements` and `end_reason` once it is over.",
    },
)

# --- Statistics ------------------------------------------------------------------------------

STAT_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # game -> (keys every match has, keys only some variants have)
    "fabfib": (fabfib.STAT_KEYS, ()),
    "fibber": (fibber.EASY_STAT_KEYS, tuple(set(fibber.STAT_KEYS) - set(fibber.EASY_STAT_KEYS))),
    "fibbers_dice": (dice.STAT_KEYS, ()),
    "skull": (skull.STAT_KEYS, ()),
}
STATS = {
    game: define(
        f"{NAMES[game]}Stats",
        obj(
            {key: NAT for key in keys},
            {key: NAT for key in sorted(extra)},
            description=f"{registry.get(game).name} bluff statistics of one seat.",
        ),
    )
    for game, (keys, extra) in STAT_KEYS.items()
}
BOT_STATS = {
    game: define(
        f"{NAMES[game]}BotStats",
        obj(
            None,
            {key: NAT for key in (*keys, *sorted(extra))},
            description="What bots did for this seat after its deadlines passed (only the "
            "counts that grew).",
        ),
    )
    for game, (keys, extra) in STAT_KEYS.items()
}


def per_game(stem: str, build: Any) -> dict[str, Schema]:
    """``{game: ref}`` of a component ``<Game><stem>`` built by ``build(game)`` for each game."""
    return {game: define(f"{NAMES[game]}{stem}", build(game)) for game in GAME_IDS}
