"""Webhooks: a notification POSTed as JSON to the user's HTTPS endpoint, signed.

The ``Fibserver-Signature`` header is ``t=<unix seconds>,v1=<hex>``, where ``<hex>`` is the
HMAC-SHA256, keyed with the webhook's secret, of ``"<t>." + body``. A receiver recomputes it,
compares in constant time and refuses a ``t`` outside its replay window (:func:`verify`, five
minutes by default). Any 2xx is success; a 4xx other than 408 and 429 is final (the endpoint
refuses it); anything else — 5xx, a time-out, a refused connection — is tried again.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
import urllib3
from django.conf import settings

from . import Failed

HEADER = "Fibserver-Signature"
#: Seconds a receiver accepts a signature's timestamp either side of its clock.
REPLAY_WINDOW = 300
TIMEOUT_SECONDS = 5.0


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, "NOTIFICATIONS", {}).get(name, default)


def sign(secret: str, body: bytes, at: int | None = None) -> str:
    """The signature header's value for ``body`` at unix time ``at`` (now)."""
    stamp = int(time.time()) if at is None else at
    mac = hmac.new(secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={stamp},v1={mac}"


def verify(
    secret: str, header: str, body: bytes, *, window: int = REPLAY_WINDOW, now: float | None = None
) -> bool:
    """Whether ``header`` signs ``body`` with ``secret`` within ``window`` seconds of ``now``."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        stamp = int(parts["t"])
        given = parts["v1"]
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - stamp) > window:
        return False
    expected = sign(secret, body, stamp).split("v1=", 1)[1]
    return hmac.compare_digest(expected, given)


def allowed_url(url: str) -> bool:
    """An ``https`` URL (``http`` only where ``WEBHOOK_ALLOW_HTTP`` is set: tests, a trusted
    local network) whose host is not a loopback, private or link-local address unless
    ``WEBHOOK_ALLOW_PRIVATE`` says so (no calls into the server's own network)."""
    parts = urlsplit(url)
    schemes = {"https", "http"} if _setting("WEBHOOK_ALLOW_HTTP", False) else {"https"}
    if parts.scheme not in schemes or not parts.hostname:
        return False
    if _setting("WEBHOOK_ALLOW_PRIVATE", False):
        return True
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except OSError:
        return True  # not resolvable now: the send fails and is tried again
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            return False
    return True


def send(url: str, secret: str, payload: dict[str, Any]) -> None:
    """POST ``payload``; raises :class:`Failed` unless the endpoint answers 2xx."""
    if not allowed_url(url):
        raise Failed("the URL is not an allowed webhook endpoint", permanent=True)
    body = orjson.dumps({"type": "notification", "notification": payload})
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "fibserver-webhook",
        HEADER: sign(secret, body),
    }
    try:
        response = _pool().request(
            "POST",
            url,
            body=body,
            headers=headers,
            timeout=urllib3.Timeout(TIMEOUT_SECONDS),
            retries=False,
            redirect=False,
            preload_content=False,
        )
        response.read(1024, decode_content=False)
        response.release_conn()
    except (urllib3.exceptions.HTTPError, OSError) as error:
        raise Failed(f"{type(error).__name__}: {error}") from None
    if not 200 <= response.status < 300:
        final = 400 <= response.status < 500 and response.status not in (408, 429)
        raise Failed(f"HTTP {response.status}", permanent=final)


_pools: urllib3.PoolManager | None = None


def _pool() -> urllib3.PoolManager:
    """Kept-alive connections, per endpoint, shared by a process's sending threads."""
    global _pools
    if _pools is None:
        _pools = urllib3.PoolManager(num_pools=200, maxsize=16, block=False)
    return _pools
