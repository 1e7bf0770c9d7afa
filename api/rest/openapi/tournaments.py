"""Response shapes of the tournaments API (docs/tournaments.md)."""

from __future__ import annotations

from games.engine.fibbers_dice.tournament import FORMATS
from tournaments.models import Tournament

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

TOURNAMENT_STATUS = enum("TournamentStatus", Tournament.Status.values)
TOURNAMENT_FORMAT = enum("TournamentFormat", list(FORMATS))
TOURNAMENT_TIME_CONTROL = enum("TournamentTimeControl", ["live", "async"])
PLAYER_ID = integer(1, None, "A player's id.")
PLAYER = ref("PlayerOut")
_summary = {
    "id": UUID,
    "name": string("The tournament's name."),
    "game": enum("TournamentGame", ["fibbers_dice"]),
    "host": PLAYER,
    "status": TOURNAMENT_STATUS,
    "visibility": VISIBILITY,
    "starts_at": nullable(DATETIME),
    "format": TOURNAMENT_FORMAT,
    "single_round": nullable(
        {"type": "boolean", "description": "Decided at the start: 7 or fewer play one round."}
    ),
    "entrants": NAT,
    "created_at": DATETIME,
}
TOURNAMENT_SUMMARY = define(
    "TournamentSummaryOut", obj(_summary, description="A tournament in a list: public facts only.")
)
TOURNAMENT_PAGE = page("TournamentSummaryPageOut", TOURNAMENT_SUMMARY, "tournaments")
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
    "TournamentRoundOut",
    obj(
        {
            "number": integer(1),
            "final": BOOL,
            "status": enum("TournamentRoundStatus", ["running", "over", "skipped"]),
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
TOURNAMENT_OUT = define(
    "TournamentDetailOut",
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
        description="A tournament with its standings, rounds and prizes.",
    ),
)
MY_MATCH = define(
    "TournamentMyMatchOut",
    obj(
        {
            "registered": BOOL,
            "round": nullable(integer(1)),
            "match": nullable(UUID),
            "seat": nullable(integer(0)),
            "reason": enum(
                "TournamentMyMatchReason",
                ["playing", "not_registered", "finished", "not_started", "qualified", "waiting"],
            ),
        },
        description="Your match in the tournament now, or why there is none.",
    ),
)
