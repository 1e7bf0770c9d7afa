"""The requests of Web Push subscriptions, declared once for both faces: what a browser's
``PushSubscription.toJSON()`` gives (docs/notifications.md)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError

from notifications.channels.web_push import valid_keys
from notifications.channels.webhook import allowed_url

from .fields import StrictCharField, StrictInput, StrictIntegerField


class PushKeysIn(StrictInput):
    """The subscription's keys, base64url."""

    p256dh = StrictCharField(
        max_length=100, help_text="The browser's P-256 public key (uncompressed point)."
    )
    auth = StrictCharField(max_length=32, help_text="The browser's 16-byte secret.")


class PushSubscriptionIn(StrictInput):
    """A browser's push subscription, as ``PushSubscription.toJSON()`` gives it."""

    endpoint = StrictCharField(
        max_length=1000, help_text="The push service's URL for this browser (https)."
    )
    expirationTime = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="When the browser's subscription ends (ms since the epoch), if it says; ignored.",
    )
    keys = PushKeysIn()

    def validate_endpoint(self, value: str) -> str:
        from django.core.validators import URLValidator

        try:
            URLValidator(schemes=["https", "http"])(value)
        except Exception:
            raise ValidationError("Not a URL.") from None
        if not allowed_url(value):
            raise ValidationError("Not an allowed push service URL (https, a public address).")
        return value

    def validate_keys(self, value: dict[str, Any]) -> dict[str, Any]:
        problem = valid_keys(value["p256dh"], value["auth"])
        if problem:
            raise ValidationError(problem)
        return value
