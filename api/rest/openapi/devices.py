"""Response shapes of mobile devices (docs/notifications.md, "Mobile push")."""

from __future__ import annotations

from notifications.models import Device

from .builders import DATETIME, arr, define, enum, integer, nullable, obj, string

PLATFORM = enum("DevicePlatform", Device.Platform.values, "`fcm` or `apns`.")
DEVICE = define(
    "DeviceOut",
    obj(
        {
            "id": integer(1),
            "platform": PLATFORM,
            "token": string("The push token you registered."),
            "label": string("Your name for the device."),
            "created_at": DATETIME,
            "last_used_at": nullable(DATETIME),
        },
        description="A phone of yours that your notifications are pushed to.",
    ),
)
define("DeviceListOut", obj({"results": arr(DEVICE)}, description="Your devices."))
