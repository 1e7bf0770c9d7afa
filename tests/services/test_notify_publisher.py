"""The match-changed publish leaves the request at once and reaches Redis's subscribers, in
order, from the publisher thread; a forked process gets its own thread and connection."""

from __future__ import annotations

import os
import time

import pytest
import redis
from django.conf import settings

from kernel import wake as notify

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (CI sets REDIS_URL)")


def _subscriber() -> redis.client.PubSub:
    pubsub = redis.Redis.from_url(str(settings.REDIS_URL)).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(notify.CHANNEL)
    assert pubsub.get_message(timeout=2) is None  # the subscription's own confirmation
    return pubsub


def _received(pubsub: redis.client.PubSub, count: int, until: str | None = None) -> list[str]:
    got: list[str] = []
    deadline = time.monotonic() + 5
    while len(got) < count and time.monotonic() < deadline:
        message = pubsub.get_message(timeout=0.5)
        if message is not None:
            got.append(message["data"].decode())
            if got[-1] == until:
                break
    return got


def test_published_changes_reach_subscribers_in_order() -> None:
    pubsub = _subscriber()
    sent = [f"bench-{os.getpid()}-{i}:{i}" for i in range(50)]
    for text in sent:
        match_id, version = text.rsplit(":", 1)
        notify.publish(match_id, int(version))
    mine = [m for m in _received(pubsub, 200) if m.startswith(f"bench-{os.getpid()}-")]
    assert mine == sent


def test_a_forked_child_publishes_through_its_own_thread() -> None:
    notify.publish("parent", 1)  # the parent's thread and connection exist before the fork
    pubsub = _subscriber()
    pid = os.fork()
    if pid == 0:  # the child: publish, give its thread a moment, leave without cleanup
        try:
            notify.publish(f"child-{os.getpid()}", 7)
            time.sleep(1.0)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    # Other processes on the same Redis publish on the same channel: look among the next ones.
    assert f"child-{pid}:7" in _received(pubsub, 50, until=f"child-{pid}:7")
