"""Response shapes of Web Push: the server's VAPID key and your push subscriptions
(docs/notifications.md)."""

from __future__ import annotations

from .builders import DATETIME, arr, define, integer, obj, string

define(
    "VapidKeyOut",
    obj(
        {
            "public_key": string(
                "The server's VAPID public key, base64url (a P-256 point, uncompressed): "
                "`applicationServerKey` of `pushManager.subscribe`."
            )
        },
        description="What a browser subscribes with.",
    ),
)
SUBSCRIPTION = define(
    "PushSubscriptionOut",
    obj(
        {
            "id": integer(1),
            "endpoint": string("The push service's URL for the browser."),
            "created_at": DATETIME,
        },
        description="A push subscription of yours (a browser that shows your notifications).",
    ),
)
define(
    "PushSubscriptionListOut",
    obj({"results": arr(SUBSCRIPTION)}, description="Your push subscriptions."),
)
