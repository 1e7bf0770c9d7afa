"""A player's vacation as they see it: the one running, and the days of this year's allowance
(:mod:`games.services.vacation`)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User

from ..models import Vacation

DAY = timedelta(days=1)


def days_per_year() -> int:
    return int(getattr(settings, "NOTIFICATIONS", {}).get("VACATION_DAYS_PER_YEAR", 30))


def days_counted(vacation: Vacation) -> int:
    """The days a vacation takes from its year's allowance."""
    if vacation.ended_at is None or vacation.ended_at >= vacation.ends_at:
        return vacation.days
    return max(1, math.ceil((vacation.ended_at - vacation.started_at) / DAY))


def days_used(user: User, now: datetime) -> int:
    """Days of ``now``'s year (UTC) already taken or planned."""
    rows = Vacation.objects.filter(user=user, started_at__year=now.year)
    return sum(days_counted(v) for v in rows)


def current(user: User, now: datetime) -> Vacation | None:
    """The vacation running at ``now``, if any."""
    return (
        Vacation.objects.filter(user=user, ended_at__isnull=True, ends_at__gt=now)
        .order_by("-started_at")
        .first()
    )


def render_vacation(vacation: Vacation | None) -> dict[str, Any] | None:
    if vacation is None:
        return None
    return {
        "started_at": vacation.started_at.isoformat(),
        "ends_at": vacation.ends_at.isoformat(),
        "days": vacation.days,
        "ended_at": vacation.ended_at.isoformat() if vacation.ended_at else None,
    }


def vacation_status(user: User, last: Vacation | None = None) -> dict[str, Any]:
    """The running vacation (or ``last``, just ended) and the year's days: allowed, counted so
    far, left."""
    now = timezone.now()
    running = current(user, now)
    used = days_used(user, now)
    allowance = days_per_year()
    return {
        "on_vacation": running is not None,
        "vacation": render_vacation(running or last),
        "days_per_year": allowance,
        "days_used": used,
        "days_left": max(allowance - used, 0),
    }
