"""Local receivers started by the tests: an HTTP endpoint that records what it is sent."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Received:
    def __init__(self, status: int) -> None:
        self.status = status
        self.requests: list[tuple[dict[str, str], bytes]] = []
        self.lock = threading.Lock()


@contextmanager
def http_receiver(status: int = 200) -> Iterator[tuple[str, Received]]:
    """``(url, received)``: a server on 127.0.0.1 answering every POST with ``status``
    (change ``received.status`` to change it)."""
    received = Received(status)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with received.lock:
                received.requests.append(({k: v for k, v in self.headers.items()}, body))
            self.send_response(received.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", received
    finally:
        server.shutdown()
        server.server_close()
