"""The outbox relay: hands the notifications not yet dispatched to their channels (a
:class:`Delivery` per webhook, push subscription, device and wanted channel), and keeps the
webhooks' failure count. Run by ``notifications.tasks.relay`` every ``SWEEP_SECONDS``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User

from . import prefs
from .models import (
    Channel,
    Delivery,
    Device,
    Kind,
    Notification,
    Preference,
    PushSubscription,
    Webhook,
)
from .services import _setting
from .wake import wake_users


def dispatch(*, limit: int = 1000) -> tuple[int, list[int]]:
    """Hand the notifications not yet dispatched to their channels: a :class:`Delivery` per active
    webhook, per push subscription, per device (of a platform with credentials) and per channel the
    player wants (email with an address),
    not before the end of their quiet hours. Returns how many notifications it handed on
    (``limit``: there may be more) and the deliveries created, to be sent by the channel tasks.
    Rows are claimed with ``SKIP LOCKED``: two relays never take the same one. The deliveries
    are written set-wise: on PostgreSQL one ``INSERT … SELECT FROM unnest(…) RETURNING id``."""
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(dispatched=False, due_at__isnull=True)
            .order_by("id")
            .values_list("id", "user_id", "kind")[:limit]
        )
        if not rows:
            return 0, []
        users = {user for _, user, _ in rows}
        hooks: dict[int, list[int]] = {}
        for hook_id, owner in Webhook.objects.filter(user_id__in=users, active=True).values_list(
            "id", "user_id"
        ):
            hooks.setdefault(owner, []).append(hook_id)
        pushes: dict[int, list[int]] = {}
        for sub_id, owner in PushSubscription.objects.filter(user_id__in=users).values_list(
            "id", "user_id"
        ):
            pushes.setdefault(owner, []).append(sub_id)
        devices: dict[int, list[int]] = {}
        platforms = mobile_platforms()
        if platforms:
            for device_id, owner in Device.objects.filter(
                user_id__in=users, platform__in=platforms
            ).values_list("id", "user_id"):
                devices.setdefault(owner, []).append(device_id)
        emails = set(
            User.objects.filter(pk__in=users).exclude(email="").values_list("pk", flat=True)
        )
        pref_of = {p.user_id: p for p in Preference.objects.filter(user_id__in=users)}
        #: (notification, channel, webhook, push, device, not_before) of each delivery
        targets: list[tuple[int, str, int | None, int | None, int | None, Any]] = []
        quiet: dict[int, Any] = {}
        for note, user, kind in rows:
            pref = pref_of.get(user) or Preference(user_id=user)
            if user not in quiet:
                quiet[user] = prefs.quiet_until(pref, now)
            later = quiet[user]
            if prefs.wants(pref, Channel.WEBHOOK, kind):
                for hook_id in hooks.get(user, []):
                    targets.append((note, Channel.WEBHOOK, hook_id, None, None, later))
            if prefs.wants(pref, Channel.WEB_PUSH, kind):
                for push_id in pushes.get(user, []):
                    targets.append((note, Channel.WEB_PUSH, None, push_id, None, later))
            if prefs.wants(pref, Channel.MOBILE, kind):
                for device_id in devices.get(user, []):
                    targets.append((note, Channel.MOBILE, None, None, device_id, later))
            if user in emails and prefs.wants(pref, Channel.EMAIL, kind):
                targets.append((note, Channel.EMAIL, None, None, None, later))
        ids = _deliveries_insert(targets, now)
        Notification.objects.filter(pk__in=[note for note, _, _ in rows]).update(dispatched=True)
    if ids is None:  # the portable path: read back what was written
        ids = list(
            Delivery.objects.filter(
                notification_id__in=[note for note, _, _ in rows], status=Delivery.Status.PENDING
            ).values_list("pk", flat=True)
        )
    return len(rows), ids


_INSERT_DELIVERIES = """
INSERT INTO notifications_delivery
    (notification_id, channel, webhook_id, push_id, device_id, not_before, status, attempts,
     created_at)
SELECT t.n, t.c, t.w, t.p, t.d, t.nb, %s, '[]'::jsonb, %s
FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::bigint[], %s::bigint[],
            %s::timestamptz[])
    AS t(n, c, w, p, d, nb)
ON CONFLICT DO NOTHING
RETURNING id
"""


def _deliveries_insert(
    targets: list[tuple[int, str, int | None, int | None, int | None, Any]], now: Any
) -> list[int] | None:
    """Write the deliveries: on PostgreSQL one statement, returning the new ids (a target that
    already has its delivery is left as it is); elsewhere ``bulk_create`` (returns ``None``)."""
    if not targets:
        return []
    from django.db import connection

    if connection.vendor != "postgresql":
        Delivery.objects.bulk_create(
            [
                Delivery(
                    notification_id=n,
                    channel=c,
                    webhook_id=w,
                    push_id=p,
                    device_id=d,
                    not_before=nb,
                )
                for n, c, w, p, d, nb in targets
            ],
            ignore_conflicts=True,
        )
        return None
    columns = list(zip(*targets, strict=True))
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT_DELIVERIES,
            [Delivery.Status.PENDING, now, *(list(c) for c in columns)],
        )
        return [row[0] for row in cursor.fetchall()]


def mobile_platforms() -> set[str]:
    """The mobile platforms whose push service has credentials (the others are off)."""
    from .channels.mobile import enabled_platforms

    return enabled_platforms()


def webhook_failed(*, webhook: Webhook) -> bool:
    """Count a failed delivery; at the limit the hook is disabled and its owner told (once).
    A disabled hook counts no more (its deliveries still pending fail unsent, or failed with
    it in the batch that disabled it). Returns whether it was disabled now."""
    limit = _setting("WEBHOOK_MAX_FAILURES", 10)
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().filter(pk=webhook.pk).first()
        if hook is None or not hook.active:
            return False
        hook.failures += 1
        disabled = hook.failures >= limit
        if disabled:
            hook.active = False
        hook.save(update_fields=["failures", "active"])
        if disabled:
            Notification.objects.bulk_create(
                [
                    Notification(
                        user_id=hook.user_id,
                        kind=Kind.WEBHOOK_DISABLED,
                        data={"url": hook.url},
                        key=f"hook-off:{hook.pk}:{hook.failures}",
                    )
                ],
                ignore_conflicts=True,
            )
            user = hook.user_id
            transaction.on_commit(lambda: wake_users([user]))
    return disabled


def webhook_succeeded(*, webhook: Webhook) -> None:
    if webhook.failures:
        Webhook.objects.filter(pk=webhook.pk).update(failures=0)


def pending_deliveries(*, limit: int = 1000, late: float = 0) -> list[int]:
    """Deliveries still pending that are due (quiet hours over, back-off waited), by ``late``
    seconds at least (the sweep sends them again)."""
    now = timezone.now() - timedelta(seconds=late)
    return list(
        Delivery.objects.filter(status=Delivery.Status.PENDING)
        .filter(Q(not_before__isnull=True, created_at__lte=now) | Q(not_before__lte=now))
        .order_by("id")
        .values_list("pk", flat=True)[:limit]
    )
