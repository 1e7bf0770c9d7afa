"""A local push service started by the tests: it holds the subscriber's private key and
authentication secret (what a browser keeps), checks each message's VAPID JWT (RFC 8292) and
decrypts its ``aes128gcm`` payload (RFC 8291) as a browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(header: str, audience: str, server_key: str | None) -> dict[str, Any]:
    """The claims of ``Authorization: vapid t=<JWT>,k=<key>``; ``AssertionError`` unless the
    JWT is ES256-signed by ``k`` (the server's key, when given), for ``audience``, unexpired
    (at most a day ahead) and has a ``sub``."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid", header
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    token, key = parts["t"], parts["k"]
    if server_key is not None:
        assert key == server_key, "signed with another key"
    head, claims, signature = token.split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("bad VAPID signature") from None
    body = json.loads(unb64(claims))
    assert body["aud"] == audience, body
    assert time.time() < body["exp"] <= time.time() + 86400, body
    assert body["sub"].startswith(("mailto:", "https:")), body
    return body


@dataclass
class PushService:
    """What the receiver got: decrypted messages, and the failures of its checks."""

    status: int
    origin: str = ""
    server_key: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, name: str = "browser") -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives a page, for an endpoint of this service."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.origin}/push/{name}",
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }


@contextmanager
def push_service(status: int = 201, server_key: str | None = None) -> Iterator[PushService]:
    """A push service on 127.0.0.1 answering every POST with ``status`` (change
    ``service.status`` to change it); what passed its checks is in ``messages``."""
    service = PushService(status=status, server_key=server_key)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                assert headers["content-encoding"] == "aes128gcm", headers
                assert int(headers["ttl"]) > 0
                check_vapid(headers["authorization"], service.origin, service.server_key)
                plain = http_ece.decrypt(
                    body, private_key=service.key, auth_secret=service.auth, version="aes128gcm"
                )
                message = json.loads(plain)
            except Exception as error:  # a failed check: the sender is wrong
                with service.lock:
                    service.errors.append(f"{type(error).__name__}: {error}")
                self.send_response(400)
            else:
                with service.lock:
                    service.headers.append(headers)
                    if 200 <= service.status < 300:
                        service.messages.append(message)
                self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.origin = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
