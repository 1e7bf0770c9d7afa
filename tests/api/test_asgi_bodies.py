"""Request bodies are bounded on the ASGI server (the follower and ``scripts/serve``), as
gunicorn bounds them on the API: a lying or oversized ``Content-Length``, a slow body and a
body that never ends are each answered 4xx in the JSON error shape within a stated time
(``fibserver/asgiguard.py``), over a real socket to uvicorn."""

from __future__ import annotations

import json
import socket
import time

import pytest

from fibserver import asgiguard
from tests.servers import follower_in_a_thread

pytestmark = pytest.mark.django_db(transaction=True)

BODY_SECONDS = 1.0
PATH = b"/api/auth/guest/"


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setattr(asgiguard, "BODY_SECONDS", BODY_SECONDS)
    with follower_in_a_thread() as address:
        host, port = address.split(":")
        yield host, int(port)


def _head(length: str | None = None, chunked: bool = False) -> bytes:
    lines = [b"POST " + PATH + b" HTTP/1.1", b"Host: localhost", b"Content-Type: application/json"]
    if length is not None:
        lines.append(b"Content-Length: " + length.encode())
    if chunked:
        lines.append(b"Transfer-Encoding: chunked")
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _answer(sock: socket.socket, seconds: float = 10) -> tuple[int, dict[str, str], dict]:
    sock.settimeout(seconds)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed without an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
    while len(body) < int(headers["content-length"]):
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, json.loads(body)


def _closed(sock: socket.socket) -> bool:
    sock.settimeout(5)
    try:
        while sock.recv(65536):
            pass
    except (ConnectionResetError, BrokenPipeError):
        pass
    return True


def test_an_oversized_content_length_is_refused_at_once_unread(server):
    with socket.create_connection(server) as sock:
        began = time.monotonic()
        sock.sendall(_head("10000000") + b"x" * 65536)
        status, headers, body = _answer(sock)
        assert status == 413 and body["error"]["code"] == "payload_too_large"
        assert time.monotonic() - began < 1.0
        assert headers["connection"] == "close" and _closed(sock)


def test_a_content_length_larger_than_what_is_sent_times_out(server):
    with socket.create_connection(server) as sock:
        began = time.monotonic()
        sock.sendall(_head("1000") + b'{"display_name": "x"}')
        status, _headers, body = _answer(sock)
        waited = time.monotonic() - began
    assert status == 408 and body["error"]["code"] == "request_timeout"
    assert BODY_SECONDS * 0.9 <= waited < BODY_SECONDS + 2


def test_a_slow_body_times_out(server):
    with socket.create_connection(server) as sock:
        began = time.monotonic()
        sock.sendall(_head("100"))
        status = None
        for _ in range(100):  # a byte every 0.2 s: 20 s for the whole body
            try:
                sock.sendall(b" ")
            except OSError:
                break
            time.sleep(0.2)
            if time.monotonic() - began > BODY_SECONDS + 0.5:
                break
        status, _headers, body = _answer(sock)
        waited = time.monotonic() - began
    assert status == 408, body
    assert waited < BODY_SECONDS + 2


def test_a_chunked_body_that_never_ends_is_refused_when_it_passes_the_limit(server):
    with socket.create_connection(server) as sock:
        sock.sendall(_head(chunked=True))
        chunk = b"x" * 8192
        began = time.monotonic()
        try:
            for _ in range(1000):  # 8 MiB, if nobody stopped it
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass  # the server answered and closed
        status, _headers, body = _answer(sock)
    assert status == 413 and body["error"]["code"] == "payload_too_large"
    assert time.monotonic() - began < BODY_SECONDS + 2


def test_a_body_within_bounds_is_served_as_before(server):
    with socket.create_connection(server) as sock:
        payload = b'{"display_name": "Bounded"}'
        sock.sendall(_head(str(len(payload))) + payload)
        status, _headers, body = _answer(sock)
    assert status == 201, body
    assert body["user"]["display_name"] == "Bounded"
