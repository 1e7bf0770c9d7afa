"""An account deleted while its player moves, on real PostgreSQL: every request answers
cleanly, no move of theirs lands after the deletion, and the bot plays their seat to the end."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from accounts.deletion import account_delete
from accounts.models import User
from accounts.services import token_issue, user_register
from games.models import Event, Match, Seat
from tests.api.helpers import Player, play_to_the_end, replays_to_stored_state
from tests.api.test_concurrency import first_legal

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]


@pytest.mark.parametrize("attempt", range(3))
def test_deletion_racing_the_players_own_moves(attempt):
    others = [Player(f"P{i}") for i in range(2)]
    leaver = user_register(username=f"leaver{attempt}", password="a-long-pass-phrase")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=leaver)}")
    created = others[0].create(game="fabfib", seats=3)
    for who in (others[1].client, client):
        assert who.post(f"/api/matches/{created['id']}/join/").status_code == 200
    match_id = created["id"]
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def mover() -> None:
        try:
            barrier.wait()
            for _ in range(40):
                view = client.get(f"/api/matches/{match_id}/")
                if view.status_code != 200:
                    statuses.append(view.status_code)
                    return
                body = view.json()
                if body["status"] != "active":
                    return
                if body["legal_actions"]:
                    action = {**first_legal(body), "expected_version": body["version"]}
                    answer = client.post(f"/api/matches/{match_id}/actions/", action, format="json")
                    statuses.append(answer.status_code)
                else:  # another's turn: let them move
                    turn = next(p for p in others if p.view(match_id)["legal_actions"])
                    v = turn.view(match_id)
                    turn.act(match_id, {**first_legal(v), "expected_version": v["version"]})
        finally:
            connections.close_all()

    def deleter() -> None:
        try:
            barrier.wait()
            account_delete(user=User.objects.get(pk=leaver.pk))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(2) as pool:
        for future in [pool.submit(mover), pool.submit(deleter)]:
            future.result()
    assert not [s for s in statuses if s >= 500], statuses
    assert set(statuses) <= {200, 401, 409}, statuses
    tomb = User.objects.get(pk=leaver.pk)
    assert tomb.deleted_at is not None
    seat = Seat.objects.get(match_id=match_id, user=tomb)
    assert seat.away
    own_after = Event.objects.filter(
        match_id=match_id, actor=seat.position, by_bot=False, created_at__gt=tomb.deleted_at
    ).exclude(action=None)
    assert not own_after.exists()
    play_to_the_end(match_id, others, random.Random(attempt))
    assert Match.objects.get(pk=match_id).status == "finished"
    assert replays_to_stored_state(match_id)


def test_a_deletion_in_progress_does_not_hold_back_a_move_that_notifies_the_player(monkeypatch):
    """The deadlock CI once met: a move holds its match's lock and writes a notification for
    the leaving player (an insert takes a key-share lock on their user row), while the deletion
    holds the user row and waits for that match. The deletion's user lock must therefore be one
    a key-share lock passes (FOR NO KEY UPDATE)."""
    from django.db import transaction

    from games.services import departure
    from notifications.models import Notification

    leaver = user_register(username="leaver-locks", password="a-long-pass-phrase")
    holding, done = threading.Event(), threading.Event()
    inserted: list[str] = []
    real = departure.player_depart

    def slow_depart(*, user):
        holding.set()  # the deletion holds the user row from here
        assert done.wait(10)
        return real(user=user)

    monkeypatch.setattr(departure, "player_depart", slow_depart)

    def deleter() -> None:
        try:
            account_delete(user=User.objects.get(pk=leaver.pk))
        finally:
            connections.close_all()

    def notifier() -> None:
        try:
            assert holding.wait(10)
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '3s'")
                Notification.objects.create(user_id=leaver.pk, kind="your_turn", key="lock-test")
                inserted.append("ok")
        finally:
            done.set()
            connections.close_all()

    with ThreadPoolExecutor(2) as pool:
        for future in [pool.submit(deleter), pool.submit(notifier)]:
            future.result()
    assert inserted == ["ok"]
    assert User.objects.get(pk=leaver.pk).deleted_at is not None
