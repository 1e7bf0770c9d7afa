"""Export my data, transport-neutral: the request's (empty) input and a job as both faces
render it."""

from __future__ import annotations

from typing import Any

from accounts.models import DataExport

from .fields import StrictInput


class ExportIn(StrictInput):
    """Takes no fields: an empty body or ``{}``."""


def download_path(job: DataExport) -> str:
    return f"/api/me/export/{job.pk}/download/"


def render_job(job: DataExport, base: str = "") -> dict[str, Any]:
    """A job; ``download`` (``base`` + the path) once it is done."""
    done = job.status == DataExport.Status.DONE
    return {
        "id": str(job.pk),
        "status": job.status,
        "created": job.created_at.isoformat(),
        "finished": job.finished_at.isoformat() if job.finished_at else None,
        "size": job.size,
        "truncated": job.truncated,
        "download": base + download_path(job) if done else None,
    }
