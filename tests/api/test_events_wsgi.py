"""The events endpoint under WSGI (gunicorn, the test client) never holds a worker.

Only the ASGI follower honours ``wait``; the WSGI twin answers at once with what there is,
unless ``FIBSERVER["WSGI_LONG_POLL"]`` is on (the embedded development server, threaded)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from accounts.services import guest_create
from games import services
from kernel.devserver import free_port
from tests.api.openapi_validation import document

ROOT = Path(__file__).resolve().parents[2]


def lobby_match():
    user, token = guest_create()
    match = services.match_create(user=user, game="fabfib", seats=3)
    match.refresh_from_db()
    return match, token


@pytest.mark.django_db
def test_under_wsgi_a_wait_is_answered_at_once(client):
    match, _ = lobby_match()
    started = time.monotonic()
    response = client.get(f"/api/matches/{match.pk}/events/?after={match.last_seq}&wait=5")
    seconds = time.monotonic() - started
    assert response.status_code == 200
    assert response.json()["events"] == []
    assert seconds < 2.5, f"the WSGI view held the request for {seconds:.1f} s"


@pytest.mark.django_db
def test_under_wsgi_wait_is_still_validated(client):
    match, _ = lobby_match()
    response = client.get(f"/api/matches/{match.pk}/events/?wait=99")
    assert response.status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["?limit=5", "?after=0&limit=5", "?after=0&wait=0&page=2"])
def test_an_unknown_query_parameter_is_refused_by_name(client, query):
    """The feed takes ``after``, ``wait`` and ``seat``; a page holds at most 200 events and
    ``more`` says to ask again, so there is no ``limit``: asking for one is a 400, not ignored."""
    match, _ = lobby_match()
    response = client.get(f"/api/matches/{match.pk}/events/{query}")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    unknown = "page" if "page" in query else "limit"
    assert error["code"] == "invalid" and set(error["fields"]) == {unknown}, error
    assert unknown in error["message"] and "after, seat, wait" in error["message"], error
    params = [
        p["name"]
        for p in document()["paths"]["/api/matches/{match_id}/events/"]["get"]["parameters"]
    ]
    assert unknown not in params and {"after", "wait", "seat"} <= set(params)


@pytest.mark.django_db
def test_the_format_override_every_endpoint_takes_is_not_an_unknown_parameter(client):
    match, _ = lobby_match()
    response = client.get(f"/api/matches/{match.pk}/events/?after=0&format=json")
    assert response.status_code == 200, response.content


@pytest.mark.django_db
def test_the_embedded_development_server_may_wait(client, settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "WSGI_LONG_POLL": True}
    match, _ = lobby_match()
    started = time.monotonic()
    response = client.get(f"/api/matches/{match.pk}/events/?after={match.last_seq}&wait=1")
    assert response.status_code == 200 and response.json()["events"] == []
    assert time.monotonic() - started >= 0.9


# --- A real gunicorn ---------------------------------------------------------------------------


def get(url: str, timeout: float) -> tuple[int, dict, float]:
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, json.loads(response.read()), time.monotonic() - started


@pytest.fixture
def gunicorn_url():
    """``gunicorn fibserver.wsgi`` with 2 sync workers, as in production, on the test database."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "DJANGO_SETTINGS_MODULE", "FIBSERVER_WSGI_LONG_POLL"}
    }
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}{password}@{host}:{port}/{db['NAME']}",
        DB_CONN_MAX_AGE="0",
        DJANGO_SETTINGS_MODULE="fibserver.settings",
    )
    bind = f"127.0.0.1:{free_port()}"
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "fibserver.wsgi:application", "-w", "2"),
            *("-b", bind, "--timeout", "60", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    url = f"http://{bind}"
    try:
        for _ in range(300):
            assert process.poll() is None, "gunicorn exited"
            try:
                if get(f"{url}/healthz/", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("gunicorn did not come up")
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (CI has it)")
def test_waiting_followers_cannot_starve_the_api_workers(gunicorn_url):
    match, _ = lobby_match()
    # The longest wait a client may ask: a worker that honoured it would hold each follower
    # 30 s, so anything well under that shows the answer came at once (a loaded CI machine
    # may take seconds to answer five requests on two workers).
    url = f"{gunicorn_url}/api/matches/{match.pk}/events/?after={match.last_seq}&wait=30"
    answers: list[tuple[int, dict, float]] = []

    def follow() -> None:  # anonymous, as a spectator
        answers.append(get(url, timeout=60))

    followers = [threading.Thread(target=follow) for _ in range(5)]
    for thread in followers:
        thread.start()
    time.sleep(0.5)  # the followers have reached the workers
    status, body, seconds = get(f"{gunicorn_url}/healthz/", timeout=30)
    assert status == 200 and body["status"] == "ok"
    assert seconds < 15, f"/healthz/ took {seconds:.1f} s behind 5 waiting followers"
    for thread in followers:
        thread.join(timeout=60)
    assert len(answers) == 5
    for status, body, seconds in answers:
        assert status == 200 and body["events"] == []
        assert seconds < 15, f"a follower was held {seconds:.1f} s by a WSGI worker"
