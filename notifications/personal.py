"""What ``notifications`` holds about a player, for the deletion and the export of an account
(registered with :mod:`accounts.hooks` in ``NotificationsConfig.ready``): the inbox and the
settings as :mod:`notifications.reads` renders them; webhooks say that they have a signing
secret, push subscriptions are listed without the browser's keys."""

from __future__ import annotations

from typing import Any

from accounts import hooks
from accounts.erasure import Decision, delete
from accounts.export_document import MASKED
from accounts.models import User

from . import reads
from .models import Device, PushSubscription, Webhook

ERASURE: dict[str, Decision] = {
    "notifications.Notification.user": delete("the user's inbox (and its delivery records)"),
    "notifications.Preference.user": delete("the user's notification settings"),
    "notifications.Webhook.user": delete("the user's webhooks (and their delivery records)"),
    "notifications.PushSubscription.user": delete("the user's browsers' push subscriptions"),
    "notifications.Device.user": delete("the user's phones' push tokens"),
}


def section(user: User) -> dict[str, Any]:
    hooks_ = Webhook.objects.filter(user=user).order_by("id")
    pushes = PushSubscription.objects.filter(user=user).order_by("id")
    return {
        "inbox": reads.render(list(reads.inbox(user=user))),
        "preferences": reads.render_preference(reads.preference_of(user)),
        "webhooks": [
            {
                "id": h.pk,
                "url": h.url,
                "active": h.active,
                "failures": h.failures,
                "created_at": h.created_at.isoformat(),
                "secret": MASKED,
            }
            for h in hooks_
        ],
        # as GET /api/me/push-subscriptions/ lists them: the browser's keys (the auth secret
        # it decrypts with, and the public key useless without it) are not exported
        "push_subscriptions": [
            {"id": p.pk, "endpoint": p.endpoint, "created_at": p.created_at.isoformat()}
            for p in pushes
        ],
        # as GET /api/me/devices/ lists them (the token is the player's own phone's)
        "devices": [
            {
                "id": d.pk,
                "platform": d.platform,
                "token": d.token,
                "label": d.label,
                "created_at": d.created_at.isoformat(),
                "last_used_at": d.last_used_at.isoformat() if d.last_used_at else None,
            }
            for d in Device.objects.filter(user=user).order_by("id")
        ],
    }


def register() -> None:
    hooks.register("notifications", erasure=ERASURE, export={"notifications": section})
