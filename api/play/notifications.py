"""The requests of the notification inbox, declared once for both faces: the inbox's query,
the follower's ``after`` and ``wait``, marking read, preferences and webhooks
(docs/notifications.md)."""

from __future__ import annotations

from datetime import time
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from notifications.channels.webhook import allowed_url
from notifications.prefs import CHANNELS, KINDS, valid_time_zone

from .fields import (
    QueryBooleanField,
    QueryIntegerField,
    QueryNumberField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
)

#: The longest a follower of the inbox is held (seconds).
WAIT_MAX = 30.0
#: The largest notification id a request may name (a query parameter has at most 12 digits).
ID_MAX = 999_999_999_999

CLOCK = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


class InboxQuery(serializers.Serializer):
    unread = QueryBooleanField(required=False, help_text="Only the notifications not read.")


class InboxFollowQuery(serializers.Serializer):
    after = QueryIntegerField(
        min_value=0,
        max_value=ID_MAX,
        required=False,
        help_text="The last notification id you have (0: from the start).",
    )
    wait = QueryNumberField(
        min_value=0,
        max_value=WAIT_MAX,
        required=False,
        help_text=f"Hold the request up to this many seconds (at most {WAIT_MAX:g}) until "
        "there is a notification after `after`.",
    )


class ReadAllIn(StrictInput):
    """Mark your notifications read."""

    up_to = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=ID_MAX,
        help_text="Only those with an id up to this (what you have shown); absent: all.",
    )


class ToggleIn(StrictInput):
    """One kind on one channel."""

    channel = StrictChoiceField(CHANNELS, component="NotificationChannel")
    kind = StrictChoiceField(KINDS, component="NotificationKind")
    on = StrictBooleanField()


class PreferenceIn(StrictInput):
    """Change your notification preferences; what you leave out stays as it is."""

    channels = ToggleIn(many=True, required=False, help_text="Kinds to turn on or off.")
    time_zone = StrictCharField(
        required=False, max_length=64, help_text='An IANA time zone, e.g. "Europe/Paris".'
    )
    quiet_start = StrictCharField(
        required=False,
        allow_null=True,
        pattern=CLOCK,
        pattern_message="A local time as HH:MM.",
        help_text="Quiet hours start (HH:MM, your time zone); null: no quiet hours.",
    )
    quiet_end = StrictCharField(
        required=False,
        allow_null=True,
        pattern=CLOCK,
        pattern_message="A local time as HH:MM.",
        help_text="Quiet hours end (HH:MM); may be before the start (over midnight).",
    )
    reminders = StrictBooleanField(
        required=False, help_text="A reminder when a fifth of an async decision's time is left."
    )
    digest = StrictBooleanField(
        required=False,
        help_text="A daily email of the matches waiting for you, in the morning of your time "
        "zone (needs an email address on the account).",
    )

    def validate_time_zone(self, value: str) -> str:
        if not valid_time_zone(value):
            raise ValidationError("Not a time zone this server knows.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("quiet_start" in attrs) != ("quiet_end" in attrs):
            raise ValidationError({"quiet_end": ["Give quiet_start and quiet_end together."]})
        if (attrs.get("quiet_start") is None) != (attrs.get("quiet_end") is None):
            raise ValidationError({"quiet_end": ["Both are times, or both are null."]})
        return attrs


def preference_changes(data: dict[str, Any]) -> dict[str, Any]:
    """A checked :class:`PreferenceIn` as the arguments of ``preference_update``."""
    out: dict[str, Any] = {}
    if data.get("channels"):
        toggles: dict[str, dict[str, bool]] = {}
        for t in data["channels"]:
            toggles.setdefault(t["channel"], {})[t["kind"]] = t["on"]
        out["channels"] = toggles
    if "time_zone" in data:
        out["time_zone"] = data["time_zone"]
    if "quiet_start" in data:
        out["quiet"] = (_clock(data["quiet_start"]), _clock(data["quiet_end"]))
    if "reminders" in data:
        out["reminders"] = data["reminders"]
    if "digest" in data:
        out["digest"] = data["digest"]
    return out


def _clock(text: str | None) -> time | None:
    if text is None:
        return None
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


class WebhookIn(StrictInput):
    """A new webhook: notifications are POSTed to this URL, signed with its secret."""

    url = StrictCharField(
        max_length=500,
        help_text="An https URL on the public internet (not this server's own network).",
    )

    def validate_url(self, value: str) -> str:
        from django.core.validators import URLValidator

        try:
            URLValidator(schemes=["https", "http"])(value)
        except Exception:
            raise ValidationError("Not a URL.") from None
        if not allowed_url(value):
            raise ValidationError("Not an allowed webhook URL (https, a public address).")
        return value
