"""Deleting an account: the one path, for the player themself and for staff.

The user row is not removed: it becomes an anonymous tombstone (username ``~deleted~<hex>``,
which no one can register, display name "Deleted player <4 hex>", no password, no e-mail, no
names, inactive), so that the other players' finished matches, replays and tournaments keep
their seat under a stable label. Every other row that points at the user is settled as
its app registered (:mod:`accounts.hooks`). The username is held back for
``USERNAME_HOLD_DAYS`` (only its hash is kept), then free to register again.

Errors (:class:`kernel.errors.AppError`): ``invalid_credentials`` when a registered
account's password (or a guest's token) does not confirm the deletion; ``not_found`` when the
account is already deleted.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.apps import apps
from django.db import models, transaction
from django.utils import timezone

from kernel.errors import InvalidCredentials, NotFound

from . import hooks
from .erasure import Policy
from .models import AccountDeletion, Session, User, UsernameHold
from .sessions import digest_of

USERNAME_HOLD_DAYS = 30
TOMBSTONE_PREFIX = "~deleted~"
LABEL = "Deleted player {}"
NOT_CONFIRMED = "The password (or, for a guest, the token) does not confirm the deletion."


def name_hash(username: str) -> str:
    return hashlib.sha256(username.strip().lower().encode()).hexdigest()


def username_held(username: str) -> bool:
    """Whether ``username`` belonged to an account deleted less than the grace period ago."""
    return UsernameHold.objects.filter(
        name_hash=name_hash(username), until__gt=timezone.now()
    ).exists()


def holds_purge() -> int:
    """Free the usernames whose grace period has passed. Returns how many."""
    deleted, _ = UsernameHold.objects.filter(until__lte=timezone.now()).delete()
    return deleted


def confirm(*, user: User, password: str | None, token: str | None) -> None:
    """The caller confirms: a registered account with its password, a guest with a token of
    one of its own sessions."""
    if user.is_guest:
        ok = (
            bool(token)
            and Session.objects.filter(user=user, digest=digest_of(token or "")).exists()
        )
    else:
        ok = bool(password) and user.check_password(password or "")
    if not ok:
        raise InvalidCredentials(NOT_CONFIRMED)


def _field(label: str) -> tuple[type[models.Model], str]:
    app_model, _, field = label.rpartition(".")
    return apps.get_model(app_model), field


@transaction.atomic
def account_delete(*, user: User, staff: User | None = None) -> AccountDeletion:
    """Delete ``user``'s account (``staff``: the staff member running it, else the player).

    In one transaction: every app's departure (:func:`accounts.hooks.departures`, the highest
    app first: tickets out of the queue, lobby seats freed, active seats played by the
    takeover bot, open tournaments withdrawn), every token revoked, the rows the registered
    decisions delete deleted and clear cleared, the username held, the row turned into the
    tombstone, and the audit record written."""

    # FOR NO KEY UPDATE: a move that notifies this player (a key-share lock on the row) passes
    # it, so the deletion waiting for that move's match cannot deadlock with it.
    live = User.objects.select_for_update(no_key=True).filter(pk=user.pk, deleted_at__isnull=True)
    found = live.first()
    if found is None:
        raise NotFound("No such account.")
    user = found
    for depart in hooks.departures():
        depart(user)
    for label, decision in hooks.erasure().items():
        model, field = _field(label)
        rows = model._default_manager.filter(**{field: user.pk})
        if decision.policy is Policy.DELETE:
            rows.delete()  # sessions too: each deletion drops its token's cache entry
        elif decision.policy is Policy.SET_NULL:
            rows.update(**{field: None})
    now = timezone.now()
    if not user.username.startswith(TOMBSTONE_PREFIX):
        UsernameHold.objects.update_or_create(
            name_hash=name_hash(user.username),
            defaults={"until": now + timedelta(days=USERNAME_HOLD_DAYS)},
        )
    tag = secrets.token_hex(8)
    user.username = f"{TOMBSTONE_PREFIX}{tag}"
    user.display_name = LABEL.format(tag[:4])
    user.first_name = user.last_name = user.email = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.deleted_at = now
    user.save()
    by = AccountDeletion.By.STAFF if staff is not None else AccountDeletion.By.SELF
    return AccountDeletion.objects.create(subject_id=user.pk, by=by, staff=staff)
