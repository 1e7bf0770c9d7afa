"""Mobile devices in GraphQL (docs/notifications.md, "Mobile push"): the phones your
notifications are pushed to, through the same request declaration and services as REST
(:mod:`api.play.devices`). ``DeviceQuery`` and ``DeviceMutation`` are parts of the schema's
root types (:mod:`.schema`)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry
from strawberry.types import Info

from api.play.devices import DeviceIn
from api.play.fields import validate
from kernel.errors import NotFound
from notifications import services
from notifications.models import Device as DeviceRow

from .context import require_user
from .types import _value


@strawberry.enum(description="A phone's push service.")
class DevicePlatform(Enum):
    FCM = _value("fcm")
    APNS = _value("apns")


@strawberry.type(
    description="A phone of yours that your notifications are pushed to (REST `DeviceOut`)."
)
class Device:
    id: int
    platform: DevicePlatform
    token: str
    label: str
    created_at: datetime
    last_used_at: datetime | None

    @classmethod
    def of(cls, row: DeviceRow) -> Device:
        return cls(
            id=row.pk,
            platform=DevicePlatform(row.platform),
            token=row.token,
            label=row.label,
            created_at=row.created_at,
            last_used_at=row.last_used_at,
        )


@strawberry.type
class DeviceQuery:
    @strawberry.field(description="Your devices (REST `GET /api/me/devices/`).")
    def devices(self, info: Info) -> list[Device] | None:
        rows = DeviceRow.objects.filter(user=require_user(info)).order_by("id")
        return [Device.of(d) for d in rows]


@strawberry.type
class DeviceMutation:
    @strawberry.mutation(
        description="Register a phone's push token: your notifications pushed to it (the same "
        "token again updates it; one registered by another account moves to yours)."
    )
    def register_device(
        self, info: Info, platform: DevicePlatform, token: str, label: str = ""
    ) -> Device | None:
        user = require_user(info)
        data = validate(DeviceIn, {"platform": platform.value, "token": token, "label": label})
        row, _ = services.device_register(
            user=user, platform=data["platform"], token=data["token"], label=data["label"]
        )
        return Device.of(row)

    @strawberry.mutation(description="Delete a device of yours: nothing more is pushed to it.")
    def delete_device(self, info: Info, id: int) -> bool | None:
        if id < 1:
            raise NotFound("No such device.")
        services.device_delete(user=require_user(info), device_id=id)
        return True
