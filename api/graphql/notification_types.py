"""The notification inbox in GraphQL (docs/notifications.md): the same readers, services and
request declarations as REST (:mod:`api.play.notifications`), so both faces accept and refuse
the same values. ``NotificationQuery``, ``NotificationMutation`` and
``NotificationSubscription`` are parts of the schema's root types (:mod:`.schema`)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Any

import strawberry
from strawberry.types import Info

from api.play.fields import validate
from api.play.notifications import (
    InboxFollowQuery,
    PreferenceIn,
    ReadAllIn,
    WebhookIn,
    preference_changes,
)
from api.play.queries import PageQuery
from kernel.errors import NotFound
from notifications import reads, services
from notifications.models import Webhook as WebhookRow

from .context import context_of, require_user
from .shapes import strawberry_type
from .types import Game, MatchEvent, MatchStatus, PlayerRef, _value, _when


@strawberry.enum(description="What a notification is about.")
class NotificationKind(Enum):
    YOUR_TURN = _value("your_turn")
    MATCH_STARTED = _value("match_started")
    MATCH_ENDED = _value("match_ended")
    DEADLINE_REMINDER = _value("deadline_reminder")
    TAKEOVER = _value("takeover")
    WEBHOOK_DISABLED = _value("webhook_disabled")
    CHALLENGED = _value("challenged")
    REMATCH_OFFERED = _value("rematch_offered")
    ROUND_STARTING = _value("round_starting")
    FOLLOWED_LOOKING = _value("followed_looking")


@strawberry.enum(description="A way a notification leaves the inbox.")
class NotificationChannel(Enum):
    WEBHOOK = _value("webhook")
    EMAIL = _value("email")
    WEB_PUSH = _value("web_push")
    MOBILE = _value("mobile")


if TYPE_CHECKING:

    class Notification:
        """A notification (derived below from ``notifications.reads.NOTIFICATION``)."""

        @classmethod
        def of(cls, d: dict[str, Any]) -> Notification: ...

else:
    Notification = strawberry_type(
        reads.NOTIFICATION,
        {
            "NotificationKind": NotificationKind,
            "Seat": (int, int),
            "Game": Game,
            "MatchStatus": MatchStatus,
            "Player": (PlayerRef, lambda d: PlayerRef(**d)),
            "Event": (MatchEvent, MatchEvent.of),
            "datetime": (datetime, _when),
        },
    )


@strawberry.type(description="A page of your notifications, newest first.")
class NotificationPage:
    total_count: int
    unread: int
    items: list[Notification]


@strawberry.type(description="Your notifications after an id, oldest first.")
class NotificationFollow:
    notifications: list[Notification]
    last_id: int
    more: bool
    unread: int


@strawberry.type(description="How many were marked read, and how many are still unread.")
class NotificationsRead:
    marked: int
    unread: int


@strawberry.type(description="Whether one kind goes out on one channel.")
class ChannelSwitch:
    channel: NotificationChannel
    kind: NotificationKind
    on: bool


@strawberry.type(description="Your notification preferences (REST `NotificationPreferenceOut`).")
class NotificationPreference:
    channels: list[ChannelSwitch]
    time_zone: str
    quiet_start: str | None
    quiet_end: str | None
    reminders: bool
    digest: bool = strawberry.field(
        description="A daily email of the matches waiting for you, in the morning of your "
        "time zone."
    )

    @classmethod
    def of(cls, d: dict[str, Any]) -> NotificationPreference:
        return cls(
            channels=[
                ChannelSwitch(
                    channel=NotificationChannel(channel), kind=NotificationKind(kind), on=on
                )
                for channel, kinds in d["channels"].items()
                for kind, on in kinds.items()
            ],
            time_zone=d["time_zone"],
            quiet_start=d["quiet_start"],
            quiet_end=d["quiet_end"],
            reminders=d["reminders"],
            digest=d["digest"],
        )


@strawberry.input(description="Turn one kind on or off on one channel.")
class ChannelSwitchInput:
    channel: NotificationChannel
    kind: NotificationKind
    on: bool


@strawberry.input(description="What to change; what you leave out stays as it is.")
class NotificationPreferenceInput:
    channels: list[ChannelSwitchInput] | None = strawberry.UNSET
    time_zone: str | None = strawberry.UNSET
    quiet_start: str | None = strawberry.field(
        default=strawberry.UNSET, description="HH:MM in your time zone; null: no quiet hours."
    )
    quiet_end: str | None = strawberry.UNSET
    reminders: bool | None = strawberry.UNSET
    digest: bool | None = strawberry.UNSET

    def as_request(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in ("time_zone", "quiet_start", "quiet_end", "reminders", "digest"):
            value = getattr(self, name)
            if value is not strawberry.UNSET:
                out[name] = value
        if self.channels is not strawberry.UNSET:
            out["channels"] = [
                {"channel": s.channel.value, "kind": s.kind.value, "on": s.on}
                for s in self.channels or []
            ]
        return out


@strawberry.type(description="A webhook of yours.")
class Webhook:
    id: int
    url: str
    active: bool
    failures: int
    created_at: datetime

    @classmethod
    def of(cls, hook: WebhookRow) -> Webhook:
        return cls(
            id=hook.pk,
            url=hook.url,
            active=hook.active,
            failures=hook.failures,
            created_at=hook.created_at,
        )


@strawberry.type(description="A new webhook and its signing secret (shown only here).")
class WebhookCreated:
    webhook: Webhook
    secret: str


def _id(value: int, what: str) -> int:
    if value < 1:
        raise NotFound(f"No such {what}.")
    return value


@strawberry.type
class NotificationQuery:
    @strawberry.field(
        description="Your notifications, newest first, and how many are unread (REST "
        "`GET /api/me/notifications/`)."
    )
    def notifications(
        self, info: Info, unread: bool = False, limit: int = 50, offset: int = 0
    ) -> NotificationPage | None:
        user = require_user(info)
        validate(PageQuery, {"limit": str(limit), "offset": str(offset)})
        rows = reads.inbox(user=user, unread=unread)
        page = list(rows[offset : offset + limit])
        return NotificationPage(
            total_count=rows.count(),
            unread=reads.unread_count(user=user),
            items=[Notification.of(d) for d in reads.render(page)],
        )

    @strawberry.field(
        description="Your notifications after the id `after`, oldest first (REST "
        "`GET /api/me/notifications/events/` without waiting: subscribe to `notifications`)."
    )
    def notifications_after(self, info: Info, after: int = 0) -> NotificationFollow | None:
        user = require_user(info)
        since = validate(InboxFollowQuery, {"after": str(after)})["after"]
        page = reads.follow_page(user=user, after=since)
        return NotificationFollow(
            notifications=[Notification.of(d) for d in page["notifications"]],
            last_id=page["last_id"],
            more=page["more"],
            unread=page["unread"],
        )

    @strawberry.field(description="Your notification preferences.")
    def notification_preferences(self, info: Info) -> NotificationPreference | None:
        pref = reads.preference_of(require_user(info))
        return NotificationPreference.of(reads.render_preference(pref))

    @strawberry.field(description="Your webhooks.")
    def webhooks(self, info: Info) -> list[Webhook] | None:
        hooks = WebhookRow.objects.filter(user=require_user(info)).order_by("id")
        return [Webhook.of(h) for h in hooks]


@strawberry.type
class NotificationMutation:
    @strawberry.mutation(description="Mark one of your notifications read.")
    def mark_notification_read(self, info: Info, id: int) -> Notification | None:
        row = services.notification_read(
            user=require_user(info), notification_id=_id(id, "notification")
        )
        return Notification.of(reads.render([row])[0])

    @strawberry.mutation(
        description="Mark your notifications read: all, or those with an id up to `upTo`."
    )
    def mark_all_notifications_read(
        self, info: Info, up_to: int | None = None
    ) -> NotificationsRead | None:
        user = require_user(info)
        data = validate(ReadAllIn, {} if up_to is None else {"up_to": up_to})
        marked = services.notifications_read_all(user=user, up_to=data.get("up_to"))
        return NotificationsRead(marked=marked, unread=reads.unread_count(user=user))

    @strawberry.mutation(description="Change your notification preferences.")
    def update_notification_preferences(
        self, info: Info, input: NotificationPreferenceInput
    ) -> NotificationPreference | None:
        user = require_user(info)
        data = validate(PreferenceIn, input.as_request())
        pref = services.preference_update(user=user, **preference_changes(data))
        return NotificationPreference.of(reads.render_preference(pref))

    @strawberry.mutation(
        description="Add a webhook: your notifications POSTed to an https URL, signed."
    )
    def create_webhook(self, info: Info, url: str) -> WebhookCreated | None:
        user = require_user(info)
        data = validate(WebhookIn, {"url": url})
        hook = services.webhook_create(user=user, url=data["url"])
        return WebhookCreated(webhook=Webhook.of(hook), secret=hook.secret)

    @strawberry.mutation(description="Delete a webhook of yours.")
    def delete_webhook(self, info: Info, id: int) -> bool | None:
        services.webhook_delete(user=require_user(info), webhook_id=_id(id, "webhook"))
        return True


@strawberry.type
class NotificationSubscription:
    @strawberry.subscription(
        description="Your notifications as they are written, after the id `after` (reconnect "
        "with the last `id` you saw: nothing is missed or repeated). Websocket only "
        "(graphql-transport-ws); authenticate in `connection_init`'s payload."
    )
    async def notifications(self, info: Info, after: int = 0) -> AsyncGenerator[Notification, None]:
        from api.inbox_follow import inbox_pages
        from api.play.hub import use_redis

        from .subscriptions import db

        user = context_of(info).authenticate()
        since = (await db(validate, InboxFollowQuery, {"after": str(after)}))["after"]

        async def read(user: Any, after: int) -> dict[str, Any]:
            return await db(reads.follow_page, user=user, after=after)

        async for page in inbox_pages(user, since, hubbed=use_redis(), read_page=read):
            for item in page["body"]["notifications"]:
                yield Notification.of(item)
