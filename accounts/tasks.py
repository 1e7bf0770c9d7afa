"""Celery tasks of the accounts: a player's data export, and the purge of what an account left
behind (usernames held after a deletion, exports past their keeping time).

Queued by name (:mod:`kernel.tasks`); the periodic purge is in the one table of periodic jobs
(``fibserver.periodic``)."""

from __future__ import annotations

from celery import shared_task

from .deletion import holds_purge
from .export import export_build, exports_purge


@shared_task(acks_late=True, ignore_result=True, name="accounts.tasks.build_export")
def build_export(export_id: str) -> bool:
    """A player's data export (once: a job that is no longer pending is left alone)."""
    return export_build(export_id=export_id)


@shared_task(acks_late=True, ignore_result=True, name="games.tasks.build_export")
def build_export_before_accounts_tasks(export_id: str) -> bool:
    """The same task under the name it had while ``games.tasks`` ran it, for the messages a
    server sent before it was upgraded (nothing sends it any more)."""
    return export_build(export_id=export_id)


@shared_task(acks_late=True, ignore_result=True, name="accounts.tasks.purge")
def purge() -> int:
    """Beat, every ``PURGE_SECONDS``: usernames whose grace period has passed, and the data
    exports past their keeping time. Returns how many rows went."""
    return holds_purge() + exports_purge()
