"""Named sessions over REST (docs/accounts.md): the caller's signed-in devices, and signing one
out. Thin views over :mod:`accounts.sessions`."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import sessions
from accounts.models import Session

from .base import MatchBase
from .openapi import responses as r
from .openapi import sessions as _components  # noqa: F401  (defines the components)
from .openapi.extensions import component

TAG = "auth"
SESSION_ID = OpenApiParameter(
    "session_id",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    description="A session id of yours (`GET /api/me/sessions/`).",
)


def current(request: Request) -> Session | None:
    """The session the request was made with (``None`` for a browsable-API login)."""
    return request.auth if isinstance(request.auth, Session) else None


class SessionListView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=[TAG],
        operation_id="me_sessions_list",
        summary="Your sessions: every device signed in to your account",
        description="Each sign-in (guest created, registration, login) is a session of its "
        "own, named by the `device` given then (else the client's User-Agent). `last_used` "
        "and `client_address` are refreshed at most every five minutes.",
        responses=r.answers({200: component("SessionListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response({"results": sessions.listing(user=request.user, current=current(request))})


class SessionDetailView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=[TAG],
        operation_id="me_sessions_delete",
        summary="Sign a session out",
        description="Its token stops working at once. Your own current session too (as "
        "`POST /api/auth/logout/`).",
        parameters=[SESSION_ID],
        responses=r.answers({204: r.OpenApiResponse(description="Signed out.")}, 401, 404),
    )
    def delete(self, request: Request, session_id: str) -> Response:
        sessions.session_revoke(user=request.user, session_id=session_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
