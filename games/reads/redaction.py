"""Where stored rows become what one seat may see: whose eyes a caller looks through, and each
log row as that seat may see it.

The engine decides what is hidden (``Rules.view(state, seat)`` and
:func:`games.engine.core.redact_event`, the one redaction rule for events); everything the
readers send out passes through here or through the engine's view, never around them.
"""

from __future__ import annotations

from typing import Any, Protocol

from kernel.errors import Forbidden

from ..engine import registry
from ..engine.core import redact_event
from ..models import Match

NOT_YOUR_SEAT = "That seat is not yours."


class EventRow(Protocol):
    """What a view reads of a log row: an :class:`~games.models.Event`, or a row a move has
    just stored (:class:`games.reads.store.Recent`)."""

    seq: int
    version: int
    type: str
    public: Any
    private: Any
    by_bot: bool


def event_for(event: EventRow, seat: int | None) -> dict[str, Any]:
    """One log row as ``seat`` may see it (the engine's one redaction rule), with its sequence
    number and version: a seat that may not see a part still gets the number, so no gaps."""
    out: dict[str, Any] = {
        "seq": event.seq,
        "version": event.version,
        **redact_event(event.type, event.public, event.private, seat),
    }
    if event.by_bot:
        out["by_bot"] = True
    return out


def seat_shown(match: Match, mine: list[int], requested: int | None, state: Any) -> int | None:
    """Whose eyes the caller looks through: the ``requested`` seat if it is one of ``mine``
    (else 403); else the caller's seat that must act now (two_tribes), else their first;
    ``None`` for a spectator."""
    if requested is not None:
        if requested not in mine:
            raise Forbidden(NOT_YOUR_SEAT)
        return requested
    if not mine:
        return None
    if state is not None and match.status == Match.Status.ACTIVE:
        to_act = set(registry.get(match.game).to_act(state))
        for position in mine:
            if position in to_act:
                return position
    return mine[0]
