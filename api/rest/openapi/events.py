"""Response shapes of the events API (docs/events.md)."""

from __future__ import annotations

from games.engine.fibbers_dice.events import FORMATS
from games.models import Tournament

from .builders import (
    BOOL,
    DATETIME,
    HEX64,
    NAT,
    UUID,
    arr,
    define,
    enum,
    integer,
    nullable,
    obj,
    ref,
    string,
)
from .components import TIME_CONTROL, VISIBILITY, page

EVENT_STATUS = enum("EventStatus", Tournament.Status.values)
EVENT_FORMAT = enum("EventFormat", list(FORMATS))
EVENT_TIME_CONTROL = enum("EventTimeControl", ["live", "async"])
PLAYER_ID = integer(1, None, "A player's id.")
PLAYER = ref("PlayerOut")
_summary = {
    "id": UUID,
    "name": string("The event's name."),
    "game": enum("EventGame", ["fibbers_dice"]),
    "host": PLAYER,
    "status": EVENT_STATUS,
    "visibility": VISIBILITY,
    "starts_at": nullable(DATETIME),
    "format": EVENT_FORMAT,
    "single_round": nullable(
        {"type": "boolean", "description": "Decided at the start: 7 or fewer play one round."}
    ),
    "entrants": NAT,
    "created_at": DATETIME,
}
EVENT_SUMMARY = define(
    "EventSummaryOut", obj(_summary, description="An event in a list: public facts only.")
)
EVENT_PAGE = page("EventSummaryPageOut", EVENT_SUMMARY, "events")
RAFFLE = define(
    "RaffleOut",
    obj(
        {
            "door_prizes": NAT,
            "commitment": HEX64,
            "drawn": BOOL,
            "seed": nullable(HEX64),
            "entrants": nullable(arr(PLAYER_ID)),
            "winners": nullable(arr(PLAYER_ID)),
            "algorithm": string("Where the draw is described, to recompute it."),
        },
        description="The door-prize draw: `commitment` (SHA-256 of the seed) from the start; "
        "the seed, the sorted entrant ids and the winners (prize 1 first) once drawn.",
    ),
)
ROUND = define(
    "EventRoundOut",
    obj(
        {
            "number": integer(1),
            "final": BOOL,
            "status": enum("EventRoundStatus", ["running", "over", "skipped"]),
            "match": nullable(UUID),
            "players": arr(PLAYER_ID),
            "placements": nullable(
                arr(obj({"player": PLAYER_ID, "place": integer(1)}), description="By place.")
            ),
            "qualified": arr(PLAYER_ID),
        },
        description="A round: an ordinary match (none when skipped).",
    ),
)
EVENT_OUT = define(
    "EventDetailOut",
    obj(
        {
            **_summary,
            "time_control": TIME_CONTROL,
            "decision_seconds": nullable(integer(1)),
            "points": nullable(integer(1)),
            "auto_advance": BOOL,
            "started_at": nullable(DATETIME),
            "finished_at": nullable(DATETIME),
            "version": NAT,
            "registration_open": BOOL,
            "registered": BOOL,
            "standings": arr(
                obj(
                    {
                        "player": PLAYER,
                        "late": BOOL,
                        "qualified_in_round": nullable(integer(1)),
                        "final_place": nullable(integer(1)),
                    }
                ),
                description="Every entrant in registration order.",
            ),
            "rounds": arr(ROUND),
            "prize_picks": nullable(arr(PLAYER_ID, description="First pick first.")),
            "raffle": RAFFLE,
        },
        description="An event with its standings, rounds and prizes.",
    ),
)
MY_MATCH = define(
    "EventMyMatchOut",
    obj(
        {
            "registered": BOOL,
            "round": nullable(integer(1)),
            "match": nullable(UUID),
            "seat": nullable(integer(0)),
            "reason": enum(
                "EventMyMatchReason",
                ["playing", "not_registered", "finished", "not_started", "qualified", "waiting"],
            ),
        },
        description="Your match in the event now, or why there is none.",
    ),
)
