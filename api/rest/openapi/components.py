"""The response shapes of the match API as named components (see :mod:`.builders` for the
conventions): a match and its seats, lists, events, the inbox, replays, statistics and errors.

The per-game parts come from :mod:`.games`, a finished match's record from :mod:`.records` and
the error shapes from :mod:`.errors`; ``COMPONENTS`` holds all of them once this module is
imported.
"""

from __future__ import annotations

from api.play.matches import ALL_BOT_LEVELS
from api.play.queries import MAX_SEATS
from games.models import Match
from games.timecontrol import TIME_CONTROLS

from . import games as g
from .builders import (
    BOOL,
    COMPONENTS,
    DATETIME,
    HEX64,
    NAT,
    UUID,
    Schema,
    arr,
    boolean,
    define,
    described,
    enum,
    integer,
    nullable,
    obj,
    ref,
    string,
)

__all__ = ["COMPONENTS"]

MATCH_STATUS = enum("MatchStatus", Match.Status.values)
VISIBILITY = enum("Visibility", Match.Visibility.values)
TIME_CONTROL = enum("TimeControl", list(TIME_CONTROLS))
BOT_LEVEL = enum("BotLevel", ALL_BOT_LEVELS)

# --- A match ---------------------------------------------------------------------------------

SEAT_OUT = define(
    "SeatOut",
    obj(
        {
            "position": g.SEAT,
            "user": nullable(
                define(
                    "PlayerOut",
                    obj(
                        {"id": integer(1), "name": string("The name other players see.")},
                        description="The person in a seat.",
                    ),
                )
            ),
            "bot_level": nullable(described(BOT_LEVEL, "Set for a bot seat.")),
            "must_act": BOOL,
            "deadline": nullable(described(DATETIME, "When this seat's decision is due.")),
            "away": boolean("A bot plays for the seat until its player acts again."),
            "vacation_until": nullable(
                described(
                    DATETIME,
                    "Async matches: the seat's player is on vacation (their clock waits) until "
                    "then, if it is still to come.",
                )
            ),
            "place": nullable(integer(1, MAX_SEATS)),
        },
        description="A seat at the table.",
    ),
)
EVENT_OUT = define(
    "EventOut",
    obj(
        {
            "seq": integer(1, description="Sequence number: 1, 2, … with no gaps."),
            "version": NAT,
            "type": string("What happened (each game's events: docs/rules/)."),
        },
        {
            "private": obj(open=True, description="Your own part of the event, if any."),
            "by_bot": boolean(
                "A bot took this decision for a human seat (after a deadline, or while the "
                "player is marked away); a bot seat's own decisions are not marked."
            ),
        },
        open=True,
        description="An event as the caller may see it: its public fields sit next to `seq`, "
        "`version` and `type`.",
    ),
)
YOU = define(
    "YouOut",
    obj(
        {
            "seat": described(g.SEAT, "The seat you look through (see `?seat=`)."),
            "seats": g.SEATS,
        },
        description="Your seats in this match (two in Skull's two_tribes).",
    ),
)
MATCH_OUT = define(
    "MatchOut",
    obj(
        {
            "id": UUID,
            "game": g.GAME,
            "status": MATCH_STATUS,
            "version": described(NAT, "Grows by one with every applied action."),
            "visibility": VISIBILITY,
            "options": ref("MatchOptions"),
            "seat_count": integer(1, MAX_SEATS),
            "time_control": TIME_CONTROL,
            "decision_seconds": NAT,
            "rated": boolean(
                "Whether the match changes ratings (docs/ratings.md): false for a match asked "
                "unrated, solo, or one player and bots."
            ),
            "created_by": nullable(integer(1)),
            "invite_code": nullable(string("Shown to the match's players.")),
            "seed_commitment": nullable(
                described(HEX64, "SHA-256 of the secret seed, revealed by the replay.")
            ),
            "seats": arr(SEAT_OUT),
            "you": nullable(YOU),
            "to_act": g.SEATS,
            "deadline": nullable(DATETIME),
            "legal_actions": arr(g.LEGAL_ACTION, description="What you may do now."),
            "view": nullable(g.GAME_VIEW),
            "placements": nullable(g.PLACEMENTS),
            "end_reason": nullable(g.MATCH_END_REASON),
            "last_seq": NAT,
            "events": arr(EVENT_OUT, description="The most recent events."),
        },
        description="Your view of a match (the spectator view if you have no seat).",
    ),
)

# --- Lists -----------------------------------------------------------------------------------


def page(name: str, item: Schema, what: str) -> Schema:
    return define(
        name,
        obj(
            {
                "count": NAT,
                "next": nullable(string(format="uri")),
                "previous": nullable(string(format="uri")),
                "results": arr(item),
            },
            description=f"A page of {what} (`?limit=` up to 200, `?offset=`).",
        ),
    )


MATCH_SUMMARY_OUT = define(
    "MatchSummaryOut",
    obj(
        {
            "id": UUID,
            "game": g.GAME,
            "status": MATCH_STATUS,
            "visibility": VISIBILITY,
            "options": ref("MatchOptions"),
            "seat_count": integer(1, MAX_SEATS),
            "filled": NAT,
            "bots": NAT,
            "time_control": TIME_CONTROL,
            "rated": boolean("Whether the match changes ratings."),
            "created_at": DATETIME,
            "version": NAT,
        },
        description="A match in a list: public facts only.",
    ),
)
MATCH_SUMMARY_PAGE = page("MatchSummaryPageOut", MATCH_SUMMARY_OUT, "matches")
TURN_OUT = define(
    "TurnOut",
    obj(
        {
            "match": UUID,
            "game": g.GAME,
            "seat": g.SEAT,
            "deadline": nullable(DATETIME),
            "version": NAT,
        },
        description="A seat of yours that must act.",
    ),
)
TURN_PAGE = page("TurnPageOut", TURN_OUT, "your turns, soonest deadline first")
EVENTS_OUT = define(
    "EventsOut",
    obj(
        {
            "events": arr(EVENT_OUT),
            "last_seq": NAT,
            "more": boolean("The page was cut short: ask again after the last `seq`."),
            "version": NAT,
            "status": MATCH_STATUS,
        },
        description="Your events after `after`, in order.",
    ),
)
