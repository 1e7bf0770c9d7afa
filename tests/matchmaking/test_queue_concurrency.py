"""200 players queueing and cancelling at once while two matchers run passes, on PostgreSQL:
nobody is seated twice, nobody is lost (every ticket ends matched at one seat of its match,
cancelled, or still waiting with no partner left)."""

from __future__ import annotations

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from accounts.services import guest_create
from games.models import Seat
from kernel.errors import Conflict
from matchmaking import services
from matchmaking.models import Ticket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]

PLAYERS = 200


def test_200_players_queueing_and_cancelling_at_once_are_seated_once_or_not_at_all():
    users = [guest_create()[0] for _ in range(PLAYERS)]
    cancels: Counter[str] = Counter()
    lock = threading.Lock()
    stop = threading.Event()
    start = threading.Barrier(10)

    def player(index: int) -> None:
        rng = random.Random(index)
        user = users[index]
        try:
            start.wait() if index < 8 else None
            ticket = services.ticket_create(
                user=user, game="fibbers_dice", seats_min=2, seats_max=3
            )
            if rng.random() < 0.4:
                try:
                    services.ticket_cancel(user=user, ticket_id=ticket.pk)
                    outcome = "cancelled"
                except Conflict:
                    outcome = "too late"
                with lock:
                    cancels[outcome] += 1
                if outcome == "cancelled" and rng.random() < 0.5:  # queue again
                    services.ticket_create(user=user, game="fibbers_dice", seats_min=2, seats_max=3)
        except Conflict:
            with lock:
                cancels["refused"] += 1
        finally:
            connections.close_all()

    def matcher() -> None:
        try:
            start.wait()
            while not stop.is_set():
                services.queue_match()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=10) as pool:
        matchers = [pool.submit(matcher) for _ in range(2)]
        list(pool.map(player, range(PLAYERS)))
        stop.set()
        for m in matchers:
            m.result()
    services.queue_match()

    tickets = list(Ticket.objects.all())
    waiting = [t for t in tickets if t.status == Ticket.Status.WAITING]
    assert len(waiting) <= 1, "compatible players left waiting after a pass"
    assert len({t.user_id for t in waiting}) == len(waiting)
    matched = [t for t in tickets if t.status == Ticket.Status.MATCHED]
    assert matched
    seats = Seat.objects.filter(match_id__in={t.match_id for t in matched}, user__isnull=False)
    seated = Counter(seats.values_list("user_id", "match_id"))
    assert all(n == 1 for n in seated.values()), "a player seated twice at one table"
    assert sorted(seated) == sorted((t.user_id, t.match_id) for t in matched), (
        "a seat without its matched ticket, or a matched ticket without its seat"
    )
    per_user = Counter(t.user_id for t in matched)
    assert all(n == 1 for n in per_user.values()), "a player seated at two tables"
    # A cancel that answered "cancelled" really left: no seat from that ticket.
    assert Ticket.objects.filter(status=Ticket.Status.CANCELLED).count() == cancels["cancelled"]
    assert cancels["cancelled"] + cancels["too late"] > 0
