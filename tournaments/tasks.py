"""Celery tasks of the tournaments: thin and idempotent; queued by name (:mod:`kernel.tasks`).
The tasks' names before the tournaments were an app of their own are in
:mod:`tournaments.legacy`."""

from __future__ import annotations

from celery import shared_task

from . import housekeeping, services


@shared_task(acks_late=True, ignore_result=True, name="tournaments.tasks.round_ended")
def round_ended(match_id: str) -> bool:
    """A round of a tournament ended: its result, then the next round or the prizes (once)."""
    return services.tournament_round_ended(match_id=match_id)


@shared_task(acks_late=True, ignore_result=True, expires=5, name="tournaments.tasks.start_due")
def start_due() -> int:
    """Beat, every ``SWEEP_SECONDS``: the tournaments whose announced start time has come."""
    return housekeeping.tournaments_start_due()
