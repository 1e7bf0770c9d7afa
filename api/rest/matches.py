"""A match in play over REST: the caller's view, moves, the event feed (without waiting) and
the caller's turns. The view and the move are served by the fast lane's plain views
(``api.fast``) where they can; these DRF views document them in the OpenAPI schema and answer
every request the plain views hand over."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.conditional import tag_matches, tagged
from api.play import actions as shapes
from api.play.moves import THROTTLE_SCOPE, submit_move
from api.play.queries import EventsQuery, PageQuery, SeatQuery, feed_of, seat_of
from api.throttling import AtomicScopedRateThrottle
from games.reads import feeds, lists, views

from .base import MatchBase, paginated, user_or_none
from .openapi import responses as r
from .openapi.extensions import DiscriminatedUnion, component

ACTION_REQUEST = DiscriminatedUnion("ActionIn", dict(shapes.ACTION_IN), "type")


class MatchDetailView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The caller's view of a match (spectator view for non-players)",
        description="Answers with an `ETag` of your view; send it back in `If-None-Match` to "
        "get `304 Not Modified` (no body) while nothing you can see has changed.",
        parameters=[r.MATCH_ID, SeatQuery, r.IF_NONE_MATCH, r.ETAG, r.CACHE_CONTROL],
        responses=r.answers(
            {
                200: component("MatchOut"),
                304: r.OpenApiResponse(
                    description="Not modified: your `If-None-Match` holds the current ETag."
                ),
            },
            400,
            401,
            403,
            404,
            e403="`seat` is not one of yours.",
        ),
    )
    def get(self, request: Request, match_id: str) -> Response:
        """A conditional GET costs one indexed query (``views.read_tag``) and no rendering when
        the caller's tag is current; otherwise the view and its tag come from one snapshot."""
        user = user_or_none(request)
        seat = seat_of(request.query_params)
        sent = request.headers.get("If-None-Match")
        if sent:
            tag = views.read_tag(match_id, user, seat)
            if tag_matches(sent, tag):
                return tagged(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        body, tag = views.read_view(match_id, user, seat)
        return tagged(Response(body), tag)


class ActionView(MatchBase):
    """The DRF twin of the fast lane's move (``api.fast.move``, which serves the route): the
    schema is generated from it, and it answers every request the plain view hands over."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [AtomicScopedRateThrottle]
    throttle_scope = THROTTLE_SCOPE

    @extend_schema(
        summary="Take an action",
        description="The body is one of your `legal_actions` filled in: "
        '`{"type": ..., "<param>": value, ...}` (one variant per action type; each says which '
        "games have it), with an optional `expected_version` (a stale one answers 409). A body "
        "of the right shape that the game's rules do not allow now answers 422 with the reason. "
        "Send an `Idempotency-Key` header to make retries safe.",
        request=ACTION_REQUEST,
        parameters=[r.MATCH_ID, SeatQuery, r.IDEMPOTENCY_KEY, r.RETRY_AFTER],
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
            429,
            e403="Not your seat or not your turn.",
            e409="The match is not active, or `expected_version` is stale (`stale_version`, "
            "with the current `version`).",
        ),
    )
    def post(self, request: Request, match_id: str) -> Response:
        code, payload = submit_move(
            user=request.user,
            match_id=match_id,
            body=request.data,
            key=request.headers.get("Idempotency-Key"),
            params=request.query_params,
        )
        return Response(payload, status=code)


class EventsView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The caller's events after a sequence number",
        description="With `wait` (seconds, at most 30) the request is held until news arrive. "
        "A page holds at most 200 events; `more` says to ask again after the last `seq`. "
        "Any other query parameter (there is no `limit`) is refused: 400 `invalid`, naming it.",
        parameters=[r.MATCH_ID, EventsQuery],
        responses=r.answers(
            {200: component("EventsOut")}, 400, 401, 403, 404, e403="`seat` is not one of yours."
        ),
    )
    def get(self, request: Request, match_id: str) -> Response:
        after, _wait, seat = feed_of(request.query_params)
        return Response(feeds.read_feed(match_id, user_or_none(request), after, seat))


class MyTurnsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Matches where the caller must act, soonest deadline first",
        parameters=[PageQuery],
        responses=r.answers({200: component("TurnPageOut")}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        return paginated(request, self, lists.read_turns(user=request.user))
