"""Periodic clean-up that keeps the database small: expired idempotency records."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from ..models import IdempotencyRecord
from .common import db_now


def idempotency_purge(*, older_than: timedelta | None = None) -> int:
    """Delete idempotency records older than ``older_than`` (``IDEMPOTENCY_TTL_SECONDS`` by
    default, 24 h): a client retries within seconds or minutes, never a day later. Returns the
    number deleted."""
    if older_than is None:
        older_than = timedelta(seconds=settings.FIBSERVER["IDEMPOTENCY_TTL_SECONDS"])
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=db_now() - older_than).delete()
    return deleted
