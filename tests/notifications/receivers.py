"""Local receivers started by the tests: an HTTP endpoint and an SMTP server that record what
they are sent."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
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


class Mailbox:
    """What an :func:`smtp_receiver` was sent: each accepted message, parsed; ``refuse`` set to
    an SMTP reply ("451 …") makes it refuse the next messages with it."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.refuse: str | None = None
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse is not None:
            return self.refuse
        message = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.messages.append(message)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def smtp_receiver() -> Iterator[tuple[int, Mailbox]]:
    """``(port, mailbox)``: a real SMTP server (aiosmtpd) on 127.0.0.1 that keeps what it is
    sent."""
    from aiosmtpd.controller import Controller

    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield controller.port, mailbox
    finally:
        controller.stop()
