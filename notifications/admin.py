"""Notifications, preferences, delivery channels and their attempts, for staff to look at (a
delivery that failed, a webhook that was disabled). Read-only: players change these through
the API and the services; secrets (a webhook's signing key, a push subscription's keys, a
device's token) are never shown."""

from __future__ import annotations

from django.contrib import admin

from kernel.admin import ReadOnlyAdmin

from .models import Delivery, Device, Notification, Preference, PushSubscription, Webhook


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "kind", "match", "created_at", "due_at", "read_at", "dispatched")
    list_filter = ("kind", "dispatched")
    search_fields = ("match__id",)


@admin.register(Preference)
class PreferenceAdmin(ReadOnlyAdmin):
    list_display = ("user", "time_zone", "quiet_start", "quiet_end", "reminders", "digest")


@admin.register(Webhook)
class WebhookAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "url", "active", "failures", "created_at")
    list_filter = ("active",)
    hidden = ("secret",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "created_at")
    hidden = ("endpoint", "p256dh", "auth")  # the endpoint is a capability to push to them


@admin.register(Device)
class DeviceAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "platform", "label", "created_at", "last_used_at")
    list_filter = ("platform",)
    hidden = ("token",)  # a capability to push to them


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    list_display = ("id", "notification", "channel", "status", "not_before", "created_at")
    list_filter = ("channel", "status")
