"""The embedded default under load: a real server process on a SQLite file (as ``scripts/serve``
runs it), eight players acting at once in one shared match and in matches of their own.

Every answer must be a 2xx or a 4xx (never "database is locked" as a 500), and every action
the server accepted must be in the log exactly once — retries with the same Idempotency-Key
included."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kernel.devserver import EmbeddedServer

pytestmark = pytest.mark.slow


class Server(EmbeddedServer):
    """The server of ``scripts/serve`` (uvicorn on ``fibserver.asgi``, the embedded runner on) on
    a fresh SQLite file, with the production defaults (no debug)."""

    def __init__(self, tmp: Path) -> None:
        super().__init__(
            tmp,
            {
                "FIBSERVER_BOT_DELAY": "0.01",
                "THROTTLE_GUEST": "1000/hour",
                "THROTTLE_ACTIONS": "100000/min",
                "DEBUG": "false",
                "ALLOWED_HOSTS": "127.0.0.1",
            },
        )


def call(
    base: str,
    method: str,
    path: str,
    token: str | None = None,
    body: Any = None,
    key: str | None = None,
) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw or b"null")
        except ValueError:  # not JSON: counted by its status, and the test fails on it
            return error.code, raw.decode(errors="replace")


def first_legal(view: dict) -> dict:
    entry = view["legal_actions"][0]
    action = {"type": entry["type"]}
    for name, domain in entry["params"].items():
        if "one_of" in domain:
            action[name] = domain["one_of"][0]
        elif "range" in domain:
            action[name] = domain["range"][0]
        else:
            action[name] = domain["subset_of"][: domain["min"]]
    return action


def test_eight_players_at_once_on_sqlite_get_no_5xx_and_every_accepted_action_counts_once(
    tmp_path,
):
    server = Server(tmp_path)
    try:
        base = server.url
        tokens = [
            call(base, "POST", "/api/auth/guest/", body={"display_name": f"P{i}"})[1]["token"]
            for i in range(8)
        ]
        shared = call(
            base, "POST", "/api/matches/", tokens[0], {"game": "fibbers_dice", "seats": 4}
        )
        for token in tokens[1:4]:
            call(base, "POST", f"/api/matches/{shared[1]['id']}/join/", token, {})
        matches = [shared[1]["id"]] * 4 + [
            call(
                base,
                "POST",
                "/api/matches/",
                token,
                {"game": "fabfib", "seats": 3, "bots": ["random"] * 2, "time_control": "solo"},
            )[1]["id"]
            for token in tokens[4:]
        ]
        statuses: Counter[int] = Counter()
        accepted: Counter[tuple[str, int]] = Counter()
        lock = threading.Lock()
        stop_at = time.monotonic() + 20

        def play(index: int) -> None:
            token, match_id = tokens[index], matches[index]
            while time.monotonic() < stop_at:
                status, view = call(base, "GET", f"/api/matches/{match_id}/", token)
                with lock:
                    statuses[status] += 1
                if status != 200 or view["status"] != "active":
                    return
                if not view["legal_actions"]:
                    time.sleep(0.005)
                    continue
                key = uuid.uuid4().hex
                body = {**first_legal(view), "expected_version": view["version"]}
                for _attempt in range(2):  # a retry with the same key must not apply twice
                    status, _ = call(
                        base, "POST", f"/api/matches/{match_id}/actions/", token, body, key
                    )
                    with lock:
                        statuses[status] += 1
                if status == 200:
                    with lock:
                        accepted[(match_id, view["you"]["seat"])] += 1

        threads = [threading.Thread(target=play, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        server.stop()
    print(f"statuses {dict(statuses)}, accepted actions {sum(accepted.values())}")
    assert not [s for s in statuses if s >= 500], statuses
    assert set(statuses) <= {200, 403, 409, 422}, statuses
    assert sum(accepted.values()) > 50, accepted
    with sqlite3.connect(server.db) as db:
        for (match_id, seat), count in accepted.items():
            logged = db.execute(
                "SELECT COUNT(*) FROM games_event WHERE match_id = ? AND actor = ?"
                " AND action IS NOT NULL AND by_bot = 0",
                (uuid.UUID(match_id).hex, seat),
            ).fetchone()[0]
            print(f"match {match_id[:8]} seat {seat}: accepted {count}, logged {logged}")
            assert logged == count, (match_id, seat, logged, count)
