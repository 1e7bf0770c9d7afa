"""The events API (docs/events.md): thin views over ``games.services.events`` and
``games.event_selectors``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play.fields import validate
from api.play.queries import EventListQuery, PageQuery, plain
from api.play.tournaments import EventCreateIn
from games import event_selectors as sel
from games import services

from .base import MatchBase, paginated, user_or_none
from .openapi import events as _components  # noqa: F401  (defines the components)
from .openapi import responses as r
from .openapi.extensions import component

EVENT_ID = OpenApiParameter(
    "event_id",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    description="The event id. Anything that is not the id of an event you may see: 404.",
)


class EventListView(MatchBase):
    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        operation_id="events_list",
        summary="Public events open for registration or running (or of one status)",
        parameters=[EventListQuery, PageQuery],
        responses=r.answers({200: component("EventSummaryPageOut")}, 400, 401),
    )
    def get(self, request: Request) -> Response:
        query = validate(EventListQuery, plain(request.query_params))
        return paginated(
            request, self, sel.events_listed(status=query.get("status")), sel.event_summary
        )

    @extend_schema(
        operation_id="events_create",
        summary="Create a Fibber's Dice event (you are its host)",
        description="Registration opens at once; the raffle's commitment is published now.",
        request=EventCreateIn,
        responses=r.answers(
            {201: component("EventDetailOut")},
            400,
            401,
            413,
            415,
            422,
            e422="A time control or seconds per decision the rounds cannot have.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(EventCreateIn, request.data)
        event = services.event_create(user=request.user, **data)
        return Response(sel.event_detail(event, request.user), status=status.HTTP_201_CREATED)


class EventDetailView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="events_read",
        summary="An event: settings, standings, rounds, prize picks and the raffle",
        parameters=[EVENT_ID],
        responses=r.answers({200: component("EventDetailOut")}, 401, 404),
    )
    def get(self, request: Request, event_id: str) -> Response:
        event = sel.event_get(event_id, user=user_or_none(request))
        return Response(sel.event_detail(event, user_or_none(request)))


class EventChangeView(MatchBase):
    permission_classes = [IsAuthenticated]

    def change(self, request: Request, event_id: str) -> Any:
        raise AssertionError("subclasses implement change()")

    def post(self, request: Request, event_id: str) -> Response:
        self.change(request, event_id)
        event = sel.event_get(event_id, user=request.user)
        return Response(sel.event_detail(event, request.user))


def _change(summary: str, description: str, e409: str, e403: bool = True) -> Any:
    errors = [401, 404, 409, 413, 415, *([403] if e403 else [])]
    return extend_schema(
        summary=summary,
        description=description,
        parameters=[EVENT_ID],
        request=None,
        responses=r.answers({200: component("EventDetailOut")}, *errors, e409=e409),
    )


class RegisterView(EventChangeView):
    @_change(
        "Register for the event",
        "Before the start: an entry. A running single-round event: you join its match as a "
        "late entrant (the next seat, the round's points) until the second turn of the match's "
        "first starter comes or the table has 10. A multi-round event: until the final starts.",
        "Registered already, or registration has closed (the reason says why).",
        e403=False,
    )
    def post(self, request: Request, event_id: str) -> Response:
        return super().post(request, event_id)

    def change(self, request: Request, event_id: str) -> Any:
        return services.event_register(event_id=event_id, user=request.user)


class UnregisterView(EventChangeView):
    @_change(
        "Withdraw before the event starts",
        "After the start, a seat you do not play is played by the takeover bot.",
        "Not registered, or the event has started.",
        e403=False,
    )
    def post(self, request: Request, event_id: str) -> Response:
        return super().post(request, event_id)

    def change(self, request: Request, event_id: str) -> Any:
        services.event_unregister(event_id=event_id, user=request.user)


class StartView(EventChangeView):
    @_change(
        "Start the event (host)",
        "7 or fewer registered: one match of all of them; more: round 1 of several.",
        "Started already, or fewer than 2 registered.",
    )
    def post(self, request: Request, event_id: str) -> Response:
        return super().post(request, event_id)

    def change(self, request: Request, event_id: str) -> Any:
        return services.event_start(event_id=event_id, user=request.user)


class NextRoundView(EventChangeView):
    @_change(
        "Start the next round (host)",
        "Once the current round has ended: the next qualifying round (rounds with fewer "
        "than 2 eligible are skipped), the final, or the end of the event.",
        "A round is still being played, the event is not running, or it has one round.",
    )
    def post(self, request: Request, event_id: str) -> Response:
        return super().post(request, event_id)

    def change(self, request: Request, event_id: str) -> Any:
        return services.event_next_round(event_id=event_id, user=request.user)


class ShortFormatView(EventChangeView):
    @_change(
        "Switch to the short format (host)",
        "Before round 3 starts: 3 qualifying rounds, the final being the winners of rounds 1 "
        "and 2 and the first 2 of round 3.",
        "Round 3 has started, the format is short already, or the event has one round.",
    )
    def post(self, request: Request, event_id: str) -> Response:
        return super().post(request, event_id)

    def change(self, request: Request, event_id: str) -> Any:
        return services.event_switch_short(event_id=event_id, user=request.user)


class RaffleView(MatchBase):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="events_raffle",
        summary="The door-prize draw: the commitment, then the seed and the winners",
        parameters=[EVENT_ID],
        responses=r.answers({200: component("RaffleOut")}, 401, 404),
    )
    def get(self, request: Request, event_id: str) -> Response:
        event = sel.event_get(event_id, user=user_or_none(request))
        return Response(sel.raffle_json(event))


class MyMatchView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="events_my_match",
        summary="Your match in the event now (round, match id, seat), or why there is none",
        parameters=[EVENT_ID],
        responses=r.answers({200: component("EventMyMatchOut")}, 401, 404),
    )
    def get(self, request: Request, event_id: str) -> Response:
        event = sel.event_get(event_id, user=request.user)
        return Response(sel.my_next_match(event, request.user))
