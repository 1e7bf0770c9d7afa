"""Nothing lost, nothing doubled: concurrent submissions on real PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from games.models import Event

from .helpers import Player, applied_actions, replays_to_stored_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]


def in_thread(fn):
    def run(*args):
        try:
            return fn(*args)
        finally:
            connections.close_all()

    return run


def first_legal(view: dict) -> dict:
    entry = view["legal_actions"][0]
    return {"type": entry["type"], **{k: d["one_of"][0] for k, d in entry["params"].items()}}


def test_many_threads_racing_on_one_match_apply_each_accepted_action_exactly_once():
    players = [Player() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(9)

    @in_thread
    def worker(index: int) -> None:
        me = Player.__new__(Player)
        source = players[index % 3]
        me.user, me.token, me.client = source.user, source.token, None
        from rest_framework.test import APIClient

        me.client = APIClient()
        me.client.credentials(HTTP_AUTHORIZATION=f"Bearer {me.token}")
        barrier.wait()
        for _ in range(25):
            view = me.view(match["id"])
            if view["status"] != "active":
                return
            if not view["legal_actions"]:
                continue
            body = first_legal(view)
            if index % 2:
                body["expected_version"] = view["version"]
            response = me.act(match["id"], body)
            with lock:
                statuses[response.status_code] += 1

    with ThreadPoolExecutor(9) as pool:
        list(pool.map(worker, range(9)))
    assert not any(code >= 500 for code in statuses), statuses
    assert set(statuses) <= {200, 403, 409, 422}, statuses
    actions = applied_actions(match["id"])
    assert len(actions) == statuses[200] > 0
    versions = [e.version for e in actions]
    assert versions == sorted(set(versions)), "versions strictly increase, one per action"
    seqs = list(Event.objects.filter(match_id=match["id"]).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)), "the log has no gaps and no duplicates"
    assert replays_to_stored_state(match["id"])


def test_two_hundred_parallel_sends_with_one_idempotency_key_apply_once_and_answer_alike():
    human = Player()
    match = human.create(game="fabfib", seats=3, bots=["random", "random"], time_control="solo")
    view = human.view(match["id"])
    assert view["legal_actions"], "bots finish their turns inline before the human's"
    body = first_legal(view)
    before = len(applied_actions(match["id"]))
    barrier = threading.Barrier(16)

    @in_thread
    def send(i: int):
        from rest_framework.test import APIClient

        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {human.token}")
        if i < 16:
            barrier.wait()
        response = client.post(
            f"/api/matches/{match['id']}/actions/",
            body,
            format="json",
            HTTP_IDEMPOTENCY_KEY="same-key",
        )
        return response.status_code, response.content

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(send, range(200)))
    assert {code for code, _ in results} == {200}
    assert len({content for _, content in results}) == 1, "every response identical"
    human_actions = [
        e for e in applied_actions(match["id"])[before:] if e.actor == 0 and not e.by_bot
    ]
    assert len(human_actions) == 1
    assert replays_to_stored_state(match["id"])


def test_a_view_and_an_event_page_never_mix_versions_while_moves_land(monkeypatch):
    """every part of a view (match row, seats, recent events) and of an event page
    comes from one snapshot, even when a move commits between the reads."""
    from games.reads import feeds, views

    players = [Player() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    choose = views.seat_shown

    def slow_choose(*args, **kwargs):  # between reading the match and reading its events
        time.sleep(0.02)
        return choose(*args, **kwargs)

    monkeypatch.setattr(views, "seat_shown", slow_choose)
    done = threading.Event()

    @in_thread
    def mover() -> None:
        while not done.is_set():
            for p in players:
                view = p.view(match["id"])
                if view["status"] != "active":
                    return
                if view["legal_actions"]:
                    p.act(match["id"], first_legal(view))

    thread = threading.Thread(target=mover)
    thread.start()
    mixed = checked = 0
    try:
        for _ in range(60):
            view = views.read_view(match["id"], players[0].user)[0]
            page = feeds.read_feed(match["id"], players[0].user, max(0, view["last_seq"] - 5))
            for body in (view, page):
                events = body["events"]
                checked += 1
                if any(
                    e["version"] > body["version"] or e["seq"] > body["last_seq"] for e in events
                ) or (events and events[-1]["seq"] != body["last_seq"] and not body.get("more")):
                    mixed += 1
            if view["status"] != "active":
                break
    finally:
        done.set()
        thread.join(timeout=30)
    assert checked and mixed == 0, f"{mixed} of {checked} reads mixed versions"
