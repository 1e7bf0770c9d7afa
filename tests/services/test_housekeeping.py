"""Idempotency records expire: kept long enough for any retry, purged by a periodic task."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.services import guest_create
from games import services, tasks
from games.models import IdempotencyRecord

pytestmark = pytest.mark.django_db


def record(user, match, key: str, age: timedelta) -> IdempotencyRecord:
    row = IdempotencyRecord.objects.create(
        user=user, key=key, match=match, request_hash="x", status_code=200, body="{}"
    )
    IdempotencyRecord.objects.filter(pk=row.pk).update(created_at=services.db_now() - age)
    return row


def test_records_older_than_a_day_are_purged_and_fresh_ones_kept():
    user = guest_create()[0]
    match = services.match_create(user=user, game="fabfib", seats=3)
    old = record(user, match, "old", timedelta(hours=25))
    fresh = record(user, match, "fresh", timedelta(hours=23))
    assert tasks.purge() == 1
    assert list(IdempotencyRecord.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert not IdempotencyRecord.objects.filter(pk=old.pk).exists()


def test_the_purge_runs_periodically_on_beat():
    from fibserver.celery import app

    app.loader.import_default_modules()
    app.finalize(auto=True)
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {"games.tasks.sweep", "games.tasks.purge"} <= scheduled
