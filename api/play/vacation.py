"""The request of a vacation, declared once for both faces (docs/notifications.md)."""

from __future__ import annotations

from .fields import StrictInput, StrictIntegerField

#: The most days one vacation may be asked for (the yearly allowance caps it further).
DAYS_MAX = 366


class VacationIn(StrictInput):
    """Start a vacation now: your async clocks wait for ``days`` days."""

    days = StrictIntegerField(
        min_value=1,
        max_value=DAYS_MAX,
        help_text="Days, from now; at most the days left of this year's allowance.",
    )
