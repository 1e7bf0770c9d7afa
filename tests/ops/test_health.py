"""Liveness and readiness apart: readiness fails while the database or Redis is unreachable
(a wrong URL here), liveness does not; /healthz/ is readiness by its older name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]

#: Asks a fresh process, configured by the environment given, for the three endpoints.
PROBE = """
import json, os, django
django.setup()
from django.test import Client
out = {}
for path in ("/livez/", "/readyz/", "/healthz/"):
    r = Client(HTTP_HOST="10.9.8.7").get(path)
    out[path] = [r.status_code, json.loads(r.content)]
print("PROBE" + json.dumps(out))
"""


def probe(tmp_path: Path, **env: str) -> dict:
    environ = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fibserver.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}",
        "REDIS_URL": "",
        "FIBSERVER_TASKS": "inline",
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("PROBE")), None)
    assert line is not None, done.stderr[-3000:]
    return json.loads(line[len("PROBE") :])


@pytest.mark.django_db
def test_ready_when_the_database_answers():
    for path in ("/readyz/", "/healthz/"):
        response = Client().get(path)
        assert response.status_code == 200
        assert response.json()["status"] == "ok" and response.json()["database"] == "ok"
    assert Client().get("/livez/").json() == {"status": "ok"}


def test_the_embedded_default_is_ready_without_redis(tmp_path):
    answers = probe(tmp_path)
    assert answers["/readyz/"] == [200, {"status": "ok", "database": "ok"}]
    assert answers["/livez/"] == [200, {"status": "ok"}]


@pytest.mark.slow  # a few seconds (a subprocess, or 50 matches): the full tier
def test_not_ready_while_the_database_is_unreachable(tmp_path):
    answers = probe(tmp_path, DATABASE_URL="postgres://nobody@127.0.0.1:1/nowhere")
    for path in ("/readyz/", "/healthz/"):
        status, body = answers[path]
        assert status == 503 and body["status"] == "error"
        assert body["database"] == "unavailable"
    assert answers["/livez/"] == [200, {"status": "ok"}]


@pytest.mark.slow  # a few seconds (a subprocess, or 50 matches): the full tier
def test_not_ready_while_redis_is_unreachable(tmp_path):
    answers = probe(tmp_path, REDIS_URL="redis://127.0.0.1:1/0")
    status, body = answers["/readyz/"]
    assert status == 503
    assert body == {"status": "error", "database": "ok", "redis": "unavailable"}
    assert answers["/livez/"] == [200, {"status": "ok"}]
