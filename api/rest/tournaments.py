"""The tournaments API (docs/tournaments.md): thin views over ``tournaments.services`` and
``tournaments.reads``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play.fields import validate
from api.play.queries import PageQuery, TournamentListQuery, plain
from api.play.tournaments import TournamentCreateIn
from tournaments import reads as sel
from tournaments import services

from .base import MatchBase, paginated, user_or_none
from .openapi import responses as r
from .openapi import tournaments as _components  # noqa: F401  (defines the components)
from .openapi.extensions import component

EVENT_ID = OpenApiParameter(
    "tournament_id",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    description="The tournament id. Anything that is not the id of a tournament you may see: 404.",
)


class TournamentListView(MatchBase):
    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        operation_id="tournaments_list",
        summary="Public tournaments open for registration or running (or of one status)",
        parameters=[TournamentListQuery, PageQuery],
        responses=r.answers({200: component("TournamentSummaryPageOut")}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        query = validate(TournamentListQuery, plain(request.query_params))
        return paginated(
            request,
            self,
            sel.listed_tournaments(status=query.get("status")),
            sel.render_tournament_summary,
        )

    @extend_schema(
        operation_id="tournaments_create",
        summary="Create a Fibber's Dice tournament (you are its host)",
        description="Registration opens at once; the raffle's commitment is published now.",
        request=TournamentCreateIn,
        responses=r.answers(
            {201: component("TournamentDetailOut")},
            400,
            401,
            413,
            415,
            422,
            e422="A time control or seconds per decision the rounds cannot have.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(TournamentCreateIn, request.data)
        tournament = services.tournament_create(user=request.user, **data)
        return Response(
            sel.render_tournament(tournament, request.user), status=status.HTTP_201_CREATED
        )


class TournamentDetailView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournaments_read",
        summary="A tournament: settings, standings, rounds, prize picks and the raffle",
        parameters=[EVENT_ID],
        responses=r.answers({200: component("TournamentDetailOut")}, 401, 404),
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        tournament = sel.read_tournament(tournament_id, user=user_or_none(request))
        return Response(sel.render_tournament(tournament, user_or_none(request)))


class TournamentChangeView(MatchBase):
    permission_classes = [IsAuthenticated]

    def change(self, request: Request, tournament_id: str) -> Any:
        raise AssertionError("subclasses implement change()")

    def post(self, request: Request, tournament_id: str) -> Response:
        self.change(request, tournament_id)
        tournament = sel.read_tournament(tournament_id, user=request.user)
        return Response(sel.render_tournament(tournament, request.user))


def _change(summary: str, description: str, e409: str, e403: bool = True) -> Any:
    errors = [401, 404, 409, 413, 415, *([403] if e403 else [])]
    return extend_schema(
        summary=summary,
        description=description,
        parameters=[EVENT_ID],
        request=None,
        responses=r.answers({200: component("TournamentDetailOut")}, *errors, e409=e409),
    )


class RegisterView(TournamentChangeView):
    @_change(
        "Register for the tournament",
        "Before the start: an entry. A running single-round tournament: you join its match as a "
        "late entrant (the next seat, the round's points) until the second turn of the match's "
        "first starter comes or the table has 10. A multi-round tournament: until the final "
        "starts.",
        "Registered already, or registration has closed (the reason says why).",
        e403=False,
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        return super().post(request, tournament_id)

    def change(self, request: Request, tournament_id: str) -> Any:
        return services.tournament_register(tournament_id=tournament_id, user=request.user)


class UnregisterView(TournamentChangeView):
    @_change(
        "Withdraw before the tournament starts",
        "After the start, a seat you do not play is played by the takeover bot.",
        "Not registered, or the tournament has started.",
        e403=False,
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        return super().post(request, tournament_id)

    def change(self, request: Request, tournament_id: str) -> Any:
        services.tournament_unregister(tournament_id=tournament_id, user=request.user)


class StartView(TournamentChangeView):
    @_change(
        "Start the tournament (host)",
        "7 or fewer registered: one match of all of them; more: round 1 of several.",
        "Started already, or fewer than 2 registered.",
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        return super().post(request, tournament_id)

    def change(self, request: Request, tournament_id: str) -> Any:
        return services.tournament_start(tournament_id=tournament_id, user=request.user)


class NextRoundView(TournamentChangeView):
    @_change(
        "Start the next round (host)",
        "Once the current round has ended: the next qualifying round (rounds with fewer "
        "than 2 eligible are skipped), the final, or the end of the tournament.",
        "A round is still being played, the tournament is not running, or it has one round.",
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        return super().post(request, tournament_id)

    def change(self, request: Request, tournament_id: str) -> Any:
        return services.tournament_next_round(tournament_id=tournament_id, user=request.user)


class ShortFormatView(TournamentChangeView):
    @_change(
        "Switch to the short format (host)",
        "Before round 3 starts: 3 qualifying rounds, the final being the winners of rounds 1 "
        "and 2 and the first 2 of round 3.",
        "Round 3 has started, the format is short already, or the tournament has one round.",
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        return super().post(request, tournament_id)

    def change(self, request: Request, tournament_id: str) -> Any:
        return services.tournament_switch_short(tournament_id=tournament_id, user=request.user)


class RaffleView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournaments_raffle",
        summary="The door-prize draw: the commitment, then the seed and the winners",
        parameters=[EVENT_ID],
        responses=r.answers({200: component("RaffleOut")}, 401, 404),
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        tournament = sel.read_tournament(tournament_id, user=user_or_none(request))
        return Response(sel.render_raffle(tournament))


class MyMatchView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_my_match",
        summary="Your match in the tournament now (round, match id, seat), or why there is none",
        parameters=[EVENT_ID],
        responses=r.answers({200: component("TournamentMyMatchOut")}, 401, 404),
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        tournament = sel.read_tournament(tournament_id, user=request.user)
        return Response(sel.read_my_match(tournament, request.user))
