"""Matches, seats, the event log and idempotency records.

Nothing here changes a match: ``games.services`` is the only writer (docs/architecture.md). The
engine state and the seed are server-only; they leave the server only through the engine's views
and, after the end, the replay.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from .rating import MU, SIGMA, START


def new_invite_code() -> str:
    return secrets.token_urlsafe(6)


class Match(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    class Visibility(models.TextChoices):
        PUBLIC = "public"
        PRIVATE = "private"

    class TimeControl(models.TextChoices):
        LIVE = "live"
        ASYNC = "async"
        SOLO = "solo"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    #: Unique (``match_unique_invite_code``): a constraint rather than ``unique=True``, which
    #: would add a second, ``LIKE``-pattern index that every non-HOT update of the row writes.
    invite_code = models.CharField(max_length=16, default=new_invite_code)
    time_control = models.CharField(
        max_length=10, choices=TimeControl.choices, default=TimeControl.LIVE
    )
    decision_seconds = models.PositiveIntegerField()
    #: Whether the match changes ratings (docs/ratings.md): asked for at creation, false for a
    #: table that cannot be rated (solo, bots only, one player), and set false when the match
    #: starts with fewer than two players. Career counts take every match, rated or not.
    rated = models.BooleanField(default=True)
    #: Grows by one with every applied action; ``expected_version`` is checked against it.
    version = models.PositiveIntegerField(default=0)
    #: Sequence number of the last event (events are numbered 1, 2, … with no gaps).
    last_seq = models.PositiveIntegerField(default=0)
    #: The secret seed (hex), revealed in the replay once the match has ended.
    seed = models.CharField(max_length=128, editable=False)
    seed_commitment = models.CharField(max_length=64, editable=False)
    #: The engine state: server-only, never serialized to a client.
    state = models.JSONField(null=True, blank=True, editable=False)
    #: The earliest pending decision deadline (for the sweep), null when none.
    deadline = models.DateTimeField(null=True, blank=True)
    #: When the deadline timer last sent for this match fires (null: none sent). A step sends
    #: a new timer only when none fires at or before its deadline, and a timer that fires
    #: stale sends the next one (``services.schedule.timer_needed``, ``deadline_expire``).
    timer_at = models.DateTimeField(null=True, blank=True, editable=False)
    placements = models.JSONField(null=True, blank=True)
    #: Bluff statistics of each seat's own decisions (revealed at the end).
    stats = models.JSONField(null=True, blank=True)
    #: Statistics of the decisions bots took for human seats after a deadline, kept apart.
    takeover_stats = models.JSONField(null=True, blank=True)
    end_reason = models.CharField(max_length=32, blank=True)
    #: The end-of-match work (careers, ratings, leaderboards) has been applied, exactly once.
    results_recorded = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["invite_code"], name="match_unique_invite_code"),
        ]
        indexes = [
            # The lobby: open public matches of a game, newest first.
            models.Index(
                fields=["game", "-created_at"],
                name="match_open_lobby",
                condition=Q(status="lobby", visibility="public"),
            ),
            models.Index(fields=["status", "-created_at"], name="match_status_created"),
            # The deadline sweep: active matches with a deadline, soonest first.
            models.Index(fields=["deadline"], name="match_deadline", condition=Q(status="active")),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.id} ({self.status})"


class Seat(models.Model):
    # No index of their own: ``seat_unique_position`` (match, position) and ``seat_user_joined``
    # (user, joined_at) lead with them, and every move updates seats (a non-HOT update writes
    # every index of the row).
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        db_index=False,
    )
    #: Set for a bot seat: the bot's level. A human seat has none.
    bot_level = models.CharField(max_length=16, blank=True)
    #: This seat must decide now (denormalized from the engine for the inbox).
    must_act = models.BooleanField(default=False)
    deadline = models.DateTimeField(null=True, blank=True)
    #: Consecutive decisions a bot had to take for this (human) seat after a deadline.
    timeouts = models.PositiveSmallIntegerField(default=0)
    away = models.BooleanField(default=False)
    #: Async matches only: the seat's player is on vacation until then; their clock waits.
    vacation_until = models.DateTimeField(null=True, blank=True)
    #: The seat's latest decision was taken by a bot (statistics attribution).
    last_by_bot = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_unique_position"),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_level=""), name="seat_user_or_bot"
            ),
        ]
        indexes = [
            # "My turns": the caller's seats that must act, soonest deadline first.
            models.Index(
                fields=["user", "deadline"], name="seat_my_turns", condition=Q(must_act=True)
            ),
            models.Index(fields=["user", "-joined_at"], name="seat_user_joined"),
        ]

    def __str__(self) -> str:
        who = (self.user_id and f"user {self.user_id}") or (
            self.bot_level and f"bot {self.bot_level}"
        )
        return f"seat {self.position} of {self.match_id}: {who or 'empty'}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level


class Event(models.Model):
    """The append-only log. One row per engine event; rows of one action share ``version``.

    The first row of each applied action also keeps the action, its seat and the chance
    outcomes drawn, so the log alone rebuilds the complete replay.
    """

    #: No index of its own: ``event_unique_seq`` (match, seq) leads with it.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    public = models.JSONField(default=dict)
    #: ``{"<seat>": {...}}``: the parts only one seat may see.
    private = models.JSONField(default=dict)
    actor = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.JSONField(null=True, blank=True)
    chance = models.JSONField(null=True, blank=True)
    #: A bot took this decision for a human seat (deadline passed or seat away).
    by_bot = models.BooleanField(default=False)
    #: The deadline that had passed, when a bot took the decision after a time-out.
    deadline = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} #{self.seq} {self.type}"


class IdempotencyRecord(models.Model):
    """The stored response of an action sent with an ``Idempotency-Key``, per user and key."""

    #: No index of its own: ``idempotency_unique_key`` (user, key) leads with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    key = models.CharField(max_length=128)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    #: The response body as sent, kept as text so a replayed response is byte-identical
    #: (a jsonb column would reorder its keys).
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key"),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


class Career(models.Model):
    """A player's results in one game, summed over the finished matches recorded so far, with
    their rating and their place on each leaderboard.

    Written only by the end-of-match work (``services.match_record_results``, once per match)
    and by its replay over the whole history (``services.stats_rebuild``), both through
    ``services.tally``; every reader reads these rows, never the matches."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    matches = models.PositiveIntegerField(default=0)
    #: First places (a shared first place included).
    wins = models.PositiveIntegerField(default=0)
    place_sum = models.PositiveIntegerField(default=0)
    #: How often the player took each place: ``{"1": 4, "2": 7, ...}``.
    places = models.JSONField(default=dict)
    #: Bluff statistics of the player's own decisions, summed.
    stats = models.JSONField(default=dict)
    #: Statistics of the decisions bots took for the player after a deadline, summed apart.
    bot_stats = models.JSONField(default=dict)
    #: Matches in which bots took most of the player's decisions, and the wins among them.
    assisted = models.PositiveIntegerField(default=0)
    assisted_wins = models.PositiveIntegerField(default=0)
    #: The rating (docs/ratings.md): ``mu``, ``sigma`` and the display value ``mu - 3 sigma``.
    rated_matches = models.PositiveIntegerField(default=0)
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    rating = models.FloatField(default=START)
    #: When the latest recorded match ended (the boards' "active within N days").
    last_played_at = models.DateTimeField(null=True, blank=True)
    #: The player's value on each leaderboard, null while they are not on it (too few
    #: matches, too few attempts, or a board the game does not have).
    board_rating = models.FloatField(null=True, blank=True)
    board_wins = models.FloatField(null=True, blank=True)
    board_bluffer = models.FloatField(null=True, blank=True)
    board_detective = models.FloatField(null=True, blank=True)
    board_boldest = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="career_unique_user_game"),
        ]
        # One index per board, in the board's order (games/reads/leaderboards.py, BOARD_ORDER),
        # holding only the players on it.
        indexes = [
            models.Index(
                fields=["game", "-board_rating", "-rated_matches", "user"],
                name="career_board_rating",
                condition=Q(board_rating__isnull=False),
            ),
            models.Index(
                fields=["game", "-board_wins", "matches", "user"],
                name="career_board_wins",
                condition=Q(board_wins__isnull=False),
            ),
            *(
                models.Index(
                    fields=["game", f"-board_{board}", "-matches", "user"],
                    name=f"career_board_{board}",
                    condition=Q(**{f"board_{board}__isnull": False}),
                )
                for board in ("bluffer", "detective", "boldest")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}: {self.wins}/{self.matches}"


class RecordedMatch(models.Model):
    """The end-of-match work of one match, applied: at most one row per match (the database
    itself refuses a second), and its ``id`` is the order in which the work was applied.

    Ratings depend on that order. The row is inserted after the players' careers are locked, so
    two matches that share a player get ids in the order their ratings were applied, and
    ``services.stats_rebuild`` replays the history in ``id`` order to the same numbers."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="record")
    game = models.CharField(max_length=32)
    #: Whether ratings changed: a rated match (``Match.rated``) with two or more human
    #: participants.
    rated = models.BooleanField(default=False)
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"#{self.pk} {self.game} {self.match_id}"


class RatingPoint(models.Model):
    """A player's rating after one rated match: their rating history, one point per match."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    record = models.ForeignKey(RecordedMatch, on_delete=models.CASCADE, related_name="points")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    #: The player's place in the match (among everyone at the table, bots included).
    place = models.PositiveSmallIntegerField()
    played_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ratingpoint_unique_match_user"),
        ]
        indexes = [
            models.Index(fields=["user", "game", "-record"], name="ratingpoint_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} after {self.match_id}: {self.rating:.2f}"


class Vacation(models.Model):
    """A player's pause of their async clocks (:mod:`games.services.vacation`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    started_at = models.DateTimeField()
    #: The planned end (``days`` after the start).
    ends_at = models.DateTimeField()
    days = models.PositiveSmallIntegerField()
    #: Set when the player ended it early.
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-started_at"], name="vacation_of_user")]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.started_at:%Y-%m-%d}"
