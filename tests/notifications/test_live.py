"""The inbox followed live on a real uvicorn process (the follower), woken by Redis pub/sub:
the long-poll (``GET /api/me/notifications/events/?wait=``) and the GraphQL subscription
``notifications``, each answering a move of another player well within a second."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest
from django.conf import settings

from games.engine.bots import random_action
from tests.graphql.helpers import GqlPlayer
from tests.graphql.ws_client import Subscriber
from tests.servers import follower_in_a_thread

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (CI sets REDIS_URL)"),
]

SUBSCRIBE = (
    "subscription($after: Int!) { notifications(after: $after) { id kind matchId version } }"
)
LAST = "{ notificationsAfter(after: 0) { lastId } }"


@pytest.fixture
def follower(transactional_db) -> Iterator[str]:
    with follower_in_a_thread() as address:
        yield address


def first_legal(view: dict) -> dict:
    return random_action(view["legalActions"], random.Random(1))


def table() -> tuple[str, GqlPlayer, GqlPlayer]:
    """A started match; returns its id, the player to act and the other."""
    a, b = GqlPlayer("A"), GqlPlayer("B")
    match = a.create(game="fibber", seats=2)
    b.join(match["id"], match["inviteCode"])
    views = {p: p.view(match["id"]) for p in (a, b)}
    mover = a if views[a]["legalActions"] else b
    return match["id"], mover, b if mover is a else a


def test_the_long_poll_is_woken_by_a_move(follower):
    match_id, mover, watcher = table()
    last = watcher.data(LAST)["notificationsAfter"]["lastId"]
    answer: dict = {}

    def wait() -> None:
        request = urllib.request.Request(
            f"http://{follower}/api/me/notifications/events/?after={last}&wait=20",
            headers={"Authorization": f"Bearer {watcher.token}"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer["body"] = json.loads(response.read())
            answer["at"] = time.monotonic()

    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(0.5)  # parked on the hub
    moved = time.monotonic()
    view = mover.view(match_id)
    assert "errors" not in mover.act(match_id, first_legal(view), v=view["version"])
    thread.join(25)
    notes = answer["body"]["notifications"]
    assert [n["kind"] for n in notes] in (["your_turn"], ["match_ended"])
    assert notes[0]["match"] == match_id
    assert answer["at"] - moved < 1.0


def test_the_subscription_delivers_each_notification_once(follower):
    match_id, mover, watcher = table()
    last = watcher.data(LAST)["notificationsAfter"]["lastId"]
    sub = Subscriber(follower, watcher.token)
    assert sub.ack == {"type": "connection_ack"}
    sub.send(
        {
            "id": "n",
            "type": "subscribe",
            "payload": {"query": SUBSCRIBE, "variables": {"after": last}},
        }
    )
    time.sleep(0.5)
    moved = time.monotonic()
    view = mover.view(match_id)
    assert "errors" not in mover.act(match_id, first_legal(view), v=view["version"])
    message = sub.receive(5)
    took = time.monotonic() - moved
    assert message["type"] == "next", message
    note = message["payload"]["data"]["notifications"]
    assert note["matchId"] == match_id and note["kind"] in ("YOUR_TURN", "your_turn", "match_ended")
    assert note["id"] > last and took < 1.0
    sub.close()
