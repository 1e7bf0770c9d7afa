"""What a finished match reveals, over REST: its replay, the replay re-run step by step, and
its bluff statistics (``games.reads.replays``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.reads import replays, views

from .base import user_or_none
from .openapi import responses as r
from .openapi.extensions import component


class ReplayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The complete record once the match has finished (docs/replay.md)",
        parameters=[r.MATCH_ID],
        responses=r.answers(
            {200: component("ReplayOut")}, 401, 404, e404="No such match, or not finished yet."
        ),
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = views.read_match(match_id, user_or_none(request))
        return Response(replays.read_replay(match))


class ReplayStepView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The match after step n, re-run by the engine from the revealed seed",
        description="Step `n` of a finished match's record (0 is the set-up, the last is the "
        "number of steps), re-run by the engine from the revealed seed and checked against "
        "the record on the way: the spectator's view, every seat's private view and legal "
        "actions at that point, the step taken (and whether a bot took it after a deadline), "
        "the events it produced, and `matched`: whether the re-run gave the recorded chance "
        "outcomes and events for the set-up and every step up to `n` (docs/replay.md).",
        parameters=[r.MATCH_ID, r.REPLAY_STEP],
        responses=r.answers(
            {200: component("ReplayStepOut")},
            400,
            401,
            404,
            409,
            e400="`n` is not a whole number from 0.",
            e404="No such match, not finished yet, or no step `n` (past the last step).",
            e409="The record does not re-run with this server's engine (a step it refuses).",
        ),
    )
    def get(self, request: Request, match_id: str, n: str) -> Response:
        match = views.read_match(match_id, user_or_none(request))
        return Response(replays.read_replay_step(match, replays.step_number(n)))


class StatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Bluff statistics of a finished match (hidden until the end)",
        parameters=[r.MATCH_ID],
        responses=r.answers(
            {200: component("MatchStatsOut")}, 401, 404, e404="No such match, or not finished yet."
        ),
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = views.read_match(match_id, user_or_none(request))
        return Response(replays.read_stats(match))
