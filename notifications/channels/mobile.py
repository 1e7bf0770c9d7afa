"""Mobile push: a notification sent to a phone app's push token through its platform's service,
FCM HTTP v1 (Android, and iOS apps that use Firebase) or APNs (iOS), behind one interface,
:class:`Provider`: ``send(token, message)`` returns on success or raises
:class:`~notifications.channels.Failed` — :class:`Unregistered` when the service says the token
is no longer valid (the device is deleted; the delivery keeps its record), non-permanent with
``retry_after`` for 429 and 5xx (tried again after the back-off, or the service's
``Retry-After`` if longer).

Credentials come from ``settings.NOTIFICATIONS``; a platform without them is off (no delivery
is made for its devices):

- FCM: ``FCM_SERVICE_ACCOUNT`` (the service account's JSON, as text or a file path) and
  ``FCM_PROJECT_ID`` (default: the JSON's ``project_id``). The OAuth 2 access token is obtained
  and refreshed by ``google-auth`` from the account's ``token_uri``.
- APNs: ``APNS_KEY`` (the ``.p8`` key, as text or a file path), ``APNS_KEY_ID``,
  ``APNS_TEAM_ID``, ``APNS_TOPIC`` (the app's bundle id) and ``APNS_SANDBOX`` (true: the
  development service). The provider token is an ES256 JWT (PyJWT), renewed every 50 minutes;
  requests go over HTTP/2 (httpx).

``FCM_URL`` / ``APNS_URL`` replace the services' addresses (the tests' local fakes).

The message is made from the notification as its recipient sees it
(:func:`notifications.reads.render`, the one redaction path): a title and a line of text, and
in the data what a tapped notification needs to open the right state — the notification's id
and kind, and ``match``, ``version`` and ``seat`` when it has them.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Protocol

import httpx
import jwt
from django.conf import settings

from . import Failed
from .email import SUBJECTS, text_of
from .web_push import TTL_SECONDS, Gone

TIMEOUT_SECONDS = 10.0
FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
FCM_URL = "https://fcm.googleapis.com"
APNS_URL = "https://api.push.apple.com"
APNS_SANDBOX_URL = "https://api.sandbox.push.apple.com"
#: How long one APNs provider token is used (Apple: between 20 and 60 minutes).
APNS_TOKEN_SECONDS = 50 * 60
#: Longest text of a message's body.
MAX_BODY = 400


class Unregistered(Gone):
    """The push service no longer knows the token: the device is deleted."""


@dataclass(frozen=True)
class Message:
    """What a phone shows, and the data its app reads when it is tapped (strings only)."""

    title: str
    body: str
    data: dict[str, str] = field(default_factory=dict)
    urgent: bool = False


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, "NOTIFICATIONS", {}).get(name, default)


def message_of(payload: dict[str, Any]) -> Message:
    """The message of a rendered notification."""
    kind = payload["kind"]
    data = {"type": "notification", "kind": kind}
    if payload.get("id") is not None:
        data["id"] = str(payload["id"])
    for key in ("match", "version", "seat"):
        if payload.get(key) is not None:
            data[key] = str(payload[key])
    data["url"] = f"/play/#/match/{payload['match']}" if payload.get("match") else "/play/"
    return Message(
        title="fibserver: " + SUBJECTS.get(kind, kind),
        body=text_of(payload).strip()[:MAX_BODY],
        data=data,
        urgent=kind in ("your_turn", "deadline_reminder"),
    )


def fcm_body(token: str, message: Message) -> dict[str, Any]:
    """The body of an FCM v1 ``messages:send``."""
    return {
        "message": {
            "token": token,
            "notification": {"title": message.title, "body": message.body},
            "data": message.data,
            "android": {
                "priority": "high" if message.urgent else "normal",
                "ttl": f"{TTL_SECONDS}s",
            },
            "apns": {"headers": {"apns-priority": "10" if message.urgent else "5"}},
        }
    }


def apns_body(message: Message) -> dict[str, Any]:
    """The body of an APNs request: ``aps`` and the data beside it."""
    return {
        "aps": {"alert": {"title": message.title, "body": message.body}, "sound": "default"},
        **message.data,
    }


class Provider(Protocol):
    platform: str

    def send(self, token: str, message: Message) -> None: ...


def _text_or_file(value: str) -> str:
    """A credential given inline, or the path of a file holding it."""
    stripped = value.strip()
    if stripped.startswith(("{", "-----BEGIN")):
        return stripped
    return Path(stripped).read_text()


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _transient(response: httpx.Response, detail: str) -> Failed:
    return Failed(detail, retry_after=_retry_after(response))


class FCM:
    """Firebase Cloud Messaging, HTTP v1: ``POST /v1/projects/<id>/messages:send``."""

    platform = "fcm"

    def __init__(self, account: dict[str, Any], project_id: str, base_url: str) -> None:
        from google.oauth2 import service_account

        self.credentials = service_account.Credentials.from_service_account_info(
            account, scopes=[FCM_SCOPE]
        )
        self.url = f"{base_url.rstrip('/')}/v1/projects/{project_id}/messages:send"
        self.client = httpx.Client(timeout=TIMEOUT_SECONDS, follow_redirects=False)
        self._lock = threading.Lock()

    def access_token(self) -> str:
        """A valid OAuth 2 token (refreshed by google-auth when it expires)."""
        import google.auth.exceptions
        from google.auth.transport.requests import Request

        with self._lock:
            if not self.credentials.valid:
                try:
                    self.credentials.refresh(Request())
                except google.auth.exceptions.GoogleAuthError as error:
                    raise Failed(f"FCM: no access token: {error}"[:300]) from None
            return str(self.credentials.token)

    def send(self, token: str, message: Message) -> None:
        body = fcm_body(token, message)
        headers = {"Authorization": f"Bearer {self.access_token()}"}
        try:
            response = self.client.post(self.url, json=body, headers=headers)
        except httpx.HTTPError as error:
            raise Failed(f"FCM: {type(error).__name__}: {error}") from None
        if 200 <= response.status_code < 300:
            return
        status, code, text = _fcm_error(response)
        detail = f"FCM: HTTP {response.status_code} {status} {code}".strip()
        if response.status_code == 404 or code == "UNREGISTERED":
            raise Unregistered(f"{detail}: the token is unregistered (device deleted)")
        if response.status_code == 400 and status == "INVALID_ARGUMENT" and "token" in text:
            raise Unregistered(f"{detail}: the token is not valid (device deleted)")
        if response.status_code == 401:
            with self._lock:  # the token was refused: get a new one next time
                self.credentials.token = None
            raise Failed(detail)
        if response.status_code in (408, 429) or response.status_code >= 500:
            raise _transient(response, detail)
        raise Failed(detail, permanent=True)


def _fcm_error(response: httpx.Response) -> tuple[str, str, str]:
    """``(status, FCM error code, lower-cased text)`` of an FCM error answer."""
    try:
        error = response.json().get("error", {})
    except (ValueError, AttributeError):
        return "", "", ""
    if not isinstance(error, dict):
        return "", "", ""
    code = ""
    for detail in error.get("details") or []:
        if isinstance(detail, dict) and detail.get("errorCode"):
            code = str(detail["errorCode"])
    return str(error.get("status", "")), code, json.dumps(error).lower()


class APNs:
    """Apple Push Notification service over HTTP/2 with a provider token (ES256 JWT)."""

    platform = "apns"

    def __init__(self, key: str, key_id: str, team_id: str, topic: str, base_url: str) -> None:
        self.key, self.key_id, self.team_id, self.topic = key, key_id, team_id, topic
        self.base_url = base_url.rstrip("/")
        self.client = httpx.Client(
            http1=False, http2=True, timeout=TIMEOUT_SECONDS, follow_redirects=False
        )
        self._lock = threading.Lock()
        self._token: tuple[float, str] | None = None

    def provider_token(self, *, renew: bool = False) -> str:
        with self._lock:
            now = time.time()
            if renew or self._token is None or now - self._token[0] >= APNS_TOKEN_SECONDS:
                claims = {"iss": self.team_id, "iat": int(now)}
                signed = jwt.encode(
                    claims, self.key, algorithm="ES256", headers={"kid": self.key_id}
                )
                self._token = (now, signed)
            return self._token[1]

    def send(self, token: str, message: Message) -> None:
        body = apns_body(message)
        headers = {
            "authorization": f"bearer {self.provider_token()}",
            "apns-topic": self.topic,
            "apns-push-type": "alert",
            "apns-priority": "10" if message.urgent else "5",
            "apns-expiration": str(int(time.time()) + TTL_SECONDS),
        }
        try:
            response = self.client.post(
                f"{self.base_url}/3/device/{token}", json=body, headers=headers
            )
        except httpx.HTTPError as error:
            raise Failed(f"APNs: {type(error).__name__}: {error}") from None
        if response.status_code == 200:
            return
        try:
            reason = str(response.json().get("reason", ""))
        except (ValueError, AttributeError):
            reason = ""
        detail = f"APNs: HTTP {response.status_code} {reason}".strip()
        if response.status_code == 410 or reason in ("Unregistered", "BadDeviceToken"):
            raise Unregistered(f"{detail}: the token is unregistered (device deleted)")
        if reason in ("ExpiredProviderToken", "InvalidProviderToken"):
            self.provider_token(renew=True)
            raise Failed(detail)
        if response.status_code == 429 or response.status_code >= 500:
            raise _transient(response, detail)
        raise Failed(detail, permanent=True)


_providers: dict[tuple[Any, ...], Provider | None] = {}
_providers_lock = threading.Lock()


def _fcm_config() -> tuple[Any, ...] | None:
    account = str(_setting("FCM_SERVICE_ACCOUNT", "") or "")
    if not account:
        return None
    return ("fcm", account, str(_setting("FCM_PROJECT_ID", "") or ""), _setting("FCM_URL", FCM_URL))


def _apns_config() -> tuple[Any, ...] | None:
    names = ("APNS_KEY", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC")
    values = [str(_setting(n, "") or "") for n in names]
    if not all(values):
        return None
    sandbox = bool(_setting("APNS_SANDBOX", False))
    url = _setting("APNS_URL", "") or (APNS_SANDBOX_URL if sandbox else APNS_URL)
    return ("apns", *values, url)


def _build(config: tuple[Any, ...]) -> Provider:
    if config[0] == "fcm":
        _, account, project_id, url = config
        info = json.loads(_text_or_file(account))
        return FCM(info, project_id or str(info["project_id"]), url)
    _, key, key_id, team_id, topic, url = config
    return APNs(_text_or_file(key), key_id, team_id, topic, url)


def provider(platform: str) -> Provider | None:
    """The configured provider of ``platform`` (``fcm``, ``apns``), or ``None``: it is off."""
    config = _fcm_config() if platform == "fcm" else _apns_config() if platform == "apns" else None
    if config is None:
        return None
    with _providers_lock:
        if config not in _providers:
            _providers[config] = _build(config)
        return _providers[config]


def enabled_platforms() -> set[str]:
    """The platforms with credentials (the others' devices get no deliveries)."""
    return {p for p, c in (("fcm", _fcm_config()), ("apns", _apns_config())) if c is not None}


def send(platform: str, token: str, payload: dict[str, Any]) -> None:
    """Send the rendered notification ``payload`` to one device; raises :class:`Failed`."""
    chosen = provider(platform)
    if chosen is None:
        raise Failed(f"mobile push for {platform} is not configured", permanent=True)
    chosen.send(token, message_of(payload))
