"""Mobile devices over REST (docs/notifications.md, "Mobile push"): the phones a player's
notifications are pushed to, through FCM or APNs. Thin views over ``notifications.services``."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play.devices import DeviceIn
from api.play.fields import validate
from notifications import services
from notifications.models import Device

from .base import MatchBase
from .notifications import _id
from .openapi import devices as _components  # noqa: F401  (defines the components)
from .openapi import responses as r
from .openapi.extensions import component

DEVICE_ID = OpenApiParameter(
    "device_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="A device id of yours."
)


def render(device: Device) -> dict[str, object]:
    return {
        "id": device.pk,
        "platform": device.platform,
        "token": device.token,
        "label": device.label,
        "created_at": device.created_at.isoformat(),
        "last_used_at": device.last_used_at.isoformat() if device.last_used_at else None,
    }


class DeviceListView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="devices_list",
        summary="Your devices (phones your notifications are pushed to)",
        responses=r.answers({200: component("DeviceListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        devices = Device.objects.filter(user=request.user).order_by("id")
        return Response({"results": [render(d) for d in devices]})

    @extend_schema(
        operation_id="devices_register",
        summary="Register a phone's push token: your notifications pushed to it",
        description="The same token again updates its platform and label (200); a token "
        "registered by another account moves to yours (201). A token the push service "
        "reports unregistered is deleted.",
        request=DeviceIn,
        responses=r.answers(
            {201: component("DeviceOut"), 200: component("DeviceOut")},
            400,
            401,
            409,
            413,
            415,
            e409="You have as many devices as you may have.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(DeviceIn, request.data)
        device, new = services.device_register(
            user=request.user, platform=data["platform"], token=data["token"], label=data["label"]
        )
        return Response(
            render(device), status=status.HTTP_201_CREATED if new else status.HTTP_200_OK
        )


class DeviceDetailView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="devices_delete",
        summary="Delete a device: nothing more is pushed to it",
        parameters=[DEVICE_ID],
        responses=r.answers({204: r.OpenApiResponse(description="Deleted.")}, 401, 404),
    )
    def delete(self, request: Request, device_id: str) -> Response:
        services.device_delete(user=request.user, device_id=_id(device_id, "device"))
        return Response(status=status.HTTP_204_NO_CONTENT)
