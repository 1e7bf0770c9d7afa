"""Web Push over REST (docs/notifications.md): the server's VAPID key, and the push
subscriptions a browser registers for its account. Thin views over
``notifications.services``."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play.fields import validate
from api.play.push import PushSubscriptionIn
from notifications import services
from notifications.channels.web_push import public_key
from notifications.models import PushSubscription

from .base import MatchBase
from .notifications import _id
from .openapi import push as _components  # noqa: F401  (defines the components)
from .openapi import responses as r
from .openapi.extensions import component

SUBSCRIPTION_ID = OpenApiParameter(
    "subscription_id",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="A push subscription id of yours.",
)


def render(sub: PushSubscription) -> dict[str, object]:
    return {"id": sub.pk, "endpoint": sub.endpoint, "created_at": sub.created_at.isoformat()}


class VapidKeyView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="push_vapid_key",
        summary="The server's VAPID public key, for pushManager.subscribe",
        responses=r.answers({200: component("VapidKeyOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": public_key()})


class PushSubscriptionListView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="push_subscriptions_list",
        summary="Your push subscriptions",
        responses=r.answers({200: component("PushSubscriptionListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        subs = PushSubscription.objects.filter(user=request.user).order_by("id")
        return Response({"results": [render(s) for s in subs]})

    @extend_schema(
        operation_id="push_subscriptions_create",
        summary="Register a browser's push subscription: your notifications pushed to it",
        description="The body is what `PushSubscription.toJSON()` gives. The same endpoint "
        "again updates its keys (200); one registered by another account moves to yours. A "
        "subscription its push service no longer knows (404, 410) is deleted.",
        request=PushSubscriptionIn,
        responses=r.answers(
            {
                201: component("PushSubscriptionOut"),
                200: component("PushSubscriptionOut"),
            },
            400,
            401,
            409,
            413,
            415,
            e409="You have as many push subscriptions as you may have.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(PushSubscriptionIn, request.data)
        sub, new = services.push_subscribe(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return Response(render(sub), status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class PushSubscriptionDetailView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="push_subscriptions_delete",
        summary="Delete a push subscription",
        parameters=[SUBSCRIPTION_ID],
        responses=r.answers({204: r.OpenApiResponse(description="Deleted.")}, 401, 404),
    )
    def delete(self, request: Request, subscription_id: str) -> Response:
        services.push_unsubscribe(
            user=request.user, subscription_id=_id(subscription_id, "push subscription")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
