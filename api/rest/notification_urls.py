"""Routes of the notification inbox, preferences and webhooks, included under ``/api/``. The
follower is the async view :func:`api.inbox_follow.inbox_events`, documented by its DRF twin
(``InboxEventsView``)."""

from django.urls import path

from api.inbox_follow import inbox_events

from . import devices, push
from . import notifications as v
from .twins import documented_by

_rest = [
    path("me/notifications/", v.InboxView.as_view(), name="notifications"),
    path("me/notifications/read/", v.ReadAllView.as_view(), name="notifications-read-all"),
    path(
        "me/notifications/<str:notification_id>/read/",
        v.ReadOneView.as_view(),
        name="notification-read",
    ),
    path(
        "me/notification-preferences/",
        v.PreferenceView.as_view(),
        name="notification-preferences",
    ),
    path("me/webhooks/", v.WebhookListView.as_view(), name="webhooks"),
    path("me/webhooks/<str:webhook_id>/", v.WebhookDetailView.as_view(), name="webhook"),
    path("push/vapid-key/", push.VapidKeyView.as_view(), name="push-vapid-key"),
    path("me/push-subscriptions/", push.PushSubscriptionListView.as_view(), name="push-subs"),
    path(
        "me/push-subscriptions/<str:subscription_id>/",
        push.PushSubscriptionDetailView.as_view(),
        name="push-sub",
    ),
    path("me/devices/", devices.DeviceListView.as_view(), name="devices"),
    path("me/devices/<str:device_id>/", devices.DeviceDetailView.as_view(), name="device"),
]
urlpatterns = [
    path(
        "me/notifications/events/",
        documented_by(inbox_events, v.InboxEventsView),
        name="notifications-events",
    ),
    *_rest,
]
