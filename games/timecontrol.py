"""Time controls: how long a seat has for each decision (README.md, "Deadlines and bots")."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class TimeControl:
    name: str
    default_seconds: int
    min_seconds: int
    max_seconds: int
    humans_have_deadlines: bool = True


TIME_CONTROLS = {
    "live": TimeControl("live", 75, 10, 600),
    "async": TimeControl("async", 24 * 3600, 3600, 14 * 24 * 3600),  # 1 h to 14 days
    # One human against bots: the human has no deadline; bots act promptly.
    "solo": TimeControl("solo", 0, 0, 0, humans_have_deadlines=False),
}


def seconds_per_decision(
    time_control: str, requested: int | None, min_seconds: int | None = None
) -> int:
    """Seconds per decision for ``time_control``; ``ValueError`` with a reason if out of bounds.

    ``min_seconds`` overrides the lower bound (settings ``LIVE_MIN_SECONDS``, for tests)."""
    if time_control not in TIME_CONTROLS:
        raise ValueError(f"time_control must be one of: {', '.join(TIME_CONTROLS)}.")
    control = TIME_CONTROLS[time_control]
    if requested is None or not control.humans_have_deadlines:
        return control.default_seconds
    lowest = control.min_seconds if min_seconds is None else min_seconds
    if type(requested) is not int or not lowest <= requested <= control.max_seconds:
        raise ValueError(
            f"decision_seconds for {time_control} must be between {lowest}"
            f" and {control.max_seconds}."
        )
    return requested
