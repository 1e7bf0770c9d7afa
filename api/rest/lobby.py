"""The lobby over REST: list and create matches, join (by id or invite code), leave, add
bots, start. Thin views over ``games.services`` (writers) and ``games.reads`` (readers); the
request shapes are :mod:`api.play.matches`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play import matches as inputs
from api.play.fields import validate
from api.play.queries import MatchListQuery, PageQuery, plain
from games import services
from games.models import Match
from games.reads import lists, views
from kernel.errors import NotAuthenticated

from .base import MatchBase, paginated
from .openapi import responses as r
from .openapi.extensions import DiscriminatedUnion, component

CREATE_REQUEST = DiscriminatedUnion("MatchCreateIn", dict(inputs.MATCH_CREATE_IN), "game")


def _view(match: Match, request: Request) -> dict[str, Any]:
    return views.read_view(match.pk, request.user)[0]


class MatchListView(MatchBase):
    permission_classes = [AllowAny]

    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        operation_id="matches_list",
        summary="Open public matches (or the caller's with ?mine=true)",
        parameters=[MatchListQuery, PageQuery],
        responses=r.answers(
            {200: component("MatchSummaryPageOut")},
            400,
            401,
            e401="`mine=true` without a token, or a token that is not valid.",
        ),
    )
    def get(self, request: Request) -> Response:
        query = validate(MatchListQuery, plain(request.query_params))
        game = query.get("game")
        if query["mine"]:
            if not request.user.is_authenticated:
                raise NotAuthenticated("Log in to list your matches.")
            qs = lists.matches_of(user=request.user, status=query.get("status"))
        else:
            qs = lists.open_matches(game=game)
            if query.get("status"):
                qs = qs.filter(status=query["status"])
        if game:
            qs = qs.filter(game=game)
        return paginated(request, self, lists.with_seat_counts(qs), lists.render_summary)

    @extend_schema(
        summary="Create a match (optionally with bots, or all bots as an exhibition)",
        description="The body depends on the game (`game` picks the variant): its seat counts "
        "and options. What a variant cannot say is refused with 422 `invalid_options`: bots "
        "that do not fit the table, a `solo` match that is not you and bots, "
        "`decision_seconds` outside the time control's bounds, Skull's seat counts for "
        "`two_sets`/`two_tribes`, `max_plays` with Fibber's `easy` rules, `rated: true` for a "
        "match that cannot be rated (solo, all bots). The match starts "
        "at once when every seat is taken.",
        request=CREATE_REQUEST,
        responses=r.answers({201: component("MatchOut")}, 400, 401, 413, 415, 422),
    )
    def post(self, request: Request) -> Response:
        data = inputs.validate_create(request.data)
        match = services.match_create(
            user=request.user,
            game=data["game"],
            seats=data["seats"],
            options=data.get("options"),
            visibility=data["visibility"],
            time_control=data["time_control"],
            decision_seconds=data["decision_seconds"],
            bots=data["bots"],
            join=data["join"],
            rated=data["rated"],
        )
        return Response(_view(match, request), status=status.HTTP_201_CREATED)


class LobbyActionView(MatchBase):
    permission_classes = [IsAuthenticated]
    input_class: type | None = None

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        raise AssertionError("subclasses implement change()")

    def post(self, request: Request, match_id: str) -> Response:
        data = validate(self.input_class, request.data) if self.input_class else {}
        match = self.change(request, match_id, data)
        return Response(_view(match, request))


class JoinView(LobbyActionView):
    input_class = inputs.JoinIn

    @extend_schema(
        summary="Take a free seat",
        description="A private match needs its `invite_code` (without it, it does not exist "
        "for you: 404). The match starts by itself when full.",
        parameters=[r.MATCH_ID],
        request=inputs.JoinIn,
        responses=r.answers(
            {200: component("MatchOut")},
            400,
            401,
            404,
            409,
            413,
            415,
            e409="Already started, full, or you are seated already.",
        ),
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        return services.match_join(
            match_id=match_id, user=request.user, invite_code=data.get("invite_code")
        )


class LeaveView(LobbyActionView):
    @extend_schema(
        summary="Leave before the start",
        description="A lobby nobody is left in is aborted.",
        parameters=[r.MATCH_ID],
        request=None,
        responses=r.answers(
            {200: component("MatchOut")},
            401,
            403,
            404,
            409,
            e403="You have no seat in this match.",
            e409="The match has started.",
        ),
    )
    def post(self, request: Request, match_id: str) -> Response:
        return super().post(request, match_id)

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        return services.match_leave(match_id=match_id, user=request.user)


class BotsView(LobbyActionView):
    input_class = inputs.BotsIn

    @extend_schema(
        summary="Fill free seats with bots",
        description="By the host or a seated player; the match starts when it is full.",
        parameters=[r.MATCH_ID],
        request=inputs.BotsIn,
        responses=r.answers(
            {200: component("MatchOut")},
            400,
            401,
            403,
            404,
            409,
            413,
            415,
            422,
            e403="Neither the host nor seated.",
            e409="The match has started, or `count` is more than the free places.",
            e422="The game has no bots of that level.",
        ),
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
        description="By the host; empty seats are removed.",
        parameters=[r.MATCH_ID],
        request=None,
        responses=r.answers(
            {200: component("MatchOut")},
            401,
            403,
            404,
            409,
            e403="Only the host starts a match.",
            e409="Already started, or the game cannot be played by the seats filled so far.",
        ),
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
        request=inputs.JoinByCodeIn,
        responses=r.answers(
            {200: component("MatchOut")},
            400,
            401,
            404,
            409,
            413,
            415,
            e404="No match has this invite code.",
            e409="Already started, full, or you are seated already.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(inputs.JoinByCodeIn, request.data)
        match = services.match_join_by_code(invite_code=data["invite_code"], user=request.user)
        return Response(_view(match, request))
