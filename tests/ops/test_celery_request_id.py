"""The request id passes to the Celery tasks a request starts: a real worker (JSON logs) writes
it on the task's lines; the worker's own metrics port counts its tasks, behind the token."""

from __future__ import annotations

import contextlib
import os
import time
import urllib.error
import urllib.request
import uuid

import orjson
import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.api.helpers import Player

from .processes import Process, celery_worker, free_port

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not django_settings.REDIS_URL or connection.vendor != "postgresql",
        reason="needs Redis and PostgreSQL (CI has both)",
    ),
]

TOKEN = "celery-metrics-" + uuid.uuid4().hex


def json_lines(text: str) -> list[dict]:
    out = []
    for line in text.splitlines():
        if line.startswith("{"):
            with contextlib.suppress(orjson.JSONDecodeError):
                out.append(orjson.loads(line))
    return out


def test_a_requests_id_is_on_the_log_lines_of_the_tasks_it_started(settings, tmp_path):
    from fibserver.celery import app

    queue = f"fib-ops-test-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "celery", "BOT_DELAY_SECONDS": 0.02}
    db = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}",
        "FIBSERVER_QUEUE": queue,
        "FIBSERVER_TASKS": "celery",
        "FIBSERVER_BOT_DELAY": "0.02",
        "DB_CONN_MAX_AGE": "0",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "INFO",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        "METRICS_PORT": str(port),
        "METRICS_HOST": "127.0.0.1",
        "METRICS_TOKEN": TOKEN,
    }
    name = f"{queue}@localhost"
    worker = Process("worker", celery_worker(name, queue), env, tmp_path)
    rid = f"req-celery-{uuid.uuid4().hex[:8]}"
    try:
        for _ in range(120):
            if app.control.ping(destination=[name], timeout=0.5):
                break
            assert worker.alive(), worker.output()[-3000:]
        host = Player("Host")
        created = host.post(
            "/api/matches/",
            {"game": "fabfib", "seats": 3, "bots": ["random", "random"]},
            HTTP_X_REQUEST_ID=rid,
        )
        assert created.status_code == 201, created.content
        match_id = created.json()["id"]
        view = host.view(match_id)
        if view["legal_actions"]:  # the human starts: its move starts the bots' turns
            import random

            from games.engine.bots import random_action

            action = random_action(view["legal_actions"], random.Random(1))
            assert host.act(match_id, action, HTTP_X_REQUEST_ID=rid).status_code == 200
        found: list[dict] = []
        for _ in range(150):
            found = [
                line
                for line in json_lines(worker.output())
                if line.get("request_id") == rid and line.get("task") == "games.tasks.run_bot_turn"
            ]
            if found:
                break
            time.sleep(0.2)
        assert found, worker.output()[-4000:]
        assert found[0]["match_id"] == match_id
        assert found[0]["task_id"]

        request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 401
        assert orjson.loads(refused.value.read())["error"]["code"] == "not_authenticated"
        request.add_header("Authorization", f"Bearer {TOKEN}")
        with urllib.request.urlopen(request, timeout=10) as answer:
            text = answer.read().decode()
        assert (
            'fibserver_celery_tasks_total{outcome="success",task="games.tasks.run_bot_turn"}'
            in text
        )
        assert "fibserver_bot_decision_seconds_count" in text
    finally:
        worker.stop()
        app.conf.task_default_queue = previous
        with app.connection_for_write() as conn:
            conn.default_channel.queue_purge(queue)
