"""The only writers of the inbox outside the commit step's hook (:mod:`.outbox`): reading
notifications, preferences, webhooks, push subscriptions and devices, the reminder sweep and
the purge. The outbox relay that hands notifications to the delivery channels is
:mod:`.deliveries`."""

from __future__ import annotations

import secrets
from datetime import time, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat
from kernel.errors import Conflict, NotFound
from tournaments.models import Entry, Tournament

from . import prefs
from .models import (
    Delivery,
    Device,
    Kind,
    Notification,
    Preference,
    PushSubscription,
    Webhook,
)
from .wake import wake_users


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, "NOTIFICATIONS", {}).get(name, default)


# --- The inbox ---------------------------------------------------------------------------------


def notification_read(*, user: User, notification_id: int) -> Notification:
    """Mark one of the user's notifications read (again: no change). Not theirs: 404."""
    row = Notification.objects.filter(user=user, pk=notification_id, due_at__isnull=True).first()
    if row is None:
        raise NotFound("No such notification.")
    if row.read_at is None:
        row.read_at = timezone.now()
        Notification.objects.filter(pk=row.pk, read_at__isnull=True).update(read_at=row.read_at)
    return row


def notifications_read_all(*, user: User, up_to: int | None = None) -> int:
    """Mark every unread notification read (those up to id ``up_to`` only, if given: what the
    client has shown). Returns how many changed."""
    qs = Notification.objects.filter(user=user, due_at__isnull=True, read_at__isnull=True)
    if up_to is not None:
        qs = qs.filter(id__lte=up_to)
    return qs.update(read_at=timezone.now())


# --- Preferences -------------------------------------------------------------------------------


@transaction.atomic
def preference_update(
    *,
    user: User,
    channels: dict[str, dict[str, bool]] | None = None,
    time_zone: str | None = None,
    quiet: tuple[time | None, time | None] | None = None,
    reminders: bool | None = None,
    digest: bool | None = None,
) -> Preference:
    """Change what is given; the rest stays. ``channels``: channel -> kind -> on/off."""
    pref, _ = Preference.objects.select_for_update().get_or_create(user=user)
    if channels:
        muted = {c: set(pref.muted.get(c, [])) for c in prefs.CHANNELS}
        for channel, kinds in channels.items():
            for kind, on in kinds.items():
                (muted[channel].discard if on else muted[channel].add)(kind)
        pref.muted = {c: sorted(k) for c, k in muted.items() if k}
    if time_zone is not None:
        pref.time_zone = time_zone
    if quiet is not None:
        pref.quiet_start, pref.quiet_end = quiet
    if reminders is not None:
        pref.reminders = reminders
    if digest is not None:
        pref.digest = digest
    pref.save()
    return pref


# --- Webhooks ----------------------------------------------------------------------------------


def webhook_create(*, user: User, url: str) -> Webhook:
    """A new endpoint for the user's notifications, with its own signing secret (shown once)."""
    if Webhook.objects.filter(user=user).count() >= _setting("MAX_WEBHOOKS", 5):
        raise Conflict("You have as many webhooks as you may have; delete one first.")
    return Webhook.objects.create(user=user, url=url, secret=secrets.token_hex(32))


def webhook_delete(*, user: User, webhook_id: int) -> None:
    deleted, _ = Webhook.objects.filter(user=user, pk=webhook_id).delete()
    if not deleted:
        raise NotFound("No such webhook.")


# --- Web Push subscriptions -------------------------------------------------------------------


def push_subscribe(
    *, user: User, endpoint: str, p256dh: str, auth: str
) -> tuple[PushSubscription, bool]:
    """Register a browser's push subscription (checked by the request's declaration). The same
    endpoint again updates its keys; registered by another account, it moves to this one (the
    browser is theirs now). Returns the subscription and whether it is new to this account.

    Two registrations of one endpoint at once: the second insert waits for the first and
    fails on the unique endpoint; it is tried again, finds the row and updates it (never a
    500, one row)."""
    for _ in range(3):
        try:
            with transaction.atomic():
                return _push_subscribe(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
        except IntegrityError:
            continue  # a concurrent registration inserted it first: it is there now
    raise Conflict("This push subscription is being registered by another request; try again.")


def _push_subscribe(
    *, user: User, endpoint: str, p256dh: str, auth: str
) -> tuple[PushSubscription, bool]:
    found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if found is not None and found.user_id == user.pk:
        if (found.p256dh, found.auth) != (p256dh, auth):
            found.p256dh, found.auth = p256dh, auth
            found.save(update_fields=["p256dh", "auth"])
        return found, False
    mine = PushSubscription.objects.filter(user=user).count()
    if mine >= _setting("MAX_PUSH_SUBSCRIPTIONS", 10):
        raise Conflict("You have as many push subscriptions as you may have; delete one first.")
    if found is not None:
        # moved in place (a concurrent registration waiting on this row then finds it); what
        # was on its way to the browser for the previous account is not sent to the new one
        Delivery.objects.filter(push=found).update(push=None)
        found.user, found.p256dh, found.auth = user, p256dh, auth
        found.created_at = timezone.now()
        found.save(update_fields=["user", "p256dh", "auth", "created_at"])
        return found, True
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=p256dh, auth=auth
    ), True


def push_unsubscribe(*, user: User, subscription_id: int) -> None:
    deleted, _ = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    if not deleted:
        raise NotFound("No such push subscription.")


# --- Mobile devices ----------------------------------------------------------------------------


def device_register(
    *, user: User, platform: str, token: str, label: str = ""
) -> tuple[Device, bool]:
    """Register a phone app's push token (FCM or APNs; checked by the request's declaration).
    The same token again updates its platform and label; registered by another account, it
    moves to this one (the phone is theirs now). Idempotent under concurrency: two
    registrations of one token at once leave one row, and neither fails. Returns the device and
    whether it is new to this account."""
    for _ in range(3):
        try:
            with transaction.atomic():
                return _device_register(user=user, platform=platform, token=token, label=label)
        except IntegrityError:
            continue  # a concurrent registration inserted it first: it is there now
    raise Conflict("This device is being registered by another request; try again.")


def _device_register(*, user: User, platform: str, token: str, label: str) -> tuple[Device, bool]:
    now = timezone.now()
    found = Device.objects.select_for_update().filter(token=token).first()
    if found is not None and found.user_id == user.pk:
        found.platform, found.label, found.last_used_at = platform, label, now
        found.save(update_fields=["platform", "label", "last_used_at"])
        return found, False
    if Device.objects.filter(user=user).count() >= _setting("MAX_DEVICES", 10):
        raise Conflict("You have as many devices as you may have; delete one first.")
    if found is not None:
        # moved in place; what was on its way to the phone for the previous account is not
        # sent to the new one
        Delivery.objects.filter(device=found).update(device=None)
        found.user, found.platform, found.label = user, platform, label
        found.created_at = found.last_used_at = now
        found.save(update_fields=["user", "platform", "label", "created_at", "last_used_at"])
        return found, True
    return Device.objects.create(
        user=user, platform=platform, token=token, label=label, last_used_at=now
    ), True


def device_delete(*, user: User, device_id: int) -> None:
    deleted, _ = Device.objects.filter(user=user, pk=device_id).delete()
    if not deleted:
        raise NotFound("No such device.")


# --- The reminder sweep ------------------------------------------------------------------------


def reminders_fire(*, limit: int = 1000) -> int:
    """Reminders that are due: into the inbox if their decision is still pending (the seat
    still must act with the deadline the reminder was written for) and the player wants
    reminders; else deleted. One decision has one reminder (its key). Returns how many due
    reminders it handled (fired or deleted): ``limit`` means there may be more."""
    from games.services.common import db_now

    now = db_now()
    with transaction.atomic():
        due = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=now)
            .order_by("due_at")[:limit]
        )
        if not due:
            return 0
        pending = {
            (s.match_id, s.position): s.deadline
            for s in Seat.objects.filter(
                must_act=True,
                match__status=Match.Status.ACTIVE,
                match_id__in={n.match_id for n in due},
            ).only("match_id", "position", "deadline")
        }
        muted = set(
            Preference.objects.filter(
                user_id__in={n.user_id for n in due}, reminders=False
            ).values_list("user_id", flat=True)
        )
        starting = _rounds_still_starting([n for n in due if n.kind == Kind.ROUND_STARTING])
        looking = _still_looking([n for n in due if n.kind == Kind.FOLLOWED_LOOKING])
        fire: list[int] = []
        drop: list[int] = []
        for n in due:
            if n.kind == Kind.ROUND_STARTING:
                (fire if n.pk in starting else drop).append(n.pk)
                continue
            if n.kind == Kind.FOLLOWED_LOOKING:
                (fire if n.pk in looking else drop).append(n.pk)
                continue
            deadline = pending.get((n.match_id, n.seat or 0)) if n.match_id else None
            still = deadline is not None and deadline.isoformat() == n.data.get("deadline")
            (fire if still and n.user_id not in muted else drop).append(n.pk)
        Notification.objects.filter(pk__in=drop).delete()
        Notification.objects.filter(pk__in=fire).update(due_at=None, created_at=now)
        users = {n.user_id for n in due if n.pk in set(fire)}
        transaction.on_commit(lambda: wake_users(users))
    return len(due)


def _still_looking(notices: list[Notification]) -> set[int]:
    """The ``followed_looking`` notices whose ticket is still waiting, whose recipient still
    follows its player, and with no block between the two either way."""
    if not notices:
        return set()
    from matchmaking.models import Block, Follow, Ticket

    from .outbox import looking_ticket

    tickets = {t for n in notices if (t := looking_ticket(n.key)) is not None}
    waiting = dict(
        Ticket.objects.filter(pk__in=tickets, status=Ticket.Status.WAITING).values_list(
            "pk", "user_id"
        )
    )
    players = set(waiting.values())
    followers = {n.user_id for n in notices}
    follows = set(
        Follow.objects.filter(follower_id__in=followers, followed_id__in=players).values_list(
            "follower_id", "followed_id"
        )
    )
    blocks = {
        frozenset(pair)
        for pair in Block.objects.filter(
            Q(blocker_id__in=followers, blocked_id__in=players)
            | Q(blocker_id__in=players, blocked_id__in=followers)
        ).values_list("blocker_id", "blocked_id")
    }
    still: set[int] = set()
    for n in notices:
        player = waiting.get(looking_ticket(n.key) or 0)
        if (
            player is not None
            and player == n.data.get("player")
            and (n.user_id, player) in follows
            and frozenset((n.user_id, player)) not in blocks
        ):
            still.add(n.pk)
    return still


def _rounds_still_starting(notices: list[Notification]) -> set[int]:
    """The ``round_starting`` notices whose tournament is still open, still announced for the
    time the notice was written for, with its player still registered."""
    if not notices:
        return set()
    ids = {n.data.get("tournament") for n in notices}
    open_at = {
        str(pk): starts_at
        for pk, starts_at in Tournament.objects.filter(
            pk__in=ids, status=Tournament.Status.OPEN
        ).values_list("pk", "starts_at")
    }
    entered = {
        (str(t), u)
        for t, u in Entry.objects.filter(
            tournament_id__in=list(open_at), user_id__in={n.user_id for n in notices}
        ).values_list("tournament_id", "user_id")
    }
    still: set[int] = set()
    for n in notices:
        tid = n.data.get("tournament")
        starts_at = open_at.get(tid)
        announced = starts_at is not None and starts_at.isoformat() == n.data.get("starts_at")
        if announced and (tid, n.user_id) in entered:
            still.add(n.pk)
    return still


# --- Housekeeping -----------------------------------------------------------------------------


def notifications_purge(*, keep_days: int | None = None) -> int:
    """Delete notifications (and their delivery records) older than ``KEEP_DAYS`` (90): an
    inbox keeps what a player may still look for. Reminders not yet due are kept. Returns the
    number deleted."""
    days = _setting("KEEP_DAYS", 90) if keep_days is None else keep_days
    old = Notification.objects.filter(
        due_at__isnull=True, created_at__lt=timezone.now() - timedelta(days=days)
    )
    deleted = old.count()
    old.delete()
    return deleted
