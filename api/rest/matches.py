"""The match API: thin views over ``games.services`` (writers) and ``games.selectors``."""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from fibserver.errors import Invalid, NotAuthenticated
from games import selectors, services
from games.models import Match

from . import serializers as s
from .parsers import LimitedJSONParser, int_param, seconds_param, validated

ERRORS = {code: s.ErrorOut for code in (400, 401, 403, 404, 409, 413, 422, 429)}


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


def etag_of(body: Any) -> str:
    return (
        '"' + hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32] + '"'
    )


def with_etag(request: Request, body: Any) -> Response:
    """A 200 with the ETag of the caller's view, or 304 if the client already has it."""
    tag = etag_of(body)
    if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        response = Response(body)
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    return response


def query_params(request: Any) -> Any:
    """The query string of a DRF request or a plain Django one (the follower)."""
    return getattr(request, "query_params", None) or request.GET


def seat_param(request: Any) -> int | None:
    """The ``?seat=`` a caller holding two seats (Skull two_tribes) looks or acts through."""
    return int_param(query_params(request), "seat", None, lo=0)


def user_or_none(request: Request) -> Any:
    return request.user if request.user and request.user.is_authenticated else None


class MatchBase(APIView):
    parser_classes = [LimitedJSONParser]


class MatchListView(MatchBase):
    permission_classes = [AllowAny]

    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        operation_id="matches_list",
        summary="Open public matches (or the caller's with ?mine=1)",
        parameters=[
            OpenApiParameter("game", str, description="only this game"),
            OpenApiParameter("mine", bool, description="the caller's matches, any status"),
            OpenApiParameter("status", str, description="with mine=1: lobby, active, finished"),
        ],
        responses={200: s.MatchSummaryPageOut, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game") or None
        if request.query_params.get("mine") in ("1", "true"):
            if not request.user.is_authenticated:
                raise NotAuthenticated("Log in to list your matches.")
            qs = selectors.my_matches(user=request.user, status=request.query_params.get("status"))
            if game:
                qs = qs.filter(game=game)
        else:
            qs = selectors.open_matches(game=game)
        paginator = Pagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response([selectors.match_summary(m) for m in page])

    @extend_schema(
        summary="Create a match (optionally with bots, or all bots as an exhibition)",
        request=s.MatchCreateIn,
        responses={201: s.MatchOut, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.MatchCreateIn, request.data)
        match = services.match_create(
            user=request.user,
            game=data["game"],
            seats=data["seats"],
            options=data["options"],
            visibility=data["visibility"],
            time_control=data["time_control"],
            decision_seconds=data["decision_seconds"],
            bots=data["bots"],
            join=data["join"],
        )
        body = selectors.match_read(match.pk, request.user)
        return Response(body, status=status.HTTP_201_CREATED)


class MatchDetailView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The caller's view of a match (spectator view for non-players)",
        parameters=[OpenApiParameter("seat", int, description="which of your seats (two_tribes)")],
        responses={200: s.MatchOut, 304: None, **ERRORS},
    )
    def get(self, request: Request, match_id: str) -> Response:
        user = user_or_none(request)
        return with_etag(request, selectors.match_read(match_id, user, seat_param(request)))


class LobbyActionView(MatchBase):
    permission_classes = [IsAuthenticated]
    input_class: type | None = None

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        raise AssertionError("subclasses implement change()")

    def post(self, request: Request, match_id: str) -> Response:
        data = validated(self.input_class, request.data) if self.input_class else {}
        match = self.change(request, match_id, data)
        return Response(selectors.match_read(match.pk, request.user))


class JoinView(LobbyActionView):
    input_class = s.JoinIn

    @extend_schema(
        summary="Take a free seat", request=s.JoinIn, responses={200: s.MatchOut, **ERRORS}
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        return services.match_join(
            match_id=match_id, user=request.user, invite_code=data.get("invite_code")
        )


class LeaveView(LobbyActionView):
    @extend_schema(
        summary="Leave before the start", request=None, responses={200: s.MatchOut, **ERRORS}
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        return services.match_leave(match_id=match_id, user=request.user)


class BotsView(LobbyActionView):
    input_class = s.BotsIn

    @extend_schema(
        summary="Fill free seats with bots", request=s.BotsIn, responses={200: s.MatchOut, **ERRORS}
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        return services.match_add_bots(
            match_id=match_id, user=request.user, level=data["level"], count=data["count"]
        )


class StartView(LobbyActionView):
    @extend_schema(
        summary="Start with the seats filled so far",
        request=None,
        responses={200: s.MatchOut, **ERRORS},
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        return services.match_start(match_id=match_id, user=request.user)


class JoinByCodeView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_join_by_code",
        summary="Join a match by its invite code",
        request=s.JoinByCodeIn,
        responses={200: s.MatchOut, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.JoinByCodeIn, request.data)
        match = services.match_join_by_code(invite_code=data["invite_code"], user=request.user)
        return Response(selectors.match_read(match.pk, request.user))


IDEMPOTENCY_KEY_MAX = 128


class ActionView(MatchBase):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "actions"

    @extend_schema(
        summary="Take an action",
        description=(
            "The body is one of the caller's `legal_actions` filled in: "
            '`{"type": ..., "<param>": value, ...}`, with an optional `expected_version` '
            "(a stale one answers 409). Send an `Idempotency-Key` header to make retries safe."
        ),
        request=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER),
            OpenApiParameter("seat", int, description="which of your seats acts (two_tribes)"),
        ],
        responses={200: s.MatchOut, **ERRORS},
    )
    def post(self, request: Request, match_id: str) -> Response:
        body = request.data
        if not isinstance(body, dict):
            raise Invalid('The body must be a JSON object such as {"type": "call"}.')
        action = dict(body)
        expected = action.pop("expected_version", None)
        if expected is not None and (type(expected) is not int or expected < 0):
            raise Invalid("'expected_version' must be a whole number.", field="expected_version")
        if not isinstance(action.get("type"), str):
            raise Invalid('The action needs a string "type".', field="type")
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX:
            raise Invalid(f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} characters.")
        code, payload = services.action_submit(
            match_id=match_id,
            user=request.user,
            action=action,
            expected_version=expected,
            seat=seat_param(request),
            idempotency_key=key,
            render=lambda match, seat: selectors.match_view(match, request.user, seat),
        )
        return Response(payload, status=code)


class EventsView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The caller's events after a sequence number",
        description="With `wait` (seconds, at most 30) the request is held until news arrive.",
        parameters=[
            OpenApiParameter("after", int, description="last sequence number seen (default 0)"),
            OpenApiParameter("wait", int, description="seconds to wait for news (0–30)"),
            OpenApiParameter("seat", int),
        ],
        responses={200: s.EventsOut, **ERRORS},
    )
    def get(self, request: Request, match_id: str) -> Response:
        after, _wait = events_params(request)
        return Response(
            selectors.events_page(match_id, user_or_none(request), after, seat_param(request))
        )


def events_params(request: Any) -> tuple[int, float]:
    """``after`` (the last sequence number seen) and ``wait`` (seconds of long-poll)."""
    params = query_params(request)
    after = int_param(params, "after", 0, lo=0)
    return after, seconds_param(params, "wait", hi=settings.FIBSERVER["MAX_WAIT_SECONDS"])


class MyTurnsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Matches where the caller must act, soonest deadline first",
        responses={200: s.TurnOut(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.my_turns(user=request.user))


class ReplayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The complete record once the match has finished (docs/replay.md)",
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = selectors.match_get(match_id, user=user_or_none(request))
        return Response(selectors.match_replay(match))


class StatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Bluff statistics of a finished match (hidden until the end)",
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = selectors.match_get(match_id, user=user_or_none(request))
        return Response(selectors.match_stats(match))
