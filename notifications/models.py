"""The inbox and what delivers it.

- :class:`Notification`: one row per recipient, inserted in the transaction (or the one
  statement) of the change that causes it, so it is never lost; its ``key`` is unique per user,
  so it is never doubled. A reminder is inserted ahead of time with ``due_at`` and stays out of
  the inbox until the reminder sweep finds its decision still pending when it is due.
- :class:`Preference`: per user, which kinds go to which channel, quiet hours and reminders.
- :class:`Webhook`: a user's HTTPS endpoint and its signing secret.
- :class:`PushSubscription`: a browser's Web Push subscription (its push service endpoint and
  the keys its payloads are encrypted to).
- :class:`Device`: a phone app's push token (FCM or APNs) for :mod:`.channels.mobile`.
- :class:`Delivery`: one notification to one channel target, with every attempt recorded.

Write through :mod:`notifications.services` (and the commit step's one hook,
:mod:`notifications.outbox`) only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn"
    MATCH_STARTED = "match_started"
    MATCH_ENDED = "match_ended"
    DEADLINE_REMINDER = "deadline_reminder"
    TAKEOVER = "takeover"
    WEBHOOK_DISABLED = "webhook_disabled"
    CHALLENGED = "challenged"
    REMATCH_OFFERED = "rematch_offered"
    ROUND_STARTING = "round_starting"
    FOLLOWED_LOOKING = "followed_looking"


class Channel(models.TextChoices):
    WEBHOOK = "webhook"
    EMAIL = "email"
    WEB_PUSH = "web_push"
    MOBILE = "mobile"


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    #: The match's version this notification was written at (a tap opens this state or later).
    version = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Public facts only (game, deadline, placements …): what the recipient may see.
    data = models.JSONField(default=dict)
    #: Unique per user: the same cause never writes two notifications.
    key = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)
    #: A reminder written ahead of time: out of the inbox until the sweep fires it.
    due_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    #: Handed to the delivery channels (the outbox relay sets it).
    dispatched = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_unique_key"),
        ]
        indexes = [
            models.Index(
                fields=["user", "-id"],
                name="notification_inbox",
                condition=models.Q(due_at__isnull=True),
            ),
            models.Index(
                fields=["id"],
                name="notification_undispatched",
                condition=models.Q(dispatched=False, due_at__isnull=True),
            ),
            models.Index(
                fields=["due_at"],
                name="notification_due",
                condition=models.Q(due_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class Preference(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    #: channel -> kinds turned off for it (everything is on unless listed).
    muted = models.JSONField(default=dict)
    #: An IANA time zone name ("Europe/Paris"); quiet hours are read in it.
    time_zone = models.CharField(max_length=64, default="UTC")
    #: Quiet hours, local times; none = no quiet hours. May wrap midnight (22:00–07:00).
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    #: A reminder before an async deadline (when a fifth of the time is left).
    reminders = models.BooleanField(default=True)
    #: A daily email of the matches waiting for the player (:mod:`notifications.digest`).
    digest = models.BooleanField(default=False)
    #: The player's local date of the last digest (at most one a day).
    digest_sent_on = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"


class Webhook(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    #: Consecutive failed deliveries; at the limit the hook is disabled.
    failures = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.url


class PushSubscription(models.Model):
    """A browser's ``PushSubscription``: where its push service takes messages for it, and the
    keys (RFC 8291) they are encrypted to. One endpoint belongs to one account: the browser
    that registers it again, for another account, moves it there."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    #: The browser's P-256 public key (uncompressed point, base64url).
    p256dh = models.CharField(max_length=100)
    #: The browser's 16-byte authentication secret (base64url).
    auth = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:  # never the endpoint: it is a capability to push to the player
        return f"push subscription {self.pk} of {self.user_id}"


class Device(models.Model):
    """A phone app's registration with its push service: an FCM registration token or an APNs
    device token. One token belongs to one account: the app that registers it again, for
    another account, moves it there. A token the push service reports unregistered is
    deleted (:mod:`.channels.mobile`)."""

    class Platform(models.TextChoices):
        FCM = "fcm"
        APNS = "apns"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="devices"
    )
    platform = models.CharField(max_length=8, choices=Platform.choices)
    token = models.CharField(max_length=512, unique=True)
    #: The player's name for it ("Pixel 8").
    label = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    #: Last registered again, or last pushed to with success.
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:  # never the token: it is a capability to push to the player
        return f"{self.platform} device {self.pk} of {self.user_id}"


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"
        SKIPPED = "skipped"

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=16, choices=Channel.choices)
    webhook = models.ForeignKey(Webhook, null=True, blank=True, on_delete=models.CASCADE)
    #: A Web Push delivery's subscription (null once the push service said it is gone: the
    #: record of the attempts stays).
    push = models.ForeignKey(
        PushSubscription, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: A mobile delivery's device (null once the push service said the token is unregistered).
    device = models.ForeignKey(
        Device, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    #: Every attempt: ``{"at": iso time, "ok": bool, "detail": str}``.
    attempts = models.JSONField(default=list)
    #: Not sent before this time (quiet hours).
    not_before = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "channel", "webhook"], name="delivery_unique_target"
            ),
            models.UniqueConstraint(
                fields=["notification", "push"],
                name="delivery_unique_push",
                condition=models.Q(push__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["notification", "device"],
                name="delivery_unique_device",
                condition=models.Q(device__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.channel} of {self.notification_id}"
