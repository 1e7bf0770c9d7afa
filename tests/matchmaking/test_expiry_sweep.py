"""A waiting ticket past its ``expires_at`` is ended (``expired``) by the periodic matcher
pass on both runners: the Celery beat task (``matchmaking.tasks.queue_match``, run through
Celery against PostgreSQL) and the embedded runner's thread of the default mode (SQLite). The
player is told the way the queue tells them: ``GET /api/queue/`` (and GraphQL ``myTickets``)
shows the ticket ``expired``, and they may queue again."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from fibserver import runner
from kernel.tasks import local_queue
from matchmaking.models import Ticket
from tests.api.helpers import Player


def queued_and_overdue(player: Player) -> int:
    answer = player.post("/api/queue/", {"game": "fibbers_dice", "seats_min": 2})
    assert answer.status_code == 201
    ticket = answer.json()["id"]
    Ticket.objects.filter(pk=ticket).update(expires_at=timezone.now() - timedelta(seconds=1))
    return ticket


def told_expired(player: Player, ticket: int) -> None:
    (shown,) = player.get("/api/queue/").json()["tickets"]
    assert shown["id"] == ticket and shown["status"] == "expired" and shown["match"] is None
    row = Ticket.objects.get(pk=ticket)
    assert row.status == Ticket.Status.EXPIRED and row.ended_at is not None
    again = player.post("/api/queue/", {"game": "fibbers_dice", "seats_min": 2})
    assert again.status_code == 201, "no longer waiting: the player may queue again"


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the Celery runner's database")
def test_celery_beat_task_expires_an_overdue_ticket_on_postgresql(settings):
    from fibserver.celery import app

    app.finalize()
    entry = app.conf.beat_schedule["queue"]
    assert entry["task"] == "matchmaking.tasks.queue_match"
    assert entry["schedule"] == settings.FIBSERVER["QUEUE_SECONDS"]
    a, b = Player("A"), Player("B")
    ticket = queued_and_overdue(a)
    fresh = b.post("/api/queue/", {"game": "skull", "seats_min": 3}).json()["id"]
    result = app.tasks[entry["task"]].apply()  # as a worker runs it: the task's own code path
    assert result.successful() and result.result == 0
    told_expired(a, ticket)
    assert Ticket.objects.get(pk=fresh).status == Ticket.Status.WAITING, "not yet due: waits"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="the embedded default is SQLite")
def test_the_embedded_runner_expires_an_overdue_ticket_on_sqlite(settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "embedded", "QUEUE_SECONDS": 0.1}
    local_queue.clear()
    a = Player("A")
    ticket = queued_and_overdue(a)
    assert Ticket.objects.get(pk=ticket).status == Ticket.Status.WAITING
    try:
        assert runner.start()
        give_up = time.monotonic() + 20
        while Ticket.objects.get(pk=ticket).status == Ticket.Status.WAITING:
            assert time.monotonic() < give_up, "the runner's matcher pass never expired it"
            time.sleep(0.05)
    finally:
        runner.stop()
    told_expired(a, ticket)
