"""A move stored in one statement wakes its followers with a ``pg_notify`` in that statement
(delivered by PostgreSQL at its commit, never when it stored nothing), not with a Redis publish
after it; the follower's hub listens to PostgreSQL as well as to Redis and trusts what it was
told only while both are up. With ``FIBSERVER["WAKE_BY_DATABASE"]`` off, or on the locked
path, the wake-up is the Redis publish after commit, as before."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection

from api.play import hub as hub_module
from games import notify
from games.engine.bots import random_action
from games.models import Match
from games.services.sink import _statement
from notifications.wake import user_key
from tests.api.helpers import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not settings.REDIS_URL,
        reason="the one-statement write and pg_notify are PostgreSQL's; the hub needs Redis",
    ),
]


def _listener() -> psycopg.Connection[Any]:
    conn = psycopg.connect(autocommit=True, **hub_module._db_params())
    conn.execute(f"LISTEN {notify.DB_CHANNEL}")
    return conn


def _payloads(conn: psycopg.Connection[Any], seconds: float = 1.0) -> list[str]:
    return [n.payload for n in conn.notifies(timeout=seconds)]


def _subscriber() -> redis.client.PubSub:
    pubsub = redis.Redis.from_url(str(settings.REDIS_URL)).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(notify.CHANNEL)
    assert pubsub.get_message(timeout=2) is None  # the subscription's own confirmation
    return pubsub


def _published(pubsub: redis.client.PubSub, seconds: float = 1.0) -> list[str]:
    got: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = pubsub.get_message(timeout=0.2)
        if message is not None:
            got.append(message["data"].decode())
    return got


def _match_and_mover() -> tuple[str, Player, Player, dict[str, Any]]:
    a, b = Player("Ann"), Player("Bob")
    match = a.create(game="fibber", seats=2)
    b.post(f"/api/matches/{match['id']}/join/")
    views = [(p, p.view(match["id"])) for p in (a, b)]
    mover, view = next((p, v) for p, v in views if v["legal_actions"])
    other = b if mover is a else a
    return match["id"], mover, other, view


def test_a_move_wakes_its_followers_in_its_own_statement_and_not_through_redis():
    match_id, mover, other, view = _match_and_mover()
    listener, pubsub = _listener(), _subscriber()
    action = random_action(view["legal_actions"], random.Random(3))
    assert mover.act(match_id, action).status_code == 200
    version = Match.objects.get(pk=match_id).version
    payloads = _payloads(listener)
    assert len(payloads) == 1, payloads  # one notification carries every wake-up of the move
    keys = notify.keys(payloads[0])
    assert keys[0] == match_id and f"{match_id}:{version}" in payloads[0].split()
    assert user_key(other.user.pk) in keys  # the next player's inbox ("your turn")
    assert not [m for m in _published(pubsub) if match_id in m]  # no Redis publish of it


def test_a_statement_that_stores_nothing_wakes_nobody():
    match_id, _mover, _other, _view = _match_and_mover()
    match = Match.objects.get(pk=match_id)
    listener = _listener()
    text = _statement(("version",), 0, False, (), 0, 0, True)
    with connection.cursor() as cursor:  # a stale version: another writer got there first
        cursor.execute(text, [match.version + 1, match.pk, match.version - 1, "active", "x:1"])
        assert cursor.fetchone()[0] == 0
        cursor.execute(text, [match.version + 1, match.pk, match.version, "active", "y:2"])
        assert cursor.fetchone()[0] == 1
    assert _payloads(listener) == ["y:2"]


def test_without_wake_by_database_the_move_publishes_on_redis(settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "WAKE_BY_DATABASE": False}
    match_id, mover, _other, view = _match_and_mover()
    listener, pubsub = _listener(), _subscriber()
    action = random_action(view["legal_actions"], random.Random(3))
    assert mover.act(match_id, action).status_code == 200
    version = Match.objects.get(pk=match_id).version
    assert f"{match_id}:{version}" in _published(pubsub)
    assert _payloads(listener, 0.3) == []


def test_the_hub_is_woken_by_postgresql_and_trusts_only_both_sources_up(monkeypatch):
    async def scenario() -> None:
        hub = hub_module.Hub()
        hub.ensure_running()
        for _ in range(100):
            if hub.connected:
                break
            await asyncio.sleep(0.05)
        assert hub.connected and hub._db_wanted
        with hub.listening("m-1") as one, hub.listening("user-9") as inbox:
            stamp = hub.stamp("m-1")
            await asyncio.to_thread(_notify, "m-1:4 user-9:0")
            await asyncio.wait_for(one.wait(), 5)
            await asyncio.wait_for(inbox.wait(), 5)
            assert hub.stamp("m-1") != stamp
        assert hub.task is not None and hub.db_task is not None
        hub.db_task.cancel()  # PostgreSQL's side gone: not trusted, so followers poll
        with pytest.raises(asyncio.CancelledError):
            await hub.db_task
        assert not hub.connected and hub.stamp("m-1") is None
        hub.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await hub.task

    asyncio.run(scenario())


def test_the_hub_without_its_listen_polls(monkeypatch):
    monkeypatch.setattr(hub_module, "_db_params", lambda: {"host": "127.0.0.1", "port": 1})

    async def scenario() -> None:
        hub = hub_module.Hub()
        hub.ensure_running()
        for _ in range(40):
            if hub._redis_up:
                break
            await asyncio.sleep(0.05)
        assert hub._redis_up and not hub.connected  # Redis alone is not every source
        assert hub.task is not None and hub.db_task is not None
        for task in (hub.task, hub.db_task):
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(scenario())


def _notify(payload: str) -> None:
    with psycopg.connect(autocommit=True, **hub_module._db_params()) as conn:
        conn.execute("SELECT pg_notify(%s, %s)", [notify.DB_CHANNEL, payload])
