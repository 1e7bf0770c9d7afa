"""The long-poll events feed served by the ASGI follower (uvicorn) and woken by Redis pub/sub."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest
from django.conf import settings

from tests.servers import follower_in_a_thread

from .helpers import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (CI sets REDIS_URL)"),
]


@pytest.fixture
def follower_url():
    """A real uvicorn server running ``fibserver.asgi`` in a thread of this test process."""
    with follower_in_a_thread() as address:
        yield f"http://{address}"


def get_json(url: str, token: str, timeout: float = 40) -> tuple[int, dict, float]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read()), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), time.monotonic() - started


def live_match() -> tuple[dict, list[Player]]:
    players = [Player() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    return players[0].view(match["id"]), players


def test_a_waiting_follower_is_woken_by_a_move_at_once(follower_url):
    view, players = live_match()
    watcher = next(p for p in players if not p.view(view["id"])["legal_actions"])
    mover = next(p for p in players if p.view(view["id"])["legal_actions"])
    result: dict = {}

    def follow() -> None:
        url = f"{follower_url}/api/matches/{view['id']}/events/?after={view['last_seq']}&wait=20"
        result["status"], result["body"], result["seconds"] = get_json(url, watcher.token)

    thread = threading.Thread(target=follow)
    thread.start()
    time.sleep(1.0)  # the follower is now parked on the hub
    assert "status" not in result
    action = mover.view(view["id"])["legal_actions"][0]
    params = {name: domain["one_of"][0] for name, domain in action["params"].items()}
    moved_at = time.monotonic()
    assert mover.act(view["id"], {"type": action["type"], **params}).status_code == 200
    thread.join(timeout=30)
    latency = time.monotonic() - moved_at
    assert result["status"] == 200
    assert result["body"]["events"][0]["seq"] == view["last_seq"] + 1
    assert latency < 3.0, f"woken after {latency:.2f}s: pub/sub did not wake the follower"
    assert all(
        "private" not in e or e["type"] in {"accept", "round_started", "exchange"}
        for e in result["body"]["events"]
    )


def test_a_follower_with_nothing_new_gets_an_empty_answer_after_the_wait(follower_url):
    view, players = live_match()
    url = f"{follower_url}/api/matches/{view['id']}/events/?after={view['last_seq']}&wait=1.5"
    status, body, seconds = get_json(url, players[0].token)
    assert status == 200 and body["events"] == [] and 1.4 <= seconds < 5


def test_the_follower_answers_errors_in_the_api_error_shape(follower_url):
    view, players = live_match()
    base = f"{follower_url}/api/matches/{view['id']}/events/"
    assert get_json(base + "?wait=99", players[0].token)[0] == 400
    assert get_json(base, "not-a-token")[0] == 401
    status, body, _ = get_json(f"{follower_url}/api/matches/nope/events/", players[0].token)
    assert status == 404 and body["error"]["code"] == "not_found"
    status, body, _ = get_json(base + "?after=0", players[0].token)
    assert status == 200 and body["events"][0]["seq"] == 1
