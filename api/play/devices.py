"""The request of a mobile device registration, declared once for both faces (REST and
GraphQL; docs/notifications.md, "Mobile push")."""

from __future__ import annotations

from notifications.models import Device

from .fields import StrictCharField, StrictChoiceField, StrictInput

#: What a push token may hold (FCM registration tokens: base64url and ``:``; APNs device tokens:
#: hex). Nothing else, so a token is a safe segment of the APNs path. A token its service does
#: not take is found out at the first push (BadDeviceToken, INVALID_ARGUMENT): deleted.
TOKEN_PATTERN = r"^[A-Za-z0-9_:\-]{1,512}$"


class DeviceIn(StrictInput):
    """A phone app's push token: from FCM (``getToken()``) or APNs
    (``didRegisterForRemoteNotificationsWithDeviceToken``, hex)."""

    platform = StrictChoiceField(
        Device.Platform.values,
        component="DevicePlatform",
        help_text="`fcm` (Firebase Cloud Messaging) or `apns` (Apple).",
    )
    token = StrictCharField(
        max_length=512,
        pattern=TOKEN_PATTERN,
        pattern_message="Not a push token.",
        help_text="The push token (APNs: the device token in hex).",
    )
    label = StrictCharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text='Your name for the device ("Pixel 8").',
    )
