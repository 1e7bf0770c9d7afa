"""Waiting tickets of the quick-play queue, and blocks between players.

Nothing here changes a ticket: :mod:`matchmaking.services` is the only writer."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Ticket(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        MATCHED = "matched"
        CANCELLED = "cancelled"
        EXPIRED = "expired"

    #: The player's own row: deleted with the account.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    time_control = models.CharField(max_length=10)
    seats_min = models.PositiveSmallIntegerField()
    seats_max = models.PositiveSmallIntegerField()
    #: A rated table or an unrated one: the matcher seats only tickets that agree.
    rated = models.BooleanField(default=True)
    #: Bots of ``bot_level`` may fill the free seats after this many seconds (null: never).
    bots_after = models.PositiveIntegerField(null=True, blank=True)
    bot_level = models.CharField(max_length=16, blank=True)
    #: The player's rating in the game when queueing (the matcher's windows are around it).
    rating = models.FloatField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One waiting ticket per player: nobody can be seated twice from the queue.
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="waiting"), name="ticket_one_waiting"
            ),
            models.CheckConstraint(
                condition=Q(seats_min__lte=models.F("seats_max")), name="ticket_seat_range"
            ),
        ]
        indexes = [
            models.Index(
                fields=["game", "time_control", "created_at"],
                name="ticket_waiting_pool",
                condition=Q(status="waiting"),
            ),
            models.Index(fields=["user", "-created_at"], name="ticket_user_recent"),
        ]

    def __str__(self) -> str:
        return f"ticket {self.pk} {self.game} ({self.status})"


class Block(models.Model):
    """``blocker`` is never seated with ``blocked`` (either way round)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Rematch(models.Model):
    """The offer of a rematch of a finished match: the same seats (bots at their levels) and
    options, started when every human of the table has accepted."""

    class Status(models.TextChoices):
        OPEN = "open"
        STARTED = "started"
        DECLINED = "declined"
        EXPIRED = "expired"

    source = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="+")
    #: The ids of the players who accepted so far (the offerer first).
    accepted = models.JSONField(default=list)
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"rematch of {self.source_id} ({self.status})"


class Challenge(models.Model):
    """A challenge to named players: a match with the given options, started when every one of
    them has accepted (seats: the challenger, the players in the order named, then bots)."""

    class Status(models.TextChoices):
        OPEN = "open"
        STARTED = "started"
        DECLINED = "declined"
        EXPIRED = "expired"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    time_control = models.CharField(max_length=10)
    decision_seconds = models.PositiveIntegerField(null=True, blank=True)
    bots = models.JSONField(default=list)
    #: Whether the match it starts is rated (``Match.rated``).
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["challenger", "-created_at"], name="challenge_sent")]

    def __str__(self) -> str:
        return f"challenge {self.pk} ({self.status})"


class Challenged(models.Model):
    """A challenged player and their answer (``position``: their seat, after the challenger)."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invited")
    #: The player's own row: deleted with the account.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    accepted = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="challenged_once"),
        ]
        indexes = [models.Index(fields=["user", "challenge"], name="challenged_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in challenge {self.challenge_id}"


class Follow(models.Model):
    """``follower`` sees ``followed``'s public matches and when they are looking for a game."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
