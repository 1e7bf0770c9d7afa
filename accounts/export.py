"""Export my data: a job per request, written in the background, kept for ``KEEP_DAYS``.

- :func:`export_request`: a new job (``pending``), queued on commit (a Celery task with Redis,
  the embedded runner without); at most one ``pending`` or ``running`` job per player
  (``conflict`` otherwise; the database holds the rule too). A job stuck longer than
  ``STALE_MINUTES`` (a worker lost with it) counts as ``failed`` and no longer blocks;
- :func:`export_build`: the task's work: ``running``, then the document
  (:mod:`accounts.export_document`) and ``done`` (or ``failed``); a job that is not
  ``pending`` any more is left alone, so a task delivered twice writes once;
- :func:`export_read`: the caller's own job (``not_found`` for anyone else's);
- :func:`exports_purge`: the jobs older than ``KEEP_DAYS`` (the periodic purge).

A deleted account's jobs are deleted with it (:data:`accounts.erasure.ERASURE`).
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from kernel import tasks
from kernel.errors import Conflict, NotFound

from . import export_document
from .models import DataExport, User

log = logging.getLogger(__name__)

KEEP_DAYS = 7
STALE_MINUTES = 15
BUSY = "An export of your data is already being prepared: wait for it to finish."


def _expire_stale(user: User) -> None:
    cutoff = timezone.now() - timedelta(minutes=STALE_MINUTES)
    DataExport.objects.filter(
        user=user, status__in=DataExport.ACTIVE, created_at__lt=cutoff
    ).update(status=DataExport.Status.FAILED, finished_at=timezone.now())


def export_request(*, user: User) -> DataExport:
    """Start an export of ``user``'s data; ``Conflict`` while another one is under way."""
    with transaction.atomic():
        # one request at a time
        User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        _expire_stale(user)
        if DataExport.objects.filter(user=user, status__in=DataExport.ACTIVE).exists():
            raise Conflict(BUSY)
        try:
            with transaction.atomic():
                job = DataExport.objects.create(user=user)
        except IntegrityError as exc:  # the constraint: another request won the race
            raise Conflict(BUSY) from exc
        transaction.on_commit(lambda: tasks.send("accounts.tasks.build_export", (str(job.pk),)))
    return job


def export_build(*, export_id: uuid.UUID | str) -> bool:
    """Write the document of a ``pending`` job. Returns whether this call wrote it."""
    with transaction.atomic():
        job = (
            DataExport.objects.select_for_update()
            .filter(pk=export_id, status=DataExport.Status.PENDING)
            .select_related("user")
            .first()
        )
        if job is None:
            return False
        job.status = DataExport.Status.RUNNING
        job.save(update_fields=["status"])
    try:
        body, truncated = export_document.build(job.user)
    except Exception:
        log.exception("export %s failed", export_id)
        DataExport.objects.filter(pk=job.pk, status=DataExport.Status.RUNNING).update(
            status=DataExport.Status.FAILED, finished_at=timezone.now()
        )
        return False
    written = DataExport.objects.filter(pk=job.pk, status=DataExport.Status.RUNNING).update(
        status=DataExport.Status.DONE,
        finished_at=timezone.now(),
        body=body,
        size=len(body.encode()),
        truncated=truncated,
    )
    return bool(written)


def _pk(export_id: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(export_id))
    except ValueError as exc:
        raise NotFound("No such export.") from exc


def export_read(*, user: User, export_id: Any) -> DataExport:
    """The caller's job ``export_id`` (the document's text deferred)."""
    job = DataExport.objects.filter(pk=_pk(export_id), user=user).defer("body").first()
    if job is None:
        raise NotFound("No such export.")
    return job


def export_body(*, user: User, export_id: Any) -> str:
    """The document of the caller's finished job; ``Conflict`` while it is not ready."""
    job = DataExport.objects.filter(pk=_pk(export_id), user=user).first()
    if job is None:
        raise NotFound("No such export.")
    if job.status != DataExport.Status.DONE:
        raise Conflict(f"The export is {job.status}: no document to download.")
    return job.body


def exports_purge(now: Any = None) -> int:
    """Delete the jobs older than ``KEEP_DAYS``. Returns how many."""
    cutoff = (now or timezone.now()) - timedelta(days=KEEP_DAYS)
    deleted, _ = DataExport.objects.filter(created_at__lt=cutoff).delete()
    return deleted
