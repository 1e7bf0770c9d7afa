"""What happens to a match, announced for the apps above ``games`` (:mod:`kernel.signals`).

``games`` names none of its listeners: ``notifications`` connects its outbox to these in its
``AppConfig.ready()``. Every signal is sent inside the transaction of its cause, so a
listener's rows commit (or roll back) with it; :data:`step_committed` hands the listener the
step's sink, so rows given to it ride in the step's one statement.

There is no separate "deadline near" signal: a deadline is set by a step, and the step's
listeners write what must happen before it (the notifications' reminder, stored with the
time it is due) into the step's own statement; no timer fires for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel.signals import Signal

if TYPE_CHECKING:
    from .models import Match, Seat
    from .services.sink import Sink

#: A step was computed and its writes given to ``sink`` (stored with them, or not at all):
#: the match at its new version, its seats with their new decisions and deadlines, the
#: positions that had a decision pending before the step, the seat that acted (``None``: the
#: deal), and the sink.
step_committed: Signal[[Match, list[Seat], set[int], int | None, Sink]] = Signal("step_committed")

#: A match started: the match (at its first version) and its seats.
match_started: Signal[[Match, list[Seat]]] = Signal("match_started")

#: A match ended (finished or aborted: ``match.status``, ``match.end_reason`` and
#: ``match.placements`` say how), with the ``(user id, position)`` of every person seated.
match_ended: Signal[[Match, list[tuple[int, int]]]] = Signal("match_ended")

#: A bot took the decision of a player's seat (deadline passed, or the player is away), at the
#: match's current version.
decision_taken_by_bot: Signal[[Match, Seat]] = Signal("decision_taken_by_bot")
