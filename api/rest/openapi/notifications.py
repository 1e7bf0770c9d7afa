"""Response shapes of the notification inbox, preferences and webhooks (docs/notifications.md)."""

from __future__ import annotations

from notifications import reads
from notifications.prefs import CHANNELS, KINDS

from . import games as g
from .builders import (
    BOOL,
    DATETIME,
    NAT,
    arr,
    boolean,
    define,
    enum,
    integer,
    nullable,
    obj,
    ref,
    string,
)
from .components import MATCH_STATUS
from .shapes import component

KIND = enum("NotificationKind", KINDS)
enum("NotificationChannel", CHANNELS)
ID = integer(1, description="The notification's id: later notifications have greater ids.")

NOTIFICATION = component(
    reads.NOTIFICATION,
    {
        "NotificationKind": KIND,
        "Seat": g.SEAT,
        "Game": g.GAME,
        "MatchStatus": MATCH_STATUS,
        "Player": ref("PlayerOut"),
        "Event": ref("EventOut"),
    },
)
define(
    "NotificationPageOut",
    obj(
        {
            "count": NAT,
            "next": nullable(string(format="uri")),
            "previous": nullable(string(format="uri")),
            "results": arr(NOTIFICATION),
            "unread": NAT,
        },
        description="A page of your notifications, newest first (`?limit=` up to 200, "
        "`?offset=`), and how many are unread.",
    ),
)
define(
    "NotificationFollowOut",
    obj(
        {
            "notifications": arr(NOTIFICATION),
            "last_id": NAT,
            "more": boolean("The page was cut short: ask again after `last_id`."),
            "unread": NAT,
        },
        description="Your notifications after `after`, oldest first.",
    ),
)
define(
    "NotificationsReadOut",
    obj({"marked": NAT, "unread": NAT}, description="How many were marked read; unread left."),
)
_switches = obj(
    {kind: BOOL for kind in KINDS}, description="Per kind: whether it goes out on this channel."
)
define(
    "NotificationPreferenceOut",
    obj(
        {
            "channels": obj({channel: _switches for channel in CHANNELS}),
            "time_zone": string("An IANA time zone."),
            "quiet_start": nullable(string("HH:MM, your time zone.")),
            "quiet_end": nullable(string("HH:MM, your time zone.")),
            "reminders": BOOL,
            "digest": boolean(
                "A daily email of the matches waiting for you, in the morning of your time zone."
            ),
        },
        description="Your notification preferences. The inbox always has everything.",
    ),
)
_hook = {
    "id": integer(1),
    "url": string(),
    "active": boolean("False once too many deliveries failed in a row."),
    "failures": NAT,
    "created_at": DATETIME,
}
HOOK = define("WebhookOut", obj(_hook, description="A webhook of yours."))
define("WebhookListOut", obj({"results": arr(HOOK)}, description="Your webhooks."))
define(
    "WebhookCreatedOut",
    obj(
        {**_hook, "secret": string("The signing secret: shown only now.")},
        description="The new webhook and its signing secret.",
    ),
)
