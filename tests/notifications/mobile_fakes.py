"""Local fakes of the two mobile push services, started by the tests on 127.0.0.1 (never a
network call):

- :class:`FakeFCM`: an OAuth 2 token endpoint that checks the service account's signed
  assertion (RS256, with the account's public key) and issues access tokens, and the FCM HTTP v1
  ``messages:send`` endpoint, which checks the bearer token and the message's shape;
- :class:`FakeAPNs`: an HTTP/2 server (the ``h2`` package, cleartext with prior knowledge) that
  checks the provider JWT (ES256) with the public key of the ``.p8`` key, the topic and the
  payload's shape.

Both record what they took, answer 200 unless told otherwise (``unregistered`` tokens, or a
queue of scripted answers in ``script``) and collect what they found wrong in ``errors``.
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import h2.config
import h2.connection
import h2.events
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

PROJECT = "fib-test"
TEAM_ID = "TEAM123456"
KEY_ID = "KEY1234567"
TOPIC = "com.example.fibserver"


class FakeFCM:
    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.tokens: set[str] = set()
        self.messages: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.unregistered: set[str] = set()
        self.invalid: set[str] = set()
        #: Answers given before the normal ones: ``(status, json body, headers)``.
        self.script: list[tuple[int, dict[str, Any], dict[str, str]]] = []
        self.token_requests = 0
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def account(self) -> dict[str, Any]:
        """The service-account JSON, its ``token_uri`` on this fake."""
        pem = self.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()
        return {
            "type": "service_account",
            "project_id": PROJECT,
            "private_key_id": "key-1",
            "private_key": pem,
            "client_email": f"push@{PROJECT}.iam.gserviceaccount.com",
            "client_id": "1",
            "token_uri": f"{self.base}/token",
        }

    def _token(self, form: dict[str, list[str]]) -> tuple[int, dict[str, Any]]:
        grant = form.get("grant_type", [""])[0]
        if grant != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            self.errors.append(f"grant_type {grant!r}")
            return 400, {"error": "unsupported_grant_type"}
        try:
            claims = jwt.decode(
                form.get("assertion", [""])[0],
                self.key.public_key(),
                algorithms=["RS256"],
                # google-auth names Google's token endpoint as the audience wherever the
                # account's token_uri points (the assertion is what Google's endpoint checks)
                audience="https://oauth2.googleapis.com/token",
            )
        except jwt.PyJWTError as error:
            self.errors.append(f"assertion: {error}")
            return 400, {"error": "invalid_grant"}
        if claims.get("scope") != "https://www.googleapis.com/auth/firebase.messaging":
            self.errors.append(f"scope {claims.get('scope')!r}")
        token = secrets.token_urlsafe(24)
        with self.lock:
            self.tokens.add(token)
            self.token_requests += 1
        return 200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"}

    def _send(self, path: str, headers: Any, body: bytes) -> tuple[int, dict[str, Any], dict]:
        if path != f"/v1/projects/{PROJECT}/messages:send":
            self.errors.append(f"path {path}")
            return 404, {"error": {"code": 404, "status": "NOT_FOUND"}}, {}
        auth = headers.get("Authorization", "")
        if not auth.startswith("Bearer ") or auth[7:] not in self.tokens:
            self.errors.append("bearer token not issued by the token endpoint")
            return 401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}}, {}
        try:
            message = json.loads(body)["message"]
            token = message["token"]
            assert isinstance(token, str) and token
            note = message["notification"]
            assert isinstance(note["title"], str) and isinstance(note["body"], str)
            data = message["data"]
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())
            assert message["android"]["priority"] in ("high", "normal")
        except (ValueError, KeyError, TypeError, AssertionError) as error:
            self.errors.append(f"message shape: {error!r}")
            return 400, {"error": {"code": 400, "status": "INVALID_ARGUMENT"}}, {}
        with self.lock:
            if self.script:
                return self.script.pop(0)
        if token in self.unregistered:
            details = [
                {
                    "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                    "errorCode": "UNREGISTERED",
                }
            ]
            return 404, {"error": {"code": 404, "status": "NOT_FOUND", "details": details}}, {}
        if token in self.invalid:
            refusal = {
                "code": 400,
                "status": "INVALID_ARGUMENT",
                "message": "The registration token is not a valid FCM registration token",
                "details": [
                    {
                        "@type": "type.googleapis.com/google.rpc.BadRequest",
                        "fieldViolations": [{"field": "message.token"}],
                    }
                ],
            }
            return 400, {"error": refusal}, {}
        with self.lock:
            self.messages.append(message)
        return 200, {"name": f"projects/{PROJECT}/messages/{uuid.uuid4()}"}, {}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                extra: dict[str, str] = {}
                if self.path == "/token":
                    status, answer = fake._token(parse_qs(body.decode()))
                else:
                    status, answer, extra = fake._send(self.path, self.headers, body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def settings(self) -> dict[str, Any]:
        return {"FCM_SERVICE_ACCOUNT": json.dumps(self.account()), "FCM_URL": self.base}


class FakeAPNs:
    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.messages: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.unregistered: set[str] = set()
        self.bad: set[str] = set()
        self.script: list[tuple[int, dict[str, Any], dict[str, str]]] = []
        self.protocols: list[str] = []
        self.lock = threading.Lock()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.running = True

    def pem(self) -> str:
        return self.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()

    def settings(self) -> dict[str, Any]:
        return {
            "APNS_KEY": self.pem(),
            "APNS_KEY_ID": KEY_ID,
            "APNS_TEAM_ID": TEAM_ID,
            "APNS_TOPIC": TOPIC,
            "APNS_URL": self.base,
        }

    def serve(self) -> None:
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._connection, args=(conn,), daemon=True).start()

    def _connection(self, sock: socket.socket) -> None:
        config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8")
        conn = h2.connection.H2Connection(config=config)
        conn.initiate_connection()
        sock.sendall(conn.data_to_send())
        streams: dict[int, dict[str, Any]] = {}
        try:
            while True:
                data = sock.recv(65535)
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        streams[event.stream_id] = {"headers": dict(event.headers), "body": b""}
                        with self.lock:
                            self.protocols.append("h2")
                    elif isinstance(event, h2.events.DataReceived):
                        streams[event.stream_id]["body"] += event.data
                        conn.acknowledge_received_data(
                            event.flow_controlled_length, event.stream_id
                        )
                    elif isinstance(event, h2.events.StreamEnded):
                        request = streams.pop(event.stream_id)
                        status, answer, extra = self._answer(request["headers"], request["body"])
                        headers = [(":status", str(status)), ("apns-id", str(uuid.uuid4()))]
                        headers += list(extra.items())
                        if answer:
                            conn.send_headers(event.stream_id, headers)
                            conn.send_data(
                                event.stream_id, json.dumps(answer).encode(), end_stream=True
                            )
                        else:
                            conn.send_headers(event.stream_id, headers, end_stream=True)
                sock.sendall(conn.data_to_send())
        except OSError:
            return
        finally:
            sock.close()

    def _answer(self, headers: dict[str, str], body: bytes) -> tuple[int, dict, dict]:
        path = headers.get(":path", "")
        if headers.get(":method") != "POST" or not path.startswith("/3/device/"):
            self.errors.append(f"request {headers.get(':method')} {path}")
            return 404, {"reason": "BadPath"}, {}
        token = path[len("/3/device/") :]
        auth = headers.get("authorization", "")
        try:
            assert auth.startswith("bearer ")
            provider = auth[7:]
            assert jwt.get_unverified_header(provider).get("kid") == KEY_ID
            claims = jwt.decode(provider, self.key.public_key(), algorithms=["ES256"])
            assert claims["iss"] == TEAM_ID and isinstance(claims["iat"], int)
        except (AssertionError, KeyError, jwt.PyJWTError) as error:
            self.errors.append(f"provider token: {error!r}")
            return 403, {"reason": "InvalidProviderToken"}, {}
        if headers.get("apns-topic") != TOPIC:
            self.errors.append(f"topic {headers.get('apns-topic')!r}")
            return 400, {"reason": "TopicDisallowed"}, {}
        try:
            payload = json.loads(body)
            alert = payload["aps"]["alert"]
            assert isinstance(alert["title"], str) and isinstance(alert["body"], str)
            assert headers.get("apns-push-type") == "alert"
        except (ValueError, KeyError, TypeError, AssertionError) as error:
            self.errors.append(f"payload shape: {error!r}")
            return 400, {"reason": "BadPayload"}, {}
        with self.lock:
            if self.script:
                return self.script.pop(0)
        if token in self.unregistered:
            return 410, {"reason": "Unregistered", "timestamp": 1}, {}
        if token in self.bad:
            return 400, {"reason": "BadDeviceToken"}, {}
        with self.lock:
            self.messages.append({"token": token, "headers": headers, "payload": payload})
        return 200, {}, {}

    def close(self) -> None:
        self.running = False
        self.sock.close()


@contextmanager
def fake_fcm() -> Iterator[FakeFCM]:
    fake = FakeFCM()
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.server.shutdown()
        fake.server.server_close()


@contextmanager
def fake_apns() -> Iterator[FakeAPNs]:
    fake = FakeAPNs()
    thread = threading.Thread(target=fake.serve, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.close()
