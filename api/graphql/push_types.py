"""Web Push in GraphQL (docs/notifications.md): the server's VAPID key and your push
subscriptions, through the same request declaration and services as REST
(:mod:`api.play.push`). ``PushQuery`` and ``PushMutation`` are parts of the schema's root
types (:mod:`.schema`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry
from strawberry.types import Info

from api.play.fields import validate
from api.play.push import PushSubscriptionIn
from kernel.errors import NotFound
from notifications import services
from notifications.channels.web_push import public_key
from notifications.models import PushSubscription as PushSubscriptionRow

from .context import require_user


@strawberry.type(description="A push subscription of yours (REST `PushSubscriptionOut`).")
class PushSubscription:
    id: int
    endpoint: str
    created_at: datetime

    @classmethod
    def of(cls, sub: PushSubscriptionRow) -> PushSubscription:
        return cls(id=sub.pk, endpoint=sub.endpoint, created_at=sub.created_at)


@strawberry.input(description="The subscription's keys, base64url.")
class PushKeysInput:
    p256dh: str
    auth: str


@strawberry.input(
    description="A browser's push subscription, as `PushSubscription.toJSON()` gives it."
)
class PushSubscriptionInput:
    endpoint: str
    keys: PushKeysInput
    expiration_time: float | None = strawberry.field(
        default=None, description="When the browser's subscription ends (ms); ignored."
    )

    def as_request(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "endpoint": self.endpoint,
            "keys": {"p256dh": self.keys.p256dh, "auth": self.keys.auth},
        }
        if self.expiration_time is not None:
            whole = self.expiration_time.is_integer()
            out["expirationTime"] = int(self.expiration_time) if whole else self.expiration_time
        return out


@strawberry.type
class PushQuery:
    @strawberry.field(
        description="The server's VAPID public key, base64url: `applicationServerKey` of "
        "`pushManager.subscribe` (REST `GET /api/push/vapid-key/`)."
    )
    def vapid_public_key(self, info: Info) -> str | None:
        require_user(info)
        return public_key()

    @strawberry.field(description="Your push subscriptions.")
    def push_subscriptions(self, info: Info) -> list[PushSubscription] | None:
        subs = PushSubscriptionRow.objects.filter(user=require_user(info)).order_by("id")
        return [PushSubscription.of(s) for s in subs]


@strawberry.type
class PushMutation:
    @strawberry.mutation(
        description="Register a browser's push subscription: your notifications pushed to it "
        "(the same endpoint again updates its keys)."
    )
    def register_push_subscription(
        self, info: Info, input: PushSubscriptionInput
    ) -> PushSubscription | None:
        user = require_user(info)
        data = validate(PushSubscriptionIn, input.as_request())
        sub, _ = services.push_subscribe(
            user=user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return PushSubscription.of(sub)

    @strawberry.mutation(description="Delete a push subscription of yours.")
    def delete_push_subscription(self, info: Info, id: int) -> bool | None:
        if id < 1:
            raise NotFound("No such push subscription.")
        services.push_unsubscribe(user=require_user(info), subscription_id=id)
        return True
