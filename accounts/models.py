"""The custom user model.

Registered and guest players are the same kind of row: a guest is a user with ``is_guest=True``
and an unusable password. Upgrading a guest changes that row in place, so every match, seat
and event that points at the user keeps pointing at it.

Usernames are unique regardless of case (enforced in the database as well as in the services),
and login looks them up case-insensitively. Write through :mod:`accounts.services` only.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        """Case-insensitive lookup, used by Django's ``authenticate()`` (login)."""
        matches = list(self.filter(username__iexact=username)[:2])
        if len(matches) == 1:
            return matches[0]
        # Zero, or (only possible for odd Unicode case folding) more than one: exact match.
        return self.get(username=username)


class User(AbstractUser):
    is_guest = models.BooleanField(
        default=False,
        help_text="Created with one call and no password; may be upgraded to a full account.",
    )
    display_name = models.CharField(max_length=40, blank=True)
    #: When the account was deleted (:mod:`accounts.deletion`): the row stays as an anonymous
    #: tombstone so that the matches of the other players keep their seat.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects: ClassVar[UserManager] = UserManager()  # type: ignore[assignment,misc]

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message="A user with that username already exists.",
            ),
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def public_name(self) -> str:
        """What other players see: the display name, else the username."""
        return self.display_name or self.username


class UsernameHold(models.Model):
    """A deleted account's username, held back for a grace period so that nobody can take it
    over at once. Only a hash of the lower-cased name is kept."""

    name_hash = models.CharField(max_length=64, unique=True)
    until = models.DateTimeField()

    def __str__(self) -> str:
        return f"held until {self.until:%Y-%m-%d}"


class AccountDeletion(models.Model):
    """The audit record of one account deletion: whose (the id only), by whom and when; no
    personal data."""

    class By(models.TextChoices):
        SELF = "self"
        STAFF = "staff"

    #: The deleted user's id (not a foreign key: the record says nothing else about them).
    subject_id = models.BigIntegerField(db_index=True)
    by = models.CharField(max_length=8, choices=By.choices)
    #: The staff member who ran it (null when the player deleted their own account).
    staff = models.ForeignKey(
        "accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deleted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-deleted_at"]

    def __str__(self) -> str:
        return f"user {self.subject_id} deleted by {self.by} at {self.deleted_at:%Y-%m-%d %H:%M}"


class DataExport(models.Model):
    """One "export my data" job (:mod:`accounts.export`): its status and, once done, the JSON
    document, kept for ``KEEP_DAYS`` (then purged)."""

    class Status(models.TextChoices):
        PENDING = "pending"  # queued, not started
        RUNNING = "running"  # being written
        DONE = "done"  # the document is ready
        FAILED = "failed"  # gave up (a new export may be requested)

    ACTIVE = (Status.PENDING, Status.RUNNING)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: The document as served (JSON text), once done.
    body = models.TextField(blank=True, default="")
    size = models.PositiveIntegerField(default=0)
    truncated = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status__in=["pending", "running"]),
                name="accounts_dataexport_one_active",
            ),
        ]

    def __str__(self) -> str:
        return f"export {self.pk} ({self.status})"


class Session(models.Model):
    """A named sign-in: one API token of one device. The token itself is never stored, only
    its SHA-256 (``digest``): the database cannot sign anyone in. ``last_used`` and
    ``client_address`` are refreshed at most every ``accounts.sessions.LAST_USED_EVERY``
    seconds, when the shared cache looks the token up again, never on every request."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="sessions")
    digest = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=100)
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField()
    client_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "-last_used"], name="session_user_recent")
        ]

    def __str__(self) -> str:
        return f"{self.label} ({self.user_id})"
