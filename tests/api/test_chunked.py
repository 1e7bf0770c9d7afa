"""Request bodies sent with ``Transfer-Encoding: chunked``, over real sockets to real servers
(the Django test client cannot send them). They used to be read as empty bodies: a chunked
``POST /api/auth/guest/`` created a guest with its display name silently dropped.

Now (``api.middleware.InputGuardMiddleware``): where the server decodes the chunks and marks
the end of the body (gunicorn, which production runs, sets ``wsgi.input_terminated``; under
ASGI the body is always complete) the body is read like any other, up to
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413 beyond); where it does not (``runserver``), the length is
unknown and the answer is 411 ``length_required``."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from kernel.devserver import free_port

ROOT = Path(__file__).resolve().parents[2]
GUEST = b"/api/auth/guest/"


def wait_for_port(port: int, process: subprocess.Popen[bytes] | None = None) -> None:
    for _ in range(200):
        if process is not None:
            assert process.poll() is None, "the server exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


def chunked_post(
    port: int, body: bytes, *, size: int = 7, path: bytes = GUEST, end: bool = True
) -> tuple[int, dict[str, str], bytes]:
    """POST ``body`` in chunks of ``size`` bytes; with ``end=False`` the last chunk is never
    sent (the server must answer without waiting for it). Returns status, headers, body."""
    head = (
        b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" % path
    )
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(head)
        for start in range(0, len(body), size):
            piece = body[start : start + size]
            sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        if end:
            sock.sendall(b"0\r\n\r\n")
        raw = b""
        while True:
            try:
                part = sock.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                break
            raw += part
    head_bytes, _, content = raw.partition(b"\r\n\r\n")
    status_line, *lines = head_bytes.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines)}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        content = dechunk(content)
    return int(status_line.split()[1]), headers, content


def dechunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2 :]
    return out


def error_of(status: int, headers: dict[str, str], content: bytes) -> dict:
    assert headers["content-type"].startswith("application/json"), (status, content[:300])
    body = json.loads(content)
    assert set(body) == {"error"}, body
    return body["error"]


@pytest.fixture(scope="module")
def gunicorn_port(django_db_setup, tmp_path_factory) -> Iterator[int]:
    """gunicorn (sync workers, as in production) serving ``fibserver.wsgi`` in a subprocess,
    on the test database under PostgreSQL; on SQLite (an in-memory test database no other
    process can open) on a file of its own, migrated first (a token is looked up there)."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        database_url = f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}"
    else:
        database_url = f"sqlite:///{tmp_path_factory.mktemp('gunicorn')}/gunicorn.sqlite3"
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "FIBSERVER_TASKS": "inline",
        "DB_CONN_MAX_AGE": "0",
    }
    if connection.vendor != "postgresql":
        migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True, timeout=300)
    command = [sys.executable, "-m", "gunicorn", "fibserver.wsgi:application", "--workers", "1"]
    process = subprocess.Popen(
        [*command, "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        wait_for_port(port, process)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


@pytest.fixture
def runserver_port() -> Iterator[int]:
    """The server ``manage.py runserver`` runs (Django's WSGIServer), in a thread."""
    from django.core.servers.basehttp import (
        WSGIRequestHandler,
        WSGIServer,
        get_internal_wsgi_application,
    )

    server = WSGIServer(("127.0.0.1", 0), WSGIRequestHandler)
    server.set_app(get_internal_wsgi_application())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def uvicorn_port() -> Iterator[int]:
    """uvicorn serving ``fibserver.asgi`` (the follower process) in a thread."""
    import uvicorn

    from fibserver.asgi import application

    port = free_port()
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for_port(port)
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.slow  # a real gunicorn process
def test_gunicorn_reads_a_chunked_body(gunicorn_port):
    """The body is read (a field error for a number as the name, not a guest without one)."""
    error = error_of(*chunked_post(gunicorn_port, b'{"display_name": ["x"]}'))
    assert error["code"] == "invalid" and "display_name" in error["fields"]
    deep = error_of(*chunked_post(gunicorn_port, b"[" * 40 + b"]" * 40, size=3))
    assert deep["code"] == "malformed_request"


@pytest.mark.slow  # a real gunicorn process
def test_gunicorn_refuses_a_chunked_body_over_the_limit(gunicorn_port):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = b'{"display_name": "' + b"x" * limit + b'"}'
    status, headers, content = chunked_post(gunicorn_port, body, size=4096, end=False)
    assert status == 413
    assert error_of(status, headers, content)["code"] == "payload_too_large"


@pytest.mark.slow  # a real gunicorn process
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the server process needs the DB")
def test_gunicorn_creates_a_guest_from_a_chunked_body(gunicorn_port):
    from accounts.models import User

    status, _headers, content = chunked_post(gunicorn_port, b'{"display_name": "Chunky"}')
    assert status == 201, content
    user = json.loads(content)["user"]
    assert user["display_name"] == "Chunky"
    assert User.objects.get(pk=user["id"]).display_name == "Chunky"


def test_runserver_answers_a_chunked_body_with_411(runserver_port):
    status, headers, content = chunked_post(runserver_port, b"", end=False)
    assert status == 411
    error = error_of(status, headers, content)
    assert error["code"] == "length_required" and "Content-Length" in error["message"]


def test_uvicorn_reads_a_chunked_body(uvicorn_port):
    error = error_of(*chunked_post(uvicorn_port, b'{"display_name": ["x"]}'))
    assert error["code"] == "invalid" and "display_name" in error["fields"]
    status, headers, content = chunked_post(uvicorn_port, b"[" * 40 + b"]" * 40)
    assert error_of(status, headers, content)["code"] == "malformed_request"


@pytest.mark.slow  # a real gunicorn process
def test_gunicorn_answers_a_chunked_move_the_door_hands_over(gunicorn_port):
    """A chunked move without a token goes through the door's short handler, which reads the
    body and hands the request over: the full handler still reads it (its 401, not the 400
    for a Content-Length beside a Transfer-Encoding)."""
    path = b"/api/matches/00000000-0000-0000-0000-000000000000/actions/"
    status, headers, content = chunked_post(gunicorn_port, b'{"type": "call"}', path=path)
    assert status == 401, content
    assert error_of(status, headers, content)["code"] == "not_authenticated"


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("POST", "/api/matches/%D9%A3/actions/", {}),
        ("GET", "/api/matches/%D9%A3/", {"Authorization": "Bearer nope"}),
        ("GET", "/api/matches/%F0%9F%82%A1/", {"Accept": "application/xml"}),
    ],
)
@pytest.mark.slow  # a real gunicorn process
def test_gunicorn_answers_a_non_ascii_match_id_the_door_hands_over(
    gunicorn_port, method, path, headers
):
    """A match id beyond Latin-1 in a request the door's short handler hands over: the full
    handler's JSON 4xx, not gunicorn's HTML 500 (the short handler had left the decoded path
    in the environ)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", gunicorn_port, timeout=20)
    body = b"{}" if method == "POST" else None
    conn.request(method, path, body, {"Content-Type": "application/json", **headers})
    response = conn.getresponse()
    content = response.read()
    conn.close()
    answer = {k.lower(): v for k, v in response.getheaders()}
    assert 400 <= response.status < 500, (response.status, content[:300])
    assert error_of(response.status, answer, content)["code"]
