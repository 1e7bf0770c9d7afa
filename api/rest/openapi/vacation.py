"""Response shapes of a player's vacation (docs/notifications.md)."""

from __future__ import annotations

from .builders import BOOL, DATETIME, NAT, define, integer, nullable, obj

VACATION = define(
    "VacationOut",
    obj(
        {
            "started_at": DATETIME,
            "ends_at": DATETIME,
            "days": integer(1, description="The days asked for."),
            "ended_at": nullable(DATETIME),
        },
        description="A vacation: while it runs, your deadlines in async matches wait.",
    ),
)
define(
    "VacationStatusOut",
    obj(
        {
            "on_vacation": BOOL,
            "vacation": nullable(VACATION),
            "days_per_year": NAT,
            "days_used": NAT,
            "days_left": NAT,
        },
        description="Your vacation, if one runs (or the one just ended), and this year's "
        "days (UTC, by the year a vacation starts): a vacation counts the days asked for, "
        "or the days begun if ended early.",
    ),
)
