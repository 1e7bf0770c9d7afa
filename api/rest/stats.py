"""Leaderboards and player statistics: thin views over ``games.leaderboards``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from fibserver.errors import Invalid, NotAuthenticated
from games import boards, leaderboards
from games.engine import registry

from . import serializers_stats as out
from .parsers import int_param
from .serializers import ErrorOut

GAME_PATH = OpenApiParameter(
    "game", str, OpenApiParameter.PATH, enum=registry.game_ids(), description="the game"
)


def errors(*codes: int) -> dict[int, Any]:
    return dict.fromkeys(codes, ErrorOut)


def game_param(request: Request, *, required: bool) -> str | None:
    game = request.query_params.get("game")
    if game is None and required:
        raise Invalid(f"'game' is required: one of {', '.join(registry.game_ids())}.", field="game")
    return game


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="leaderboards_read",
        summary="A leaderboard of one game, best first",
        description=(
            "Boards: " + out.BOARD_HELP + " A board a game does not have answers 404. Ties are "
            "broken by the board order (rating: more rated matches first; wins: fewer matches "
            "first; bluff boards: more matches first; then the older account), so ranks are "
            "unique and pages stable. `around=me` answers the page centred on the caller."
        ),
        parameters=[
            GAME_PATH,
            OpenApiParameter(
                "board", str, enum=list(boards.BOARD_IDS), default="rating", description="which"
            ),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": leaderboards.PAGE_MAX},
                default=leaderboards.PAGE_DEFAULT,
                description="entries per page",
            ),
            OpenApiParameter(
                "offset",
                {"type": "integer", "minimum": 0},
                default=0,
                description="entries to skip",
            ),
            OpenApiParameter(
                "around", str, enum=["me"], description="the page around the caller's own rank"
            ),
            OpenApiParameter(
                "active_days",
                {"type": "integer", "minimum": 1, "maximum": 36500},
                description="only players whose latest match ended within this many days",
            ),
        ],
        responses={200: out.LeaderboardOut, **errors(400, 401, 404)},
    )
    def get(self, request: Request, game: str) -> Response:
        params = request.query_params
        limit = int_param(
            params, "limit", leaderboards.PAGE_DEFAULT, lo=1, hi=leaderboards.PAGE_MAX
        )
        offset = int_param(params, "offset", 0, lo=0)
        active_days = int_param(params, "active_days", None, lo=1, hi=36500)
        around = params.get("around")
        if around not in (None, "me"):
            raise Invalid("'around' must be 'me'.", field="around")
        if around and not request.user.is_authenticated:
            raise NotAuthenticated("Log in to find yourself on a board (around=me).")
        body = leaderboards.leaderboard(
            game=game,
            board=params.get("board", "rating"),
            limit=limit,
            offset=offset,
            around=request.user.pk if around else None,
            active_days=active_days,
        )
        url = remove_query_param(request.build_absolute_uri(), "around")
        links = {}
        for key in ("next", "previous"):
            offset_to = body[f"{key}_offset"]
            links[key] = (
                None if offset_to is None else replace_query_param(url, "offset", offset_to)
            )
        first = ("game", "board", "title", "description", "eligibility", "active_days", "count")
        return Response(
            {
                **{key: body[key] for key in first},
                **links,
                **{key: body[key] for key in ("offset", "limit", "results", "me")},
            }
        )


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_read",
        summary="A player's public profile: name and a summary per game played",
        responses={200: out.PlayerOut, **errors(404)},
    )
    def get(self, request: Request, player_id: str) -> Response:
        return Response(leaderboards.player_profile(player_id))


class PlayerStatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_stats",
        summary="A player's statistics in one game (finished matches only)",
        parameters=[
            OpenApiParameter("game", str, enum=registry.game_ids(), required=True),
        ],
        responses={200: out.PlayerGameStatsOut, **errors(400, 404)},
    )
    def get(self, request: Request, player_id: str) -> Response:
        game = game_param(request, required=True)
        assert game is not None
        return Response(leaderboards.player_stats(player_id, game=game))


class MyStatsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_stats",
        summary="The caller's statistics in every game played (or in ?game=)",
        parameters=[OpenApiParameter("game", str, enum=registry.game_ids())],
        responses={200: out.MyStatsOut, **errors(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        return Response(
            leaderboards.my_stats(request.user, game=game_param(request, required=False))
        )
