"""Delivery channels: one attempt of one :class:`~notifications.models.Delivery`.

An attempt (of one delivery, or of a batch: :func:`attempt_many`) first takes a lease on the
delivery (``not_before`` moved a minute on, in a short transaction), so a second sender — a
Celery retry, the sweep catching a lost task — leaves it alone while it is being sent; the send
itself holds no transaction. The outcome is recorded in the delivery's ``attempts``; a failure
is tried again after an exponential back-off (``BACKOFF_SECONDS`` × 2ⁿ, or the service's
``Retry-After`` when it is longer) until ``MAX_ATTEMPTS``,
then the delivery is ``failed``. A failing channel never touches a match: deliveries are made
after the change has been committed, by workers or the sweep.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Channel, Delivery, Device, PushSubscription, Webhook
from ..reads import render

#: How long a sender holds a delivery before another may try it (seconds).
LEASE_SECONDS = 60
#: Sends of one batch made side by side.
SENDERS = 8


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, "NOTIFICATIONS", {}).get(name, default)


def backoff(attempt: int) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1, 2, …)."""
    base = float(_setting("BACKOFF_SECONDS", 2.0))
    return min(base * 2 ** (attempt - 1), float(_setting("BACKOFF_MAX_SECONDS", 3600.0)))


class Failed(Exception):
    """A send that did not get through; ``permanent``: trying again will not help."""

    def __init__(
        self, detail: str, *, permanent: bool = False, retry_after: float | None = None
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.permanent = permanent
        #: The service's ``Retry-After`` (seconds): wait at least this long.
        self.retry_after = retry_after


def _gone(error: Failed) -> bool:
    from .web_push import Gone

    return isinstance(error, Gone)


def attempt(delivery_id: int) -> float | None:
    """One attempt of a delivery that is due. Returns the seconds until it should be tried
    again, or ``None`` when there is nothing more to do (sent, failed for good, not due)."""
    return attempt_many([delivery_id]).get(delivery_id)


def attempt_many(ids: list[int]) -> dict[int, float]:
    """One attempt of each delivery of ``ids`` that is due, the sends side by side (a few
    threads): leases taken in one statement, the notifications rendered in one read, the
    outcomes stored in one. Returns, for those to be tried again, the seconds to wait."""
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("notification__user", "webhook", "push", "device")
            .filter(pk__in=ids, status=Delivery.Status.PENDING)
            .filter(Q(not_before__isnull=True) | Q(not_before__lte=now))
        )
        # leased by another sender, or waiting for quiet hours or a back-off: left alone
        Delivery.objects.filter(pk__in=[d.pk for d in rows]).update(
            not_before=now + timedelta(seconds=LEASE_SECONDS)
        )
    if not rows:
        return {}
    payloads = render([d.notification for d in rows])
    if len(rows) == 1:
        outcomes = [_try(rows[0], payloads[0])]
    else:
        with ThreadPoolExecutor(min(SENDERS, len(rows))) as pool:
            outcomes = list(pool.map(_try, rows, payloads))
    again: dict[int, float] = {}
    failed_hooks, good_hooks, gone = [], set(), set()
    gone_devices, used_devices = set(), set()
    for delivery, (ok, detail, permanent, lost, wait) in zip(rows, outcomes, strict=True):
        if lost and delivery.push_id is not None:
            gone.add(delivery.push_id)
        if lost and delivery.device_id is not None:
            gone_devices.add(delivery.device_id)
        if ok and delivery.device_id is not None:
            used_devices.add(delivery.device_id)
        number = len(delivery.attempts) + 1
        delivery.attempts = [
            *delivery.attempts,
            {"at": now.isoformat(), "ok": ok, "detail": detail},
        ]
        if ok:
            delivery.status, delivery.not_before = Delivery.Status.SENT, None
        elif permanent or number >= int(_setting("MAX_ATTEMPTS", 8)):
            delivery.status, delivery.not_before = Delivery.Status.FAILED, None
        else:
            again[delivery.pk] = max(backoff(number), wait or 0.0)
            delivery.not_before = timezone.now() + timedelta(seconds=again[delivery.pk])
        if delivery.channel == Channel.WEBHOOK and delivery.webhook is not None:
            if ok:
                good_hooks.add(delivery.webhook.pk)
            elif delivery.status == Delivery.Status.FAILED:
                failed_hooks.append(delivery.webhook)
    Delivery.objects.bulk_update(rows, ["attempts", "status", "not_before"])
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    if gone_devices:
        Device.objects.filter(pk__in=gone_devices).delete()
    if used_devices:
        Device.objects.filter(pk__in=used_devices).update(last_used_at=now)
    if good_hooks:
        Webhook.objects.filter(pk__in=good_hooks, failures__gt=0).update(failures=0)
    if failed_hooks:
        from ..deliveries import webhook_failed

        for hook in failed_hooks:
            webhook_failed(webhook=hook)
    return again


def _try(delivery: Delivery, payload: dict[str, Any]) -> tuple[bool, str, bool, bool, float | None]:
    """``(ok, detail, permanent, gone, retry after)`` of one send (``gone``: the target no
    longer exists; ``retry after``: the service asked to wait that long)."""
    try:
        _send(delivery, payload)
    except Failed as error:
        return False, error.detail[:300], error.permanent, _gone(error), error.retry_after
    return True, "", False, False, None


def _send(delivery: Delivery, payload: dict[str, Any]) -> None:
    if delivery.channel == Channel.WEBHOOK:
        from .webhook import send

        assert delivery.webhook is not None
        if not delivery.webhook.active:
            raise Failed("the webhook is disabled", permanent=True)
        send(delivery.webhook.url, delivery.webhook.secret, payload)
    elif delivery.channel == Channel.EMAIL:
        from .email import send as send_email

        send_email(delivery.notification.user.email, payload)
    elif delivery.channel == Channel.WEB_PUSH:
        from .web_push import send as push

        if delivery.push is None:
            raise Failed("the push subscription was deleted", permanent=True)
        push(delivery.push.endpoint, delivery.push.p256dh, delivery.push.auth, payload)
    elif delivery.channel == Channel.MOBILE:
        from .mobile import send as push_mobile

        if delivery.device is None:
            raise Failed("the device was deleted", permanent=True)
        push_mobile(delivery.device.platform, delivery.device.token, payload)
    else:  # pragma: no cover - every channel is handled above
        raise Failed(f"unknown channel {delivery.channel}", permanent=True)
