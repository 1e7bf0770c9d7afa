"""A player's vacation in GraphQL (docs/notifications.md): the same reader, services and
request declaration as REST (:mod:`api.play.vacation`). ``VacationQuery`` and
``VacationMutation`` are parts of the schema's root types (:mod:`.schema`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry
from strawberry.types import Info

from api.play.fields import validate
from api.play.vacation import VacationIn
from games.reads.vacation import vacation_status
from games.services.vacation import vacation_end, vacation_start

from .context import require_user
from .types import _when


@strawberry.type(description="A vacation: while it runs, your deadlines in async matches wait.")
class Vacation:
    started_at: datetime
    ends_at: datetime
    days: int
    ended_at: datetime | None


@strawberry.type(
    description="Your vacation, if one runs (or the one just ended), and this year's days "
    "(REST `VacationStatusOut`)."
)
class VacationStatus:
    on_vacation: bool
    vacation: Vacation | None
    days_per_year: int
    days_used: int
    days_left: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> VacationStatus:
        v = d["vacation"]
        return cls(
            on_vacation=d["on_vacation"],
            vacation=None
            if v is None
            else Vacation(
                started_at=datetime.fromisoformat(v["started_at"]),
                ends_at=datetime.fromisoformat(v["ends_at"]),
                days=v["days"],
                ended_at=_when(v["ended_at"]),
            ),
            days_per_year=d["days_per_year"],
            days_used=d["days_used"],
            days_left=d["days_left"],
        )


@strawberry.type
class VacationQuery:
    @strawberry.field(description="Your vacation and this year's vacation days.")
    def vacation(self, info: Info) -> VacationStatus | None:
        return VacationStatus.of(vacation_status(require_user(info)))


@strawberry.type
class VacationMutation:
    @strawberry.mutation(
        description="Go on vacation for `days` days from now: your async clocks wait (REST "
        "`POST /api/me/vacation/`)."
    )
    def start_vacation(self, info: Info, days: int) -> VacationStatus | None:
        user = require_user(info)
        data = validate(VacationIn, {"days": days})
        vacation_start(user=user, days=data["days"])
        return VacationStatus.of(vacation_status(user))

    @strawberry.mutation(description="End your vacation now.")
    def end_vacation(self, info: Info) -> VacationStatus | None:
        user = require_user(info)
        ended = vacation_end(user=user)
        return VacationStatus.of(vacation_status(user, last=ended))
