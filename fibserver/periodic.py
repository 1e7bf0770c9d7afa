"""The one table of periodic jobs: what Celery beat runs (``fibserver.celery``) and what the
embedded runner runs (``fibserver.runner``), each job a task addressed by its full name.

Each app's task does its own part: the deadline sweep (``games``), the tournaments due
(``tournaments``), the
notification relay and purge (``notifications``), the matcher (``matchmaking``), the purge of
what deleted accounts and old exports left (``accounts``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True)
class Job:
    name: str  #: the beat entry's name
    task: str  #: the task's full name
    setting: str  #: the seconds between runs: a key of ``FIBSERVER`` or ``NOTIFICATIONS.``

    def seconds(self) -> float:
        if self.setting.startswith("NOTIFICATIONS."):
            value = settings.NOTIFICATIONS[self.setting.removeprefix("NOTIFICATIONS.")]
        else:
            value = settings.FIBSERVER[self.setting]
        assert isinstance(value, int | float)
        return float(value)


PERIODIC: tuple[Job, ...] = (
    Job("sweep", "games.tasks.sweep", "SWEEP_SECONDS"),
    Job("tournaments", "tournaments.tasks.start_due", "SWEEP_SECONDS"),
    Job("relay", "notifications.tasks.relay", "SWEEP_SECONDS"),
    Job("purge", "games.tasks.purge", "PURGE_SECONDS"),
    Job("purge-accounts", "accounts.tasks.purge", "PURGE_SECONDS"),
    Job("purge-notifications", "notifications.tasks.purge", "PURGE_SECONDS"),
    Job("queue", "matchmaking.tasks.queue_match", "QUEUE_SECONDS"),
    Job("digests", "notifications.tasks.digests", "NOTIFICATIONS.DIGEST_SECONDS"),
)
