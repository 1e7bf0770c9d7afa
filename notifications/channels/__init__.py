"""Delivery channels: one attempt of one :class:`~notifications.models.Delivery`.

An attempt first takes a lease on the delivery (``not_before`` moved a minute on, in a short
transaction), so a second sender — a Celery retry, the sweep catching a lost task — leaves it
alone while it is being sent; the send itself holds no transaction. The outcome is recorded in
the delivery's ``attempts``; a failure is tried again after an exponential back-off
(``BACKOFF_SECONDS`` × 2ⁿ) until ``MAX_ATTEMPTS``, then the delivery is ``failed``. A failing
channel never touches a match: deliveries are made after the change has been committed, by
workers or the sweep.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..models import Channel, Delivery
from ..reads import render

#: How long a sender holds a delivery before another may try it (seconds).
LEASE_SECONDS = 60


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, "NOTIFICATIONS", {}).get(name, default)


def backoff(attempt: int) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1, 2, …)."""
    base = float(_setting("BACKOFF_SECONDS", 2.0))
    return min(base * 2 ** (attempt - 1), float(_setting("BACKOFF_MAX_SECONDS", 3600.0)))


class Failed(Exception):
    """A send that did not get through; ``permanent``: trying again will not help."""

    def __init__(self, detail: str, *, permanent: bool = False) -> None:
        super().__init__(detail)
        self.detail = detail
        self.permanent = permanent


def attempt(delivery_id: int) -> float | None:
    """One attempt of a delivery that is due. Returns the seconds until it should be tried
    again, or ``None`` when there is nothing more to do (sent, failed for good, not due)."""
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("notification", "webhook")
            .filter(pk=delivery_id, status=Delivery.Status.PENDING)
            .first()
        )
        if delivery is None:
            return None
        if delivery.not_before is not None and delivery.not_before > now:
            return None  # leased by another sender, or waiting for quiet hours or a back-off
        delivery.not_before = now + timedelta(seconds=LEASE_SECONDS)
        delivery.save(update_fields=["not_before"])
    payload = render([delivery.notification])[0]
    ok, detail, permanent = True, "", False
    try:
        _send(delivery, payload)
    except Failed as error:
        ok, detail, permanent = False, error.detail[:300], error.permanent
    number = len(delivery.attempts) + 1
    delivery.attempts = [*delivery.attempts, {"at": now.isoformat(), "ok": ok, "detail": detail}]
    again: float | None = None
    if ok:
        delivery.status = Delivery.Status.SENT
        delivery.not_before = None
    elif permanent or number >= int(_setting("MAX_ATTEMPTS", 8)):
        delivery.status = Delivery.Status.FAILED
        delivery.not_before = None
    else:
        again = backoff(number)
        delivery.not_before = timezone.now() + timedelta(seconds=again)
    delivery.save(update_fields=["attempts", "status", "not_before"])
    if delivery.channel == Channel.WEBHOOK and delivery.webhook is not None:
        from ..services import webhook_failed, webhook_succeeded

        if ok:
            webhook_succeeded(webhook=delivery.webhook)
        elif delivery.status == Delivery.Status.FAILED:
            webhook_failed(webhook=delivery.webhook)
    return again


def _send(delivery: Delivery, payload: dict[str, Any]) -> None:
    if delivery.channel == Channel.WEBHOOK:
        from .webhook import send

        assert delivery.webhook is not None
        if not delivery.webhook.active:
            raise Failed("the webhook is disabled", permanent=True)
        send(delivery.webhook.url, delivery.webhook.secret, payload)
    elif delivery.channel == Channel.EMAIL:
        from .email import send as send_email

        send_email(delivery.notification.user_id, payload)
    else:  # pragma: no cover - every channel is handled above
        raise Failed(f"unknown channel {delivery.channel}", permanent=True)
