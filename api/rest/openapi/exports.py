"""Response shapes of "export my data" (docs/accounts.md)."""

from __future__ import annotations

from accounts.export_document import MASKED, MAX_BYTES
from accounts.models import DataExport

from . import devices as _devices  # noqa: F401
from . import notifications as _notifications  # noqa: F401  (defines what is referenced)
from . import push as _push  # noqa: F401
from . import queue as _queue  # noqa: F401
from .builders import (
    COMPONENTS,
    DATETIME,
    NAT,
    UUID,
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
from .games.common import GAME
from .sessions import SESSION_FIELDS

EXPORT_STATUS = enum(
    "ExportStatus",
    DataExport.Status.values,
    "`pending`: queued; `running`: being written; `done`: the document is ready to download; "
    "`failed`: given up (request a new one).",
)
EXPORT_JOB = define(
    "ExportJobOut",
    obj(
        {
            "id": UUID,
            "status": EXPORT_STATUS,
            "created": DATETIME,
            "finished": nullable(DATETIME),
            "size": integer(0, None, "The document's size in bytes (0 until done)."),
            "truncated": boolean(
                f"Whether matches were left out to keep the document under {MAX_BYTES} bytes."
            ),
            "download": nullable(
                string("Where to download the document (`GET`), once `done`.", format="uri")
            ),
        },
        description="An export of your data; kept 7 days.",
    ),
)
_seat_entry = obj(
    {
        "match": UUID,
        "seat": NAT,
        "view": ref("MatchOut"),
        "events": arr(ref("EventOut"), description="The whole log, as this seat sees it."),
    },
    description="A match you held a seat in, seen through that seat (once per seat held).",
)
_rating_point = obj(
    {
        "game": GAME,
        "match_id": UUID,
        "played_at": nullable(DATETIME),
        "rating": {"type": "number"},
        "mu": {"type": "number"},
        "sigma": {"type": "number"},
        "place": nullable(integer(1)),
    },
    description="One point of your rating history.",
)
_webhook = obj(
    {
        "id": integer(1),
        "url": string(),
        "active": boolean(),
        "failures": NAT,
        "created_at": DATETIME,
        "secret": {"type": "string", "enum": [MASKED], "description": "Masked: never exported."},
    },
    description="A webhook of yours (its signing secret masked).",
)
define(
    "ExportDocumentOut",
    obj(
        {
            "format": integer(1, 1, "The document's format version."),
            "generated_at": DATETIME,
            "profile": obj(
                {
                    "id": integer(1),
                    "username": string(),
                    "display_name": string(),
                    "email": string(),
                    "first_name": string(),
                    "last_name": string(),
                    "is_guest": boolean(),
                    "date_joined": DATETIME,
                    "last_login": nullable(DATETIME),
                },
                description="Your account.",
            ),
            "sessions": arr(
                obj(
                    SESSION_FIELDS,
                    description="A session of yours, as `GET /api/me/sessions/` lists it "
                    "(never its token).",
                )
            ),
            "careers": obj(
                description="Your statistics, as `GET /api/me/stats/` answers (MyStatsOut).",
                open=True,
            ),
            "rating_history": arr(_rating_point),
            "notifications": obj(
                {
                    "inbox": arr(ref("NotificationOut")),
                    "preferences": ref("NotificationPreferenceOut"),
                    "webhooks": arr(_webhook),
                    "push_subscriptions": arr(
                        ref("PushSubscriptionOut"),
                        description="As `GET /api/me/push-subscriptions/` lists them (never "
                        "the browser's keys).",
                    ),
                    "devices": arr(
                        ref("DeviceOut"), description="As `GET /api/me/devices/` lists them."
                    ),
                }
            ),
            "matchmaking": obj(
                {
                    "tickets": arr(ref("TicketOut")),
                    "blocks": arr(integer(1), description="The players you block."),
                    "follows": COMPONENTS["FollowListOut"]["properties"]["follows"],
                    "challenges": arr(ref("ChallengeOut")),
                }
            ),
            "truncated": boolean("Whether matches were left out (the oldest first)."),
            "omitted_matches": integer(0, None, "How many match entries were left out."),
            "matches": arr(_seat_entry, description="Newest first."),
        },
        description=f"Everything the server holds about you, at most {MAX_BYTES} bytes.",
    ),
)
