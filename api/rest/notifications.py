"""The notification inbox over REST (docs/notifications.md): thin views over
``notifications.reads`` and ``notifications.services``. The follower
(``GET /api/me/notifications/events/``) is the async view :mod:`api.inbox_follow`; its DRF twin
:class:`InboxEventsView` documents it."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play.fields import validate
from api.play.notifications import (
    InboxFollowQuery,
    InboxQuery,
    PreferenceIn,
    ReadAllIn,
    WebhookIn,
    preference_changes,
)
from api.play.queries import PageQuery, plain
from kernel.errors import NotFound
from notifications import reads, services
from notifications.models import Webhook

from .base import MatchBase, paginated
from .openapi import notifications as _components  # noqa: F401  (defines the components)
from .openapi import responses as r
from .openapi.extensions import component

NOTIFICATION_ID = OpenApiParameter(
    "notification_id",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="A notification id; not one of yours: 404.",
)
WEBHOOK_ID = OpenApiParameter(
    "webhook_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="A webhook id of yours."
)


def _id(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 15:
        raise NotFound(f"No such {what}.")
    return int(text)


class Inbox(MatchBase):
    permission_classes = [IsAuthenticated]


class InboxView(Inbox):
    @extend_schema(
        operation_id="notifications_list",
        summary="Your notifications, newest first, and how many are unread",
        parameters=[InboxQuery, PageQuery],
        responses=r.answers({200: component("NotificationPageOut")}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        query = validate(InboxQuery, plain(request.query_params))
        rows = reads.inbox(user=request.user, unread=bool(query.get("unread")))
        response = paginated(request, self, rows, None)
        assert isinstance(response.data, dict)
        response.data["results"] = reads.render(list(response.data["results"]))
        response.data["unread"] = reads.unread_count(user=request.user)
        return response


class InboxEventsView(Inbox):
    """Documents ``api.inbox_follow.inbox_events`` (the route is the async view)."""

    @extend_schema(
        operation_id="notifications_follow",
        summary="Your notifications after an id, waiting for the next one",
        description="With `wait` (seconds, at most 30) the request is held until there is a "
        "notification after `after`; oldest first, at most 100 (`more`: ask again after the "
        "last `id`). Served by the follower; a plain API server answers at once.",
        parameters=[InboxFollowQuery],
        responses=r.answers({200: component("NotificationFollowOut")}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        query = validate(InboxFollowQuery, plain(request.query_params))
        return Response(reads.follow_page(user=request.user, after=query.get("after", 0)))


class ReadOneView(Inbox):
    @extend_schema(
        operation_id="notifications_read_one",
        summary="Mark one notification read",
        parameters=[NOTIFICATION_ID],
        request=None,
        responses=r.answers({200: component("NotificationOut")}, 401, 404, 413, 415),
    )
    def post(self, request: Request, notification_id: str) -> Response:
        row = services.notification_read(
            user=request.user, notification_id=_id(notification_id, "notification")
        )
        return Response(reads.render([row])[0])


class ReadAllView(Inbox):
    @extend_schema(
        operation_id="notifications_read_all",
        summary="Mark all your notifications read (or those up to an id)",
        request=ReadAllIn,
        responses=r.answers({200: component("NotificationsReadOut")}, 400, 401, 413, 415),
    )
    def post(self, request: Request) -> Response:
        data = validate(ReadAllIn, request.data if request.body else {})
        changed = services.notifications_read_all(user=request.user, up_to=data.get("up_to"))
        return Response({"marked": changed, "unread": reads.unread_count(user=request.user)})


class PreferenceView(Inbox):
    @extend_schema(
        operation_id="notification_preferences_read",
        summary="Your notification preferences",
        responses=r.answers({200: component("NotificationPreferenceOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response(reads.render_preference(reads.preference_of(request.user)))

    @extend_schema(
        operation_id="notification_preferences_update",
        summary="Change your notification preferences",
        description="Turn kinds on or off per channel, set quiet hours in your time zone "
        "(nothing but the inbox reaches you then; it is delivered when they end) and the "
        "deadline reminder. What you leave out stays as it is.",
        request=PreferenceIn,
        responses=r.answers({200: component("NotificationPreferenceOut")}, 400, 401, 413, 415),
    )
    def patch(self, request: Request) -> Response:
        data = validate(PreferenceIn, request.data)
        pref = services.preference_update(user=request.user, **preference_changes(data))
        return Response(reads.render_preference(pref))


def _hook(hook: Webhook, secret: bool = False) -> dict[str, object]:
    out: dict[str, object] = {
        "id": hook.pk,
        "url": hook.url,
        "active": hook.active,
        "failures": hook.failures,
        "created_at": hook.created_at.isoformat(),
    }
    if secret:
        out["secret"] = hook.secret
    return out


class WebhookListView(Inbox):
    @extend_schema(
        operation_id="webhooks_list",
        summary="Your webhooks",
        responses=r.answers({200: component("WebhookListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        hooks = Webhook.objects.filter(user=request.user).order_by("id")
        return Response({"results": [_hook(h) for h in hooks]})

    @extend_schema(
        operation_id="webhooks_create",
        summary="Add a webhook: your notifications POSTed to an https URL, signed",
        description="The answer holds the signing secret, shown only here. Every delivery "
        'carries `Fibserver-Signature: t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">`.',
        request=WebhookIn,
        responses=r.answers(
            {201: component("WebhookCreatedOut")},
            400,
            401,
            409,
            413,
            415,
            e409="You have as many webhooks as you may have.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(WebhookIn, request.data)
        hook = services.webhook_create(user=request.user, url=data["url"])
        return Response(_hook(hook, secret=True), status=status.HTTP_201_CREATED)


class WebhookDetailView(Inbox):
    @extend_schema(
        operation_id="webhooks_delete",
        summary="Delete a webhook",
        parameters=[WEBHOOK_ID],
        responses=r.answers({204: r.OpenApiResponse(description="Deleted.")}, 401, 404),
    )
    def delete(self, request: Request, webhook_id: str) -> Response:
        services.webhook_delete(user=request.user, webhook_id=_id(webhook_id, "webhook"))
        return Response(status=status.HTTP_204_NO_CONTENT)
