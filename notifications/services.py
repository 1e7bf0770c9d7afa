"""The only writers of the inbox outside the commit step's hook (:mod:`.outbox`): reading
notifications, preferences, webhooks, the reminder sweep and the outbox relay that hands
notifications to the delivery channels."""

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
    Channel,
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


# --- The outbox relay --------------------------------------------------------------------------


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
    Returns whether it was disabled now."""
    limit = _setting("WEBHOOK_MAX_FAILURES", 10)
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().get(pk=webhook.pk)
        hook.failures += 1
        disabled = hook.active and hook.failures >= limit
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
