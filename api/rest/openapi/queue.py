"""Response shapes of the quick-play queue and of blocks (docs/matchmaking.md)."""

from __future__ import annotations

from matchmaking.models import Ticket
from matchmaking.reads import TICKET as TICKET_SHAPE

from .builders import (
    DATETIME,
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
)
from .games.common import GAME
from .shapes import component


def number(lo: float, description: str) -> Schema:
    return {"type": "number", "minimum": lo, "description": description}


QUEUE_TIME_CONTROL = enum("QueueTimeControl", ["live", "async"])
TICKET_STATUS = enum(
    "TicketStatus",
    Ticket.Status.values,
    "`waiting` in the queue; `matched`: seated at `match`; `cancelled`; `expired` (unmatched "
    "for 15 minutes live, 24 hours async).",
)
TICKET = component(
    TICKET_SHAPE,
    {"Game": GAME, "TicketStatus": TICKET_STATUS, "QueueTimeControl": QUEUE_TIME_CONTROL},
)
TICKET_LIST = define(
    "TicketListOut",
    obj(
        {"tickets": arr(TICKET)},
        description="Your waiting ticket and those that ended in the last 10 minutes, newest "
        "first.",
    ),
)
BLOCK_LIST = define(
    "BlockListOut",
    obj(
        {"players": arr(integer(1, None, "A player's id."))},
        description="The players you block, by id.",
    ),
)

PLAYER_IDS = arr(integer(1, None, "A player's id."))
REMATCH = define(
    "RematchOut",
    obj(
        {
            "status": enum(
                "RematchStatus",
                ["none", "open", "started", "declined", "expired"],
                "`none`: nobody offered one yet; `open`: waiting for `waiting_for`; "
                "`started`: the new `match` is running; `declined` or `expired`: over.",
            ),
            "accepted": PLAYER_IDS,
            "waiting_for": PLAYER_IDS,
            "match": nullable(UUID),
            "declined_by": nullable(integer(1, None, "Who declined.")),
            "expires_at": nullable(DATETIME),
        },
        description="The rematch of a finished match: the same seats (bots at their levels) "
        "and options, started when every human of the table has accepted.",
    ),
)

CHALLENGE = define(
    "ChallengeOut",
    obj(
        {
            "id": integer(1, None, "The challenge id."),
            "challenger": integer(1, None, "Who challenged (seat 0)."),
            "players": PLAYER_IDS,
            "accepted": PLAYER_IDS,
            "game": GAME,
            "options": {"type": "object", "description": "The game's options, normalized."},
            "time_control": enum("QueueTimeControl", ["live", "async"]),
            "decision_seconds": nullable(integer(1)),
            "bots": arr({"type": "string", "description": "A bot level."}),
            "rated": boolean("Whether the match it starts changes ratings."),
            "status": enum(
                "ChallengeStatus",
                ["open", "started", "declined", "expired"],
                "`open` until every challenged player accepted (`started`: the private "
                "`match` is running), one declined or the challenger withdrew, or it expired "
                "(15 minutes live, 7 days async).",
            ),
            "declined_by": nullable(integer(1)),
            "match": nullable(UUID),
            "created_at": DATETIME,
            "expires_at": DATETIME,
        },
        description="A challenge you made or received.",
    ),
)
CHALLENGE_LIST = define(
    "ChallengeListOut",
    obj(
        {"challenges": arr(CHALLENGE)},
        description="Challenges you made or received: open ones and those of the last day, "
        "newest first.",
    ),
)

FOLLOW_LIST = define(
    "FollowListOut",
    obj(
        {
            "follows": arr(
                obj(
                    {
                        "player": ref("PlayerOut"),
                        "looking_for": nullable(
                            described(GAME, "The game they are queueing for (null: not queueing).")
                        ),
                        "matches": arr(
                            UUID,
                            description="Their open or running public matches "
                            "(at most 20, newest first).",
                        ),
                    }
                )
            )
        },
        description="The players you follow.",
    ),
)

__all__ = ["BLOCK_LIST", "CHALLENGE_LIST", "FOLLOW_LIST", "REMATCH", "TICKET_LIST"]
