"""Export requests racing each other on real PostgreSQL: one job per player, the others 409."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from accounts.models import DataExport
from kernel.tasks import local_queue
from tests.api.helpers import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]


def test_racing_export_requests_start_one_job(settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "embedded"}  # the job stays pending
    alice = Player()
    barrier = threading.Barrier(6)

    def request() -> int:
        try:
            barrier.wait()
            return alice.post("/api/me/export/").status_code
        finally:
            connections.close_all()

    try:
        with ThreadPoolExecutor(6) as pool:
            statuses = sorted(pool.map(lambda _: request(), range(6)))
    finally:
        local_queue.clear()  # the queued job's task: no runner here
    assert statuses == [202] + [409] * 5
    assert DataExport.objects.filter(user=alice.user).count() == 1
