"""Accounts: the one public shape of a user (every face shows a user so), and the account
requests — guest, register, login, upgrade — with their fields (strict, with the patterns the
schema publishes)."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth.password_validation import (
    MinimumLengthValidator,
    NumericPasswordValidator,
    get_default_password_validators,
)
from rest_framework import serializers

from accounts.models import User
from accounts.services import (
    DISPLAY_NAME_MAX,
    GUEST_PREFIX,
    PASSWORD_MAX,
    USERNAME_MAX,
    USERNAME_MIN,
    USERNAME_RULES,
)

from .fields import StrictCharField, StrictInput


class UserOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "display_name", "is_guest", "date_joined"]
        read_only_fields = fields


def _reserved_prefix() -> str:
    """The guests' username prefix matched without case: ``[Gg][Uu][Ee][Ss][Tt]-``."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in GUEST_PREFIX)


#: A new username: letters, digits, '_', '.' or '-', starting with a letter or digit, and not
#: starting with the guests' reserved prefix (whatever its case).
USERNAME_PATTERN = (
    f"^(?!{_reserved_prefix()})[A-Za-z0-9][A-Za-z0-9_.-]{{{USERNAME_MIN - 1},{USERNAME_MAX - 1}}}$"
)

#: Unicode categories the accounts service refuses in display names; surrogates (Cs) cannot
#: reach it (JSON text with a lone surrogate is not JSON), so the pattern leaves them out.
REFUSED_CATEGORIES = ("Cc", "Cf", "Co")


def display_name_pattern() -> str:
    """A pattern refusing the control, format and private-use characters of the Basic
    Multilingual Plane, as ranges of ``\\u`` escapes (four hex digits) that read the same in
    ECMA-262 (the schema), Python and Rust regular expressions. The accounts service also
    refuses the few such characters beyond it (plane 14 tags, planes 15–16 private use), with
    the same 400."""
    ranges: list[list[int]] = []
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF or unicodedata.category(chr(code)) not in REFUSED_CATEGORIES:
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    body = "".join(f"\\u{lo:04x}" if lo == hi else f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in ranges)
    return f"^[^{body}]*$"


DISPLAY_NAME_PATTERN = display_name_pattern()


def username_field() -> StrictCharField:
    return StrictCharField(
        max_length=USERNAME_MAX,
        pattern=USERNAME_PATTERN,
        pattern_message=f"{USERNAME_RULES} Usernames starting with '{GUEST_PREFIX}' are reserved.",
        help_text=f"{USERNAME_RULES} Not starting with '{GUEST_PREFIX}'; unique regardless of "
        "case.",
    )


def display_name_field(**kwargs: Any) -> StrictCharField:
    return StrictCharField(
        max_length=DISPLAY_NAME_MAX,
        allow_blank=True,
        required=False,
        pattern=DISPLAY_NAME_PATTERN,
        pattern_message="Control and formatting characters are not allowed.",
        **kwargs,
    )


NEW_PASSWORD = (
    "The server's password validators apply: a minimum length and no password made only of "
    "digits (both in this schema), not too similar to the username, not a common password."
)


def _password_rules() -> tuple[int, bool]:
    """The minimum length and whether all-digit passwords are refused, as the configured
    password validators say (AUTH_PASSWORD_VALIDATORS)."""
    lengths = [1]
    numeric = False
    for validator in get_default_password_validators():
        if isinstance(validator, MinimumLengthValidator):
            lengths.append(validator.min_length)
        numeric = numeric or isinstance(validator, NumericPasswordValidator)
    return max(lengths), numeric


def password_field(
    help_text: str = "", *, new: bool = False, required: bool = True
) -> StrictCharField:
    """A password; a ``new`` one documents what the validators can say in a schema (the
    others, similarity and common passwords, answer 400 with ``fields.password``)."""
    min_length, not_numeric = _password_rules() if new else (1, False)
    return StrictCharField(
        max_length=PASSWORD_MAX,
        min_length=min_length,
        required=required,
        write_only=True,
        style={"input_type": "password"},
        pattern=r"^(?![0-9]+$)[^\x00]*$" if not_numeric else None,
        pattern_message="This password is entirely numeric.",
        error_messages={
            "min_length": f"This password is too short. It must contain at least {min_length} "
            "characters."
        },
        help_text=help_text or (NEW_PASSWORD if new else ""),
    )


# --- Requests ----------------------------------------------------------------------------------


def device_field() -> StrictCharField:
    return StrictCharField(
        max_length=100,
        required=False,
        pattern=DISPLAY_NAME_PATTERN,
        pattern_message="Control and formatting characters are not allowed.",
        help_text="The name of this sign-in's session in `GET /api/me/sessions/` (e.g. "
        '"Pixel 8"). Default: the client\'s User-Agent.',
    )


class GuestIn(StrictInput):
    display_name = display_name_field(help_text="Default: a random 'Guest 1234'.")
    device = device_field()


class RegisterIn(StrictInput):
    username = username_field()
    password = password_field(new=True)
    display_name = display_name_field(default="")
    device = device_field()


class LoginIn(StrictInput):
    username = StrictCharField(max_length=150)
    password = password_field()
    device = device_field()


class UpgradeIn(StrictInput):
    username = username_field()
    password = password_field(new=True)
    display_name = display_name_field(help_text="Omit to keep the guest's current display name.")


class DeleteMeIn(StrictInput):
    password = password_field("A registered account confirms with its password.", required=False)
    token = StrictCharField(
        max_length=64,
        required=False,
        write_only=True,
        help_text="A guest (no password) confirms with its own token, the one it calls with.",
    )


class PasswordChangeIn(StrictInput):
    current_password = password_field("The password in use now.")
    new_password = password_field(new=True)
