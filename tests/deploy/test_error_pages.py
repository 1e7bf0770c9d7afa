"""No HTML or plain-text error from anything a client can reach: nginx's own answers and
gunicorn's are in the API's one JSON error shape (docs/api.md)."""

from __future__ import annotations

import json
import re
import socket
import time
import uuid
from pathlib import Path

import pytest

from tests.ops.processes import ROOT, Process, free_port, gunicorn

NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def _named_locations() -> dict[str, tuple[int, dict[str, object], str]]:
    found = {}
    for name, body in re.findall(r"location (@\w+) \{(.*?)\n        \}", NGINX, re.S):
        status, payload = re.search(r"return (\d+) '(.*)';", body).groups()  # type: ignore[union-attr]
        found[name] = (int(status), json.loads(payload), body)
    return found


@pytest.mark.parametrize("status", [400, 413, 414, 494, 500, 502, 503, 504])
def test_every_error_nginx_makes_itself_is_a_json_error(status):
    pages = dict(re.findall(r"error_page ((?:\d+ )+)(@\w+);", NGINX))
    target = next(name for codes, name in pages.items() if str(status) in codes.split())
    answer, body, config = _named_locations()[target]
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])  # type: ignore[arg-type]
    assert "default_type application/json;" in config
    if status >= 502:
        assert answer == 503 and body["error"]["code"] == "unavailable"  # type: ignore[index]
        assert "add_header Retry-After 5 always;" in config


def _raw(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


@pytest.mark.slow
def test_gunicorn_answers_its_own_refusals_in_json(tmp_path: Path):
    import os

    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
        "SECRET_KEY": "test-" + uuid.uuid4().hex * 2,
    }
    server = Process("gunicorn", gunicorn(port, workers=1), env, tmp_path)
    try:
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.alive(), server.output()
                time.sleep(0.1)
        cases = [
            (b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", 414),
            (b"GET / HTTP/1.1\r\nHost: localhost\r\nX: " + b"b" * 10_000 + b"\r\n\r\n", 431),
            (b"G\x01T / HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
        ]
        for request, status in cases:
            answer, headers, body = _raw(port, request)
            assert answer == status, (answer, body)
            assert headers["Content-Type"] == "application/json"
            error = json.loads(body)["error"]
            assert error["code"] and error["message"], error
    finally:
        server.stop()
