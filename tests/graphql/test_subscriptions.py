"""``matchEvents`` on a real uvicorn process (the follower) with a real websocket client: woken
by Redis pub/sub, gaps rebuilt from the events table, outsiders refused."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from games.reads import feeds

from .helpers import EVENTS, GqlPlayer
from .ws_client import Subscriber

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (CI sets REDIS_URL)"),
]


def live_match(visibility: str = "public") -> tuple[dict, list[GqlPlayer]]:
    players = [GqlPlayer(f"P{i}") for i in range(3)]
    match = players[0].create(game="fabfib", seats=3, visibility=visibility)
    for p in players[1:]:
        p.join(match["id"], match["inviteCode"])
    return players[0].view(match["id"]), players


def first_legal(view: dict) -> dict:
    entry = view["legalActions"][0]
    return {"type": entry["type"], **{k: d["one_of"][0] for k, d in entry["params"].items()}}


def mover_and_watcher(match_id: str, players: list[GqlPlayer]) -> tuple[GqlPlayer, GqlPlayer]:
    views = {p: p.view(match_id) for p in players}
    mover = next(p for p in players if views[p]["legalActions"])
    watcher = next(p for p in players if not views[p]["legalActions"])
    return mover, watcher


def move(player: GqlPlayer, match_id: str) -> dict:
    view = player.view(match_id)
    answer = player.act(match_id, first_legal(view), v=view["version"])
    assert "errors" not in answer, answer
    return answer["data"]["act"]


def test_a_move_by_another_player_reaches_the_subscriber_in_under_a_second(follower):
    view, players = live_match()
    mover, watcher = mover_and_watcher(view["id"], players)
    sub = Subscriber(follower, watcher.token)
    assert sub.ack == {"type": "connection_ack"}
    sub.subscribe(view["id"], after=view["lastSeq"])
    time.sleep(0.5)  # the subscription is parked on the hub
    moved_at = time.monotonic()
    move(mover, view["id"])
    (event,) = sub.events(1, timeout=5)
    latency = time.monotonic() - moved_at
    assert event["seq"] == view["lastSeq"] + 1
    assert latency < 1.0, f"delivered after {latency:.2f}s: pub/sub did not wake the subscriber"
    # What the subscriber got is exactly its REST/GraphQL event feed entry.
    page = watcher.data(EVENTS, id=view["id"], after=view["lastSeq"])["events"]
    assert event == page["events"][0]["data"]
    sub.close()


def test_reconnecting_with_after_rebuilds_the_gap_without_repeats(follower):
    view, players = live_match()
    match_id = view["id"]
    watcher = players[0]
    sub = Subscriber(follower, watcher.token)
    sub.subscribe(match_id, after=0)
    seen = sub.events(view["lastSeq"])  # everything so far, from the table
    assert [e["seq"] for e in seen] == list(range(1, view["lastSeq"] + 1))
    sub.close()
    for _ in range(4):  # the table moves on while nobody listens
        mover, _ = mover_and_watcher(match_id, players)
        move(mover, match_id)
    last = watcher.view(match_id)["lastSeq"]
    assert last > seen[-1]["seq"]
    again = Subscriber(follower, watcher.token)
    again.subscribe(match_id, after=seen[-1]["seq"])
    gap = again.events(last - seen[-1]["seq"])
    assert [e["seq"] for e in gap] == list(range(seen[-1]["seq"] + 1, last + 1))
    rest = watcher.data(EVENTS, id=match_id, after=seen[-1]["seq"])["events"]
    assert gap == [e["data"] for e in rest["events"]]
    with pytest.raises(TimeoutError):
        again.receive(timeout=1.0)  # nothing twice
    mover, _ = mover_and_watcher(match_id, players)
    move(mover, match_id)
    assert again.events(1)[0]["seq"] == last + 1
    again.close()


def test_an_outsider_is_refused_a_private_match_as_not_found(follower):
    view, _players = live_match("private")
    outsider = GqlPlayer("Eve")
    for token in (outsider.token, None):
        sub = Subscriber(follower, token)
        sub.subscribe(view["id"])
        message = sub.receive()
        assert message["type"] == "error" and message["id"] == "1", message
        (error,) = message["payload"]
        assert error["extensions"]["code"] == "not_found"
        assert error["message"] == "No such match."
        sub.close()
    # The same answer as for a match that does not exist at all.
    sub = Subscriber(follower, outsider.token)
    sub.subscribe("00000000-0000-0000-0000-000000000000")
    assert sub.receive()["payload"] == message["payload"]
    sub.close()


def test_a_bad_token_closes_the_socket_and_queries_belong_to_http(follower):
    sub = Subscriber.__new__(Subscriber)
    with pytest.raises(ConnectionClosed) as closed:
        Subscriber.__init__(sub, follower, "not-a-token")
        sub.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    player = GqlPlayer()
    sub = Subscriber(follower, player.token)
    sub.send({"id": "q", "type": "subscribe", "payload": {"query": "{ me { id } }"}})
    message = sub.receive()
    assert message["type"] in ("error", "next"), message
    errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
    assert errors[0]["extensions"]["code"] == "invalid"
    sub.close()


def test_a_finished_match_sends_its_events_and_completes(follower):
    host = GqlPlayer()
    match = host.create(game="fabfib", seats=3, bots=["random"] * 3, join=False)
    final = host.view(match["id"])  # the bots played it out right after the commit
    assert final["status"] == "finished"
    sub = Subscriber(follower)  # anyone may watch a public exhibition
    sub.subscribe(match["id"], after=0)
    events = sub.events(final["lastSeq"])
    assert [e["seq"] for e in events] == list(range(1, final["lastSeq"] + 1))
    assert sub.receive() == {"id": "1", "type": "complete"}
    sub.close()


def test_an_over_complex_subscription_is_refused_before_any_event_is_read(follower, monkeypatch):
    """The query limits hold on the websocket as over HTTP: an alias-heavy or token-heavy
    subscription gets an ``error`` message (``query_too_complex``, ``query_too_large``) and no
    event is read for it; the socket stays open for a subscription within the limits."""
    reads: list[tuple] = []
    real = feeds.read_feed
    monkeypatch.setattr(feeds, "read_feed", lambda *a, **k: reads.append(a) or real(*a, **k))
    view, players = live_match()
    limits = settings.GRAPHQL
    aliases = " ".join(f"a{i}: seq" for i in range(limits["MAX_ALIASES"] + 1))
    tokens = " ".join(["seq"] * limits["MAX_TOKENS"])
    sub = Subscriber(follower, players[0].token)
    for op, fields, code in (
        ("aliases", aliases, "query_too_complex"),
        ("tokens", tokens, "query_too_large"),
    ):
        query = f"subscription($id: ID!) {{ matchEvents(matchId: $id) {{ {fields} }} }}"
        payload = {"query": query, "variables": {"id": view["id"]}}
        sub.send({"id": op, "type": "subscribe", "payload": payload})
        message = sub.receive()
        assert message["type"] == "error" and message["id"] == op, message
        (error,) = message["payload"]
        assert error["extensions"]["code"] == code, error
    assert reads == []
    sub.subscribe(view["id"], after=0)
    assert [e["seq"] for e in sub.events(1)] == [1]
    assert reads, "the subscription within the limits read its events"
    sub.close()
