"""Web Push (RFC 8030): a notification encrypted to a browser's subscription (RFC 8291,
``aes128gcm``) and POSTed to its push service, signed with the server's VAPID key (RFC 8292).

The VAPID key is ``NOTIFICATIONS["VAPID_PRIVATE_KEY"]`` (a P-256 private key: the raw 32 bytes
base64url, or PEM); unset, it is derived from ``SECRET_KEY`` (HKDF), so every process of one
deployment signs with the same key and the browsers' subscriptions keep working across restarts
(changing ``SECRET_KEY`` then changes it: subscribe again). The payload is the notification as
its recipient sees it (:func:`notifications.reads.render`), with a title and a line of text for
the browser to show. A 2xx is success; 404 or 410 says the subscription is gone: it is deleted
(the delivery's record stays); 429 and 5xx are tried again; any other 4xx is final.
"""

from __future__ import annotations

import base64
import time
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import orjson
import urllib3
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPusher, WebPushException

from . import Failed
from .email import SUBJECTS, text_of
from .webhook import TIMEOUT_SECONDS, _pool, allowed_url

#: How long a push service keeps a message for a browser that is offline (seconds).
TTL_SECONDS = 86400
#: The largest plaintext a push service must take (4096 bytes encrypted, RFC 8291 §4).
MAX_PAYLOAD = 3993


class Gone(Failed):
    """The push service no longer knows the subscription (404, 410): delete it."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail, permanent=True)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, "NOTIFICATIONS", {}).get(name, default)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """base64url with or without its padding; raises ``ValueError`` when it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as error:
        raise ValueError("not base64url") from error


@cache
def _key_of(configured: str, secret: str) -> ec.EllipticCurvePrivateKey:
    if configured.strip().startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(configured.encode(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("VAPID_PRIVATE_KEY is not an EC key")
        return key
    if configured:
        return ec.derive_private_key(int.from_bytes(unb64url(configured), "big"), ec.SECP256R1())
    raw = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=b"fibserver vapid", info=b"web push"
    ).derive(secret.encode())
    order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    return ec.derive_private_key(int.from_bytes(raw, "big") % (order - 1) + 1, ec.SECP256R1())


def private_key() -> ec.EllipticCurvePrivateKey:
    """The server's VAPID key (configured, or derived from ``SECRET_KEY``)."""
    return _key_of(str(_setting("VAPID_PRIVATE_KEY", "") or ""), settings.SECRET_KEY)


def public_key() -> str:
    """The VAPID public key as a browser's ``applicationServerKey`` takes it (base64url of the
    uncompressed point)."""
    point = (
        private_key()
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return b64url(point)


def subject() -> str:
    """The VAPID ``sub`` claim: how a push service reaches the operator."""
    return str(_setting("VAPID_SUBJECT", "") or "mailto:fibserver@example.com")


def valid_keys(p256dh: str, auth: str) -> str | None:
    """What is wrong with a browser's keys (``None``: they are good)."""
    try:
        point, secret = unb64url(p256dh), unb64url(auth)
    except ValueError:
        return "The keys are not base64url."
    if len(secret) != 16:
        return "keys.auth must be 16 bytes."
    if len(point) != 65 or point[0] != 4:
        return "keys.p256dh must be an uncompressed P-256 point (65 bytes)."
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return "keys.p256dh is not a point of P-256."
    return None


def message_of(payload: dict[str, Any]) -> bytes:
    """What the browser receives: a title and text to show, where a tap leads, and the
    notification (its ``events`` left out if the whole would not fit in one push message)."""
    kind = payload["kind"]
    body = {
        "type": "notification",
        "title": "fibserver: " + SUBJECTS.get(kind, kind),
        "body": text_of(payload).strip(),
        "url": f"/play/#/match/{payload['match']}" if payload.get("match") else "/play/",
        "notification": payload,
    }
    data = orjson.dumps(body)
    if len(data) > MAX_PAYLOAD:
        body["notification"] = {**payload, "events": []}
        data = orjson.dumps(body)
    return data


def vapid_headers(endpoint: str) -> dict[str, str]:
    """``Authorization: vapid t=<JWT>,k=<public key>`` for the endpoint's push service."""
    parts = urlsplit(endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
        "sub": subject(),
    }
    return dict(Vapid02(private_key()).sign(claims))


def send(endpoint: str, p256dh: str, auth: str, payload: dict[str, Any]) -> None:
    """Encrypt ``payload`` to the subscription and POST it; raises :class:`Failed` (or
    :class:`Gone`) unless the push service answers 2xx."""
    if not allowed_url(endpoint):
        raise Failed("the endpoint is not an allowed push service URL", permanent=True)
    try:
        sealed = WebPusher({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}})
        body = sealed.encode(message_of(payload), content_encoding="aes128gcm")["body"]
    except (WebPushException, ValueError) as error:
        raise Failed(f"the subscription's keys are unusable: {error}", permanent=True) from None
    headers = {
        **vapid_headers(endpoint),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL_SECONDS),
        "Urgency": "high" if payload["kind"] in ("your_turn", "deadline_reminder") else "normal",
    }
    try:
        response = _pool().request(
            "POST",
            endpoint,
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
    if 200 <= response.status < 300:
        return
    if response.status in (404, 410):
        raise Gone(f"HTTP {response.status}: the subscription is gone (deleted)")
    final = 400 <= response.status < 500 and response.status not in (408, 429)
    raise Failed(f"HTTP {response.status}", permanent=final)
