"""The append-only event log: one INSERT per step, and a wake-up for followers on commit."""

from __future__ import annotations

import uuid
from datetime import datetime

from ..engine.core import Action, Step
from ..engine.core import Event as EngineEvent
from ..models import Event, Match
from .sink import ORM, Sink


def append_events(
    match: Match,
    step: Step,
    *,
    actor: int | None,
    action: Action | None,
    by_bot: bool,
    deadline: datetime | None = None,
    sink: Sink = ORM,
) -> None:
    """One INSERT for all events of a step; the first row also keeps the action and chance
    (a step the engine reported nothing for still gets one row, so no action is ever lost)."""
    events = step.events or [EngineEvent("action", {"seat": actor})]
    rows = []
    for index, event in enumerate(events):
        data = event.to_json()
        match.last_seq += 1
        first = index == 0
        rows.append(
            Event(
                match=match,
                seq=match.last_seq,
                version=match.version,
                type=data["type"],
                public=data["public"],
                private=data["private"],
                actor=actor,
                action=action if first else None,
                chance=step.chance if first else None,
                by_bot=by_bot,
                deadline=deadline if first else None,
            )
        )
    sink.events(rows)
    version, match_pk = match.version, match.pk
    sink.on_commit(lambda: _publish(match_pk, version))


def _publish(match_id: uuid.UUID, version: int) -> None:
    from kernel.wake import publish

    publish(match_id, version)
