"""Accounts over REST: guest, register, login, upgrade, logout, ``me`` (read, delete) and the
password change (docs/accounts.md).

Thin views (docs/architecture.md): each validates its input with its own serializer, calls one
service in :mod:`accounts.services` and renders :class:`UserOutSerializer`. Errors use the one shape
``{"error": {"code", "message", ...}}`` from :mod:`api.errors`.

Tokens: ``Authorization: Bearer <token>`` (or DRF's ``Token <token>``). Every sign-in is a named
session of its own (:mod:`accounts.sessions`, ``/api/me/sessions/``); logout signs out the
calling one, a password change every other one, a deletion all. Upgrading a guest keeps the
same user and the same token.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout as django_logout
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import get_authorization_header
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts import deletion, services, sessions
from api.authentication import token_key
from api.play.accounts import (
    DeleteMeIn,
    GuestIn,
    LoginIn,
    PasswordChangeIn,
    RegisterIn,
    UpgradeIn,
    UserOutSerializer,
)
from api.play.fields import validate

from .openapi import responses as r
from .openapi.accounts import DeleteWithBodySchema
from .parsers import LimitedJSONParser
from .sessions import current

TAG = "auth"
PASSWORD_400 = (
    "The request does not fit its shape (`invalid`, with `fields`), is not JSON "
    "(`malformed_request`), or the password is too weak: the server's password validators "
    "(length, similarity to the username, common passwords, all digits) say why under "
    "`error.fields.password`."
)
PARSERS = [LimitedJSONParser]  # JSON only, size-limited (413)

# --- Shared serializers ----------------------------------------------------------------------


class TokenOutSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")
    user = UserOutSerializer()


def _token_response(user: Any, token: str, *, status_code: int) -> Response:
    body = TokenOutSerializer({"token": token, "user": user}).data
    return Response(body, status=status_code)


class _PublicView(APIView):
    """No authentication (a stale token must not block signing in), throttled per IP."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    parser_classes = PARSERS


# --- Guest -----------------------------------------------------------------------------------


class GuestCreateView(_PublicView):
    throttle_scope = "guest"

    @extend_schema(
        tags=[TAG],
        operation_id="auth_guest_create",
        summary="Create a guest account",
        description="One call, no password. Returns the token and the new guest user. "
        "The guest can later be upgraded (`POST /api/auth/upgrade/`) keeping all history.",
        request=GuestIn,
        responses=r.answers({201: TokenOutSerializer}, 400, 413, 415, 429, 503),
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validate(GuestIn, request.data)
        user, token = services.guest_create(
            display_name=data.get("display_name"), **_signing_in(request, data)
        )
        return _token_response(user, token, status_code=status.HTTP_201_CREATED)


# --- Register --------------------------------------------------------------------------------


class RegisterView(_PublicView):
    throttle_scope = "register"

    @extend_schema(
        tags=[TAG],
        operation_id="auth_register",
        summary="Register a full account",
        description="Usernames are unique regardless of case; passwords must pass the "
        "server's password validators (the messages come back under `error.fields.password`).",
        request=RegisterIn,
        responses=r.answers(
            {201: TokenOutSerializer},
            400,
            409,
            413,
            415,
            429,
            e400=PASSWORD_400,
            e409="`username_taken`.",
        ),
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validate(RegisterIn, request.data)
        device = data.pop("device", None)
        user = services.user_register(**data)
        token = services.token_issue(user=user, **_signing_in(request, {"device": device}))
        return _token_response(user, token, status_code=status.HTTP_201_CREATED)


# --- Login -----------------------------------------------------------------------------------


class LoginView(_PublicView):
    throttle_scope = "login"

    @extend_schema(
        tags=[TAG],
        operation_id="auth_login",
        summary="Log in with username and password",
        description="Opens a new session (one per device: `GET /api/me/sessions/`) and "
        "returns its token. Wrong credentials get `400 invalid_credentials`, whether or not "
        "the user exists.",
        request=LoginIn,
        responses=r.answers(
            {200: TokenOutSerializer},
            400,
            413,
            415,
            429,
            e400="Malformed input (`invalid`, `malformed_request`) or wrong credentials "
            "(`invalid_credentials`).",
        ),
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validate(LoginIn, request.data)
        label = sessions.label_of(request._request, data.pop("device", None))
        user, token = services.user_login(**data, request=request._request, label=label)
        return _token_response(user, token, status_code=status.HTTP_200_OK)


# --- Upgrade ---------------------------------------------------------------------------------


class UpgradeView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "register"
    parser_classes = PARSERS

    @extend_schema(
        tags=[TAG],
        operation_id="auth_upgrade",
        summary="Upgrade the calling guest to a full account",
        description="Same user id, so every match and tournament stays theirs. The guest's token "
        "keeps working and is repeated in the response. Not a guest → `409 not_a_guest`.",
        request=UpgradeIn,
        responses=r.answers(
            {200: TokenOutSerializer},
            400,
            401,
            409,
            413,
            415,
            429,
            e400=PASSWORD_400,
            e409="`username_taken`, or you are not a guest (`not_a_guest`).",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(UpgradeIn, request.data)
        user = services.guest_upgrade(user=request.user, **data)
        token = calling_token(request) or services.token_issue(
            user=user, **_signing_in(request, {})
        )
        return _token_response(user, token, status_code=status.HTTP_200_OK)


# --- Logout ----------------------------------------------------------------------------------


class LogoutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=[TAG],
        operation_id="auth_logout",
        summary="Log out: sign this session out",
        description="Its token stops working; the account's other sessions stay signed in "
        "(`DELETE /api/me/sessions/{id}/` signs out another one). A guest that logs out "
        "its last session without upgrading cannot get back into the account.",
        request=None,
        responses=r.answers({204: None}, 401),
    )
    def post(self, request: Request) -> Response:
        session = current(request)
        if session is not None:
            services.token_revoke(user=request.user, session=session)
        django_logout(request._request)  # also end a browsable-API session, if any
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Me --------------------------------------------------------------------------------------


class MeView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = PARSERS
    schema = DeleteWithBodySchema()
    throttle_scope = "login"  # the deletion checks a password: as many tries as logging in

    def get_throttles(self) -> list[Any]:
        return [ScopedRateThrottle()] if self.request.method == "DELETE" else []

    @extend_schema(
        tags=[TAG],
        operation_id="me_retrieve",
        summary="The calling user",
        responses=r.answers({200: UserOutSerializer}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response(UserOutSerializer(request.user).data)

    @extend_schema(
        tags=[TAG],
        operation_id="me_destroy",
        summary="Delete my account",
        description="A registered account confirms with its `password`, a guest with its "
        "own `token`. At once: every session is signed out, the name is replaced everywhere by "
        'an anonymous label ("Deleted player 7f3a"), careers and rating history are '
        "deleted (the account leaves every leaderboard), lobby seats are freed and active "
        "seats are played by the takeover bot to the end. The username stays taken for "
        f"{deletion.USERNAME_HOLD_DAYS} days. What is kept and why: docs/accounts.md. "
        "Calling again: 401 (the token is gone).",
        request=DeleteMeIn,
        responses=r.answers(
            {204: None},
            400,
            401,
            413,
            415,
            429,
            e400="The request does not fit its shape (`invalid`), or the password or token "
            "does not confirm the deletion (`invalid_credentials`).",
        ),
    )
    def delete(self, request: Request) -> Response:
        data = validate(DeleteMeIn, request.data)
        deletion.confirm(user=request.user, **_confirming(data))
        deletion.account_delete(user=request.user)
        django_logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


def calling_token(request: Request) -> str | None:
    """The token the request was made with, when it was made with a session's token."""
    if current(request) is None:
        return None
    return token_key(get_authorization_header(request))


def _signing_in(request: Request, data: dict[str, Any]) -> dict[str, Any]:
    """The new session's name and client address."""
    django_request = request._request
    return {
        "label": sessions.label_of(django_request, data.get("device")),
        "address": sessions.address_of(django_request),
    }


def _confirming(data: dict[str, Any]) -> dict[str, Any]:
    return {"password": data.get("password"), "token": data.get("token")}


class PasswordChangeView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"
    parser_classes = PARSERS

    @extend_schema(
        tags=[TAG],
        operation_id="me_password_change",
        summary="Change my password",
        description="Checks the current password and sets the new one. Every other session "
        "is signed out; this one stays signed in and its token comes back in the response. "
        "A guest has no password (`409 no_password`): it upgrades instead.",
        request=PasswordChangeIn,
        responses=r.answers(
            {200: TokenOutSerializer},
            400,
            401,
            409,
            413,
            415,
            429,
            e400=PASSWORD_400 + " A wrong current password: `invalid_credentials`.",
            e409="A guest has no password to change (`no_password`).",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(PasswordChangeIn, request.data)
        user = services.password_change(user=request.user, keep=current(request), **data)
        token = calling_token(request) or services.token_issue(
            user=user, **_signing_in(request, {})
        )
        return _token_response(user, token, status_code=status.HTTP_200_OK)
