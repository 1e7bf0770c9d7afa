"""A player's vacation over REST (docs/notifications.md): thin views over
``games.reads.vacation`` and ``games.services.vacation``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play.fields import validate
from api.play.vacation import VacationIn
from games.reads.vacation import vacation_status
from games.services.vacation import vacation_end, vacation_start

from .base import MatchBase
from .openapi import responses as r
from .openapi import vacation as _components  # noqa: F401  (defines the components)
from .openapi.extensions import component


class VacationView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="vacation_read",
        summary="Your vacation and this year's vacation days",
        responses=r.answers({200: component("VacationStatusOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response(vacation_status(request.user))

    @extend_schema(
        operation_id="vacation_start",
        summary="Go on vacation: your async clocks wait for some days",
        description="From now, for `days` days: your deadlines in async matches are pushed on "
        "by the vacation, a decision that comes to you meanwhile has its full time from its "
        "end, and no bot plays for you. Other players see it on your seat (`vacation_until`). "
        "Live matches are not paused.",
        request=VacationIn,
        responses=r.answers(
            {201: component("VacationStatusOut")},
            400,
            401,
            409,
            413,
            415,
            e409="You are on vacation already, or fewer days are left this year (`days_left`).",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(VacationIn, request.data)
        vacation_start(user=request.user, days=data["days"])
        return Response(vacation_status(request.user), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="vacation_end",
        summary="End your vacation now",
        description="Your async deadlines are pulled back by the part not taken; only the days "
        "begun count.",
        responses=r.answers(
            {200: component("VacationStatusOut")}, 401, 404, e404="You are not on vacation."
        ),
    )
    def delete(self, request: Request) -> Response:
        ended = vacation_end(user=request.user)
        return Response(vacation_status(request.user, last=ended))
