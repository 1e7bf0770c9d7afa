"""Fibber's Dice tournaments (docs/tournaments.md): a tournament, its entries and its rounds,
each round an ordinary match of ``games``.

The tables were made by the ``games`` app, where tournaments began, and keep their names
(``db_table``); the migration that moved the models here changed no table
(``games`` 0009 and ``tournaments`` 0001, ``SeparateDatabaseAndState``)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from games.models import Match


class Tournament(models.Model):
    """A Fibber's Dice tournament (docs/tournaments.md): a host, the
    registered players and one or more rounds, each an ordinary match. Written only by
    ``tournaments.services``; the pure rules are ``games.engine.fibbers_dice.tournament``."""

    class Status(models.TextChoices):
        OPEN = "open"  # registration open, not started
        RUNNING = "running"
        FINISHED = "finished"

    class Format(models.TextChoices):
        STANDARD = "standard"
        SHORT = "short"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=32, default="fibbers_dice")
    name = models.CharField(max_length=100)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    visibility = models.CharField(
        max_length=10, choices=Match.Visibility.choices, default=Match.Visibility.PUBLIC
    )
    #: Starts by itself then (the sweep, once 2 are registered); null: "start when I say".
    starts_at = models.DateTimeField(null=True, blank=True)
    time_control = models.CharField(
        max_length=10, choices=Match.TimeControl.choices, default=Match.TimeControl.LIVE
    )
    decision_seconds = models.PositiveIntegerField(null=True, blank=True)
    #: The host's starting points for every round; null: the rules' default.
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.STANDARD)
    #: Start the next round as soon as one ends (else the host starts each round).
    auto_advance = models.BooleanField(default=False)
    door_prizes = models.PositiveSmallIntegerField(default=0)
    #: Decided at the start: 7 or fewer registered play one round.
    single_round = models.BooleanField(null=True, blank=True)
    #: The raffle's secret seed (revealed with the draw) and its commitment (public from the
    #: creation, when registration opens).
    raffle_seed = models.CharField(max_length=128, editable=False)
    raffle_commitment = models.CharField(max_length=64, editable=False)
    #: Door-prize winners (user ids, prize 1 first), once drawn.
    raffle_winners = models.JSONField(null=True, blank=True)
    #: The entrants of the draw (sorted user ids), kept so that anyone can recompute it.
    raffle_entrants = models.JSONField(null=True, blank=True)
    #: Main-prize pick order (user ids, first pick first), from the final.
    prize_picks = models.JSONField(null=True, blank=True)
    #: Grows with every change (registration, round, result).
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_tournament"  # made in the games app, where tournaments began
        indexes = [models.Index(fields=["status", "-created_at"], name="tournament_status")]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class Entry(models.Model):
    """A registered player of a tournament; ``late``: registered after it started."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    late = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_entry"
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class Round(models.Model):
    """One round of a tournament: an ordinary match (none when the round was skipped)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    final = models.BooleanField(default=False)
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_round"
    )
    skipped = models.BooleanField(default=False)
    #: User ids in seat order (late entrants of a single round appended as they join).
    players = models.JSONField(default=list)
    #: ``{"<user id>": place}`` once the round's match has ended.
    placements = models.JSONField(null=True, blank=True)
    #: User ids who qualified for the final from this round.
    qualified = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_round"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"

    @property
    def over(self) -> bool:
        return self.skipped or self.placements is not None
