"""The match API: thin views over ``games.services`` (writers) and ``games.selectors``."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpResponseBase
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.throttling import AtomicScopedRateThrottle
from fibserver.errors import Invalid, NotAuthenticated
from games import selectors, services
from games.models import Match

from . import serializers as s
from .openapi import responses as r
from .openapi.extensions import DiscriminatedUnion, component
from .parsers import LimitedJSONParser


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


def tag_matches(request: Request, tag: str) -> bool:
    """Whether ``If-None-Match`` holds ``tag``."""
    return tag_matches_header(request.headers.get("If-None-Match"), tag)


def tag_matches_header(sent: str | None, tag: str) -> bool:
    """Whether an ``If-None-Match`` value holds ``tag``."""
    return bool(sent) and tag in [t.strip() for t in sent.split(",")]  # type: ignore[union-attr]


R = TypeVar("R", bound=HttpResponseBase)


def tagged(response: R, tag: str) -> R:
    """``response`` (DRF's or a plain Django one) with the view's ``ETag``."""
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    return response


def query_params(request: Any) -> dict[str, str]:
    """The query string of a DRF request or a plain Django one (the follower), one value per
    name (the last, as Django's ``QueryDict.get``)."""
    params = getattr(request, "query_params", None)
    return dict((params if params is not None else request.GET).items())


def seat_param(request: Any) -> int | None:
    """The ``?seat=`` a caller holding two seats (Skull two_tribes) looks or acts through."""
    params = query_params(request)
    if "seat" not in params:
        return None  # nothing to check: SeatQuery ignores every other parameter
    seat: int | None = s.validate(s.SeatQuery, params).get("seat")
    return seat


def user_or_none(request: Request) -> Any:
    return request.user if request.user and request.user.is_authenticated else None


def paginated(request: Request, view: APIView, items: Any, render: Any = None) -> Response:
    """A page of ``items`` (``?limit=&offset=``, checked as documented)."""
    s.validate(s.PageQuery, query_params(request))
    paginator = Pagination()
    page = paginator.paginate_queryset(items, request, view=view)
    assert page is not None
    return paginator.get_paginated_response([render(i) for i in page] if render else page)


class MatchBase(APIView):
    parser_classes = [LimitedJSONParser]


CREATE_REQUEST = DiscriminatedUnion("MatchCreateIn", dict(s.MATCH_CREATE_IN), "game")
ACTION_REQUEST = DiscriminatedUnion("ActionIn", dict(s.ACTION_IN), "type")


class MatchListView(MatchBase):
    permission_classes = [AllowAny]

    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        operation_id="matches_list",
        summary="Open public matches (or the caller's with ?mine=true)",
        parameters=[s.MatchListQuery, s.PageQuery],
        responses=r.answers(
            {200: component("MatchSummaryPageOut")},
            400,
            401,
            e401="`mine=true` without a token, or a token that is not valid.",
        ),
    )
    def get(self, request: Request) -> Response:
        query = s.validate(s.MatchListQuery, query_params(request))
        game = query.get("game")
        if query["mine"]:
            if not request.user.is_authenticated:
                raise NotAuthenticated("Log in to list your matches.")
            qs = selectors.my_matches(user=request.user, status=query.get("status"))
        else:
            qs = selectors.open_matches(game=game)
            if query.get("status"):
                qs = qs.filter(status=query["status"])
        if game:
            qs = qs.filter(game=game)
        return paginated(request, self, selectors.with_seat_counts(qs), selectors.match_summary)

    @extend_schema(
        summary="Create a match (optionally with bots, or all bots as an exhibition)",
        description="The body depends on the game (`game` picks the variant): its seat counts "
        "and options. What a variant cannot say is refused with 422 `invalid_options`: bots "
        "that do not fit the table, a `solo` match that is not you and bots, "
        "`decision_seconds` outside the time control's bounds, Skull's seat counts for "
        "`two_sets`/`two_tribes`, `max_plays` with Fibber's `easy` rules. The match starts "
        "at once when every seat is taken.",
        request=CREATE_REQUEST,
        responses=r.answers({201: component("MatchOut")}, 400, 401, 413, 415, 422),
    )
    def post(self, request: Request) -> Response:
        data = validate_variant(request.data, "game", s.MATCH_CREATE_IN)
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
        )
        body = selectors.match_read(match.pk, request.user)
        return Response(body, status=status.HTTP_201_CREATED)


def validate_variant(body: Any, key: str, variants: dict[str, type]) -> dict[str, Any]:
    """A body whose ``key`` picks its shape (``game`` of a new match)."""
    if not isinstance(body, dict):
        raise Invalid(
            "The body must be a JSON object.", fields={"body": ["Must be a JSON object."]}
        )
    value = body.get(key)
    if not isinstance(value, str) or value not in variants:
        message = f"Must be one of: {', '.join(variants)}."
        if key not in body:
            message = "This field is required. " + message
        raise Invalid(f"The request is not valid: '{key}': {message}", fields={key: [message]})
    return s.validate(variants[value], body)


class MatchDetailView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The caller's view of a match (spectator view for non-players)",
        description="Answers with an `ETag` of your view; send it back in `If-None-Match` to "
        "get `304 Not Modified` (no body) while nothing you can see has changed.",
        parameters=[r.MATCH_ID, s.SeatQuery, r.IF_NONE_MATCH, r.ETAG, r.CACHE_CONTROL],
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
        """A conditional GET costs one indexed query (``selectors.view_tag_read``) and no
        rendering when the caller's tag is current; otherwise the view and its tag come from
        one snapshot."""
        user = user_or_none(request)
        seat = seat_param(request)
        if request.headers.get("If-None-Match"):
            tag = selectors.view_tag_read(match_id, user, seat)
            if tag_matches(request, tag):
                return tagged(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        body, tag = selectors.match_read_tagged(match_id, user, seat)
        return tagged(Response(body), tag)


class LobbyActionView(MatchBase):
    permission_classes = [IsAuthenticated]
    input_class: type | None = None

    def change(self, request: Request, match_id: str, data: dict[str, Any]) -> Match:
        raise AssertionError("subclasses implement change()")

    def post(self, request: Request, match_id: str) -> Response:
        data = s.validate(self.input_class, request.data) if self.input_class else {}
        match = self.change(request, match_id, data)
        return Response(selectors.match_read(match.pk, request.user))


class JoinView(LobbyActionView):
    input_class = s.JoinIn

    @extend_schema(
        summary="Take a free seat",
        description="A private match needs its `invite_code` (without it, it does not exist "
        "for you: 404). The match starts by itself when full.",
        parameters=[r.MATCH_ID],
        request=s.JoinIn,
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
    input_class = s.BotsIn

    @extend_schema(
        summary="Fill free seats with bots",
        description="By the host or a seated player; the match starts when it is full.",
        parameters=[r.MATCH_ID],
        request=s.BotsIn,
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
        request=s.JoinByCodeIn,
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
        data = s.validate(s.JoinByCodeIn, request.data)
        match = services.match_join_by_code(invite_code=data["invite_code"], user=request.user)
        return Response(selectors.match_read(match.pk, request.user))


class ActionView(MatchBase):
    """The DRF twin of ``api.rest.actions.match_actions`` (which serves the route): the schema
    is generated from it, and it answers every request the plain view hands over."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [AtomicScopedRateThrottle]
    throttle_scope = "actions"

    @extend_schema(
        summary="Take an action",
        description="The body is one of your `legal_actions` filled in: "
        '`{"type": ..., "<param>": value, ...}` (one variant per action type; each says which '
        "games have it), with an optional `expected_version` (a stale one answers 409). A body "
        "of the right shape that the game's rules do not allow now answers 422 with the reason. "
        "Send an `Idempotency-Key` header to make retries safe.",
        request=ACTION_REQUEST,
        parameters=[r.MATCH_ID, s.SeatQuery, r.IDEMPOTENCY_KEY, r.RETRY_AFTER],
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
        code, payload = submit_action(request, request.user, match_id, request.data)
        return Response(payload, status=code)


def submit_action(request: Any, user: Any, match_id: str, data: Any) -> tuple[int, dict[str, Any]]:
    """A move as both the DRF view and the plain view (``api.rest.actions``) take it: the body,
    the ``Idempotency-Key`` header and ``?seat`` checked, then the service, answering the
    caller's view."""
    action, expected = s.validate_action(data)
    key = idempotency_key(request.headers.get("Idempotency-Key"))
    return services.action_submit_optimistic(
        match_id=match_id,
        user=user,
        action=action,
        expected_version=expected,
        seat=seat_param(request),
        idempotency_key=key,
        render=lambda match, seat, seats: selectors.match_view(match, user, seat, seats),
        render_stored=lambda match, seat, seats, events, state: selectors.match_view_stored(
            match, user, seat, seats, events, state
        ),
    )


IDEMPOTENCY_KEY_RE = re.compile(r.IDEMPOTENCY_KEY_PATTERN)


def idempotency_key(key: str | None) -> str | None:
    """An ``Idempotency-Key`` as the schema documents it, or ``400 invalid``."""
    if key is not None and not IDEMPOTENCY_KEY_RE.fullmatch(key):
        message = f"Must be 1 to {r.IDEMPOTENCY_KEY_MAX} visible ASCII characters."
        raise Invalid(f"Idempotency-Key: {message}", fields={"Idempotency-Key": [message]})
    return key


class EventsView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The caller's events after a sequence number",
        description="With `wait` (seconds, at most 30) the request is held until news arrive. "
        "A page holds at most 200 events; `more` says to ask again after the last `seq`.",
        parameters=[r.MATCH_ID, s.EventsQuery],
        responses=r.answers(
            {200: component("EventsOut")}, 400, 401, 403, 404, e403="`seat` is not one of yours."
        ),
    )
    def get(self, request: Request, match_id: str) -> Response:
        after, _wait = events_params(request)
        return Response(
            selectors.events_page(match_id, user_or_none(request), after, seat_param(request))
        )


def events_params(request: Any) -> tuple[int, float]:
    """``after`` (the last sequence number seen) and ``wait`` (seconds of long-poll)."""
    query = s.validate(s.EventsQuery, query_params(request))
    wait = min(float(query["wait"]), float(settings.FIBSERVER["MAX_WAIT_SECONDS"]))
    return int(query["after"]), wait


class MyTurnsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Matches where the caller must act, soonest deadline first",
        parameters=[s.PageQuery],
        responses=r.answers({200: component("TurnPageOut")}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.my_turns(user=request.user))


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
        match = selectors.match_get(match_id, user=user_or_none(request))
        return Response(selectors.match_replay(match))


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
        match = selectors.match_get(match_id, user=user_or_none(request))
        return Response(selectors.match_replay_step(match, selectors.replay_step_number(n)))


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
        match = selectors.match_get(match_id, user=user_or_none(request))
        return Response(selectors.match_stats(match))
