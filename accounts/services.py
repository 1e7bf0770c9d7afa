"""Account writers (services are the only writers: docs/architecture.md).

Every function is keyword-only, typed and atomic. Bad input raises the project's one error
type, :class:`kernel.errors.AppError` (``api.errors`` maps it to HTTP), never anything that
would become a 500:

- ``invalid`` (Invalid): a field is malformed; ``fields`` maps field -> messages
- ``invalid_credentials`` (Invalid): login failed, the same whether or not the user exists
- ``username_taken`` (Conflict): the username is in use (compared case-insensitively), or
  held for a while after its account was deleted (:mod:`accounts.deletion`)
- ``not_a_guest`` (Conflict): only guest accounts can be upgraded
- ``no_password`` (Conflict): a guest has no password to change
"""

from __future__ import annotations

import re
import secrets
import string
import unicodedata

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts import sessions
from accounts.deletion import username_held
from accounts.models import Session, User
from kernel.errors import AppError, Conflict, Invalid, InvalidCredentials, Unavailable

USERNAME_MIN, USERNAME_MAX = 3, 30
USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
USERNAME_RULES = (
    f"Usernames are {USERNAME_MIN}-{USERNAME_MAX} characters: letters, digits, '_', '.' or '-', "
    "starting with a letter or digit."
)
GUEST_PREFIX = "guest-"
GUEST_SUFFIX_ALPHABET = string.ascii_lowercase + string.digits
DISPLAY_NAME_MAX = 40
PASSWORD_MAX = 256  # validators set no upper bound; hashing megabytes would be a cheap DoS
LOGIN_FAILED = "Wrong username or password."


def _invalid(field: str, *messages: str) -> Invalid:
    return Invalid(" ".join(messages), fields={field: list(messages)})


def _username_taken() -> Conflict:
    return Conflict("That username is already taken.", code="username_taken")


def _clean_username(username: str, *, exclude_pk: int | None = None) -> str:
    username = (username or "").strip()
    if not (USERNAME_MIN <= len(username) <= USERNAME_MAX) or not USERNAME_RE.match(username):
        raise _invalid("username", USERNAME_RULES)
    if username.lower().startswith(GUEST_PREFIX):
        raise _invalid("username", f"Usernames starting with '{GUEST_PREFIX}' are reserved.")
    taken = User.objects.filter(username__iexact=username)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    if taken.exists() or username_held(username):
        raise _username_taken()
    return username


#: The label a deleted account is shown by (accounts.deletion.LABEL): no one may pass for one.
RESERVED_DISPLAY_PREFIX = "deleted player"


def _clean_display_name(display_name: str | None) -> str:
    name = " ".join((display_name or "").split())  # trim and collapse whitespace
    if len(name) > DISPLAY_NAME_MAX:
        raise _invalid("display_name", f"At most {DISPLAY_NAME_MAX} characters.")
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Co", "Cs"} for ch in name):
        raise _invalid("display_name", "Control and formatting characters are not allowed.")
    if name.casefold().startswith(RESERVED_DISPLAY_PREFIX):
        raise _invalid("display_name", "Names starting with 'Deleted player' are reserved.")
    return name


def _check_password(password: str, *, candidate: User, field: str = "password") -> None:
    if not isinstance(password, str) or not password:
        raise _invalid(field, "A password is required.")
    if len(password) > PASSWORD_MAX:
        raise _invalid(field, f"At most {PASSWORD_MAX} characters.")
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise _invalid(field, *exc.messages) from exc


def _save_new(user: User) -> None:
    """Insert ``user``; a concurrent insert of the same username becomes a 409, not a 500."""
    try:
        with transaction.atomic():  # savepoint: keeps the outer transaction usable
            user.save()
    except IntegrityError as exc:
        raise _username_taken() from exc


def token_issue(*, user: User, label: str = sessions.UNNAMED, address: str | None = None) -> str:
    """A new API token for ``user``: a session of its own (:mod:`accounts.sessions`), named
    ``label``, signed in from ``address``."""
    return sessions.session_open(user=user, label=label, address=address)


def token_revoke(*, user: User, session: Session | None = None) -> None:
    """Sign ``session`` out (a logout); without one, every session of the user."""
    if session is None:
        sessions.sessions_revoke(user=user)
    else:
        sessions.session_revoke(user=user, session_id=session.pk)


@transaction.atomic
def guest_create(
    *,
    display_name: str | None = None,
    label: str = sessions.UNNAMED,
    address: str | None = None,
) -> tuple[User, str]:
    """A guest account and its token (its first session, named ``label``), in one call (a
    mobile app's first launch)."""
    name = _clean_display_name(display_name) or f"Guest {secrets.randbelow(9000) + 1000}"
    for _attempt in range(5):
        suffix = "".join(secrets.choice(GUEST_SUFFIX_ALPHABET) for _ in range(10))
        user = User(username=f"{GUEST_PREFIX}{suffix}", display_name=name, is_guest=True)
        user.set_unusable_password()
        try:
            _save_new(user)
        except AppError:  # a 36**10 collision: just draw again
            continue
        return user, token_issue(user=user, label=label, address=address)
    raise Unavailable("Could not create a guest account; try again.")


@transaction.atomic
def user_register(*, username: str, password: str, display_name: str = "") -> User:
    """A full account with a username and password."""
    username = _clean_username(username)
    user = User(username=username, display_name=_clean_display_name(display_name))
    _check_password(password, candidate=user)
    user.set_password(password)
    _save_new(user)
    return user


@transaction.atomic
def user_login(
    *,
    username: str,
    password: str,
    request: HttpRequest | None = None,
    label: str = sessions.UNNAMED,
) -> tuple[User, str]:
    """Check the credentials and return the user with the token of a new session (named
    ``label``, from the request's client address).

    Unknown user, wrong password, guest (no usable password) and inactive user all get the same
    answer, and Django's backend spends the same hashing time on each.
    """
    if len(password or "") > PASSWORD_MAX or len(username or "") > 150:
        raise InvalidCredentials(LOGIN_FAILED)
    user = authenticate(request, username=(username or "").strip(), password=password)
    if not isinstance(user, User):
        raise InvalidCredentials(LOGIN_FAILED)
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    return user, token_issue(user=user, label=label, address=sessions.address_of(request))


@transaction.atomic
def guest_upgrade(
    *, user: User, username: str, password: str, display_name: str | None = None
) -> User:
    """Turn a guest into a full account **in place**: same row, same id, same history.

    The guest's token stays valid. ``display_name=None`` keeps the current display name.
    """
    # two upgrades at once: one wins
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if not user.is_guest:
        raise Conflict("Only guest accounts can be upgraded.", code="not_a_guest")
    user.username = _clean_username(username, exclude_pk=user.pk)
    if display_name is not None:
        user.display_name = _clean_display_name(display_name)
    _check_password(password, candidate=user)
    user.set_password(password)
    user.is_guest = False
    try:
        with transaction.atomic():
            user.save(update_fields=["username", "display_name", "password", "is_guest"])
    except IntegrityError as exc:
        raise _username_taken() from exc
    return user


@transaction.atomic
def password_change(
    *, user: User, current_password: str, new_password: str, keep: Session | None = None
) -> User:
    """Check the current password, set the new one, and sign out every session but ``keep``
    (the caller's own, which stays signed in with its token)."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.is_guest:
        raise Conflict("A guest account has no password; upgrade it instead.", code="no_password")
    if len(current_password or "") > PASSWORD_MAX or not user.check_password(current_password):
        raise InvalidCredentials("The current password is wrong.")
    _check_password(new_password, candidate=user, field="new_password")
    user.set_password(new_password)
    user.save(update_fields=["password"])
    sessions.sessions_revoke(user=user, keep=keep)
    return user
