"""Leaderboards and player statistics: thin views over ``games.reads.leaderboards``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from api.play.fields import validate
from api.play.queries import GameQuery, LeaderboardQuery, RequiredGameQuery, plain
from games import boards
from games.engine import registry
from games.reads import leaderboards
from kernel.errors import NotAuthenticated

from . import serializers_stats as out
from .openapi.builders import enum
from .openapi.responses import answers

GAME_PATH = OpenApiParameter(
    "game", str, OpenApiParameter.PATH, enum=registry.game_ids(), description="the game"
)
PLAYER_ID = OpenApiParameter(
    "player_id", int, OpenApiParameter.PATH, description="the player's user id (`user.id`)"
)


enum("Board", boards.BOARD_IDS, "A leaderboard (which games have which: docs/ratings.md).")
enum("Around", ["me"])


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
        parameters=[GAME_PATH, LeaderboardQuery],
        responses=answers({200: out.LeaderboardOut}, 400, 401, 404),
    )
    def get(self, request: Request, game: str) -> Response:
        query = validate(LeaderboardQuery, plain(request.query_params))
        around = query.get("around")
        if around and not request.user.is_authenticated:
            raise NotAuthenticated("Log in to find yourself on a board (around=me).")
        body = leaderboards.leaderboard(
            game=game,
            board=query["board"],
            limit=query["limit"],
            offset=query["offset"],
            around=request.user.pk if around else None,
            active_days=query.get("active_days"),
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
        parameters=[PLAYER_ID],
        responses=answers({200: out.PlayerProfileOut}, 401, 404),
    )
    def get(self, request: Request, player_id: str) -> Response:
        return Response(leaderboards.player_profile(player_id))


class PlayerStatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_stats",
        summary="A player's statistics in one game (finished matches only)",
        parameters=[PLAYER_ID, RequiredGameQuery],
        responses=answers({200: out.PlayerGameStatsOut}, 400, 401, 404),
    )
    def get(self, request: Request, player_id: str) -> Response:
        game = validate(RequiredGameQuery, plain(request.query_params))["game"]
        return Response(leaderboards.player_stats(player_id, game=game))


class MyStatsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_stats",
        summary="The caller's statistics in every game played (or in ?game=)",
        parameters=[GameQuery],
        responses=answers({200: out.MyStatsOut}, 400, 401, 404),
    )
    def get(self, request: Request) -> Response:
        game = validate(GameQuery, plain(request.query_params)).get("game")
        return Response(leaderboards.my_stats(request.user, game=game))
