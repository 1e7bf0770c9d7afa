"""Celery tasks: thin, idempotent, version-checked; they fetch by id and call a service.

The services queue them by name through ``games.services.schedule`` (never importing this
module), so the dependency runs one way: tasks -> services. Where they run:

- with Redis, on Celery workers (``acks_late``: a lost worker's task is delivered again), and
  Celery beat runs :func:`sweep` every second and :func:`purge` every few minutes (the one
  table of periodic jobs: ``fibserver.periodic``);
- in the embedded default (no Redis), on the runner thread of the server process
  (``fibserver.runner``), which calls these same functions;
- in tests (``FIBSERVER["TASKS"] = "inline"``), right after the commit that queued them.

Either way deadlines live in the database, so nothing a crashed process held is lost.
"""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(acks_late=True, ignore_result=True)
def run_bot_turn(match_id: str, version: int) -> bool:
    """One bot decision, if the match is still at ``version`` (a stale task does nothing)."""
    return services.bot_act(match_id=match_id, expected_version=version)


@shared_task(acks_late=True, ignore_result=True)
def enforce_deadline(match_id: str, version: int) -> int:
    """The precise timer of a deadline: takes the overdue decisions if nothing moved since."""
    return services.deadline_expire(match_id=match_id, expected_version=version)


@shared_task(acks_late=True, ignore_result=True)
def record_results(match_id: str) -> bool:
    """The end-of-match work of a finished match (applied once, whatever the retries)."""
    return services.match_record_results(match_id=match_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep() -> int:
    """Beat, every second: whatever a lost timer or a crashed worker left behind."""
    return services.deadlines_sweep()


@shared_task(acks_late=True, ignore_result=True)
def purge() -> int:
    """Beat, every few minutes: expired idempotency records."""
    return services.idempotency_purge()
