"""The floor of ``bench/perf.py``: what a plain Django + DRF + ORM implementation costs.

- :class:`FloorMove` does the move transaction's shape and nothing else: lock the match row,
  write a new state and version (``save()``), insert one event, commit, answer the version.
  Five statements (BEGIN, SELECT … FOR UPDATE, UPDATE, INSERT, COMMIT); no authentication, no
  rules, no redaction, no deadlines, no publish.
- :class:`FloorView` reads what a match view reads — the match, its seats and users, the last
  20 events — through the ORM and DRF model serializers, without authentication, rules or
  redaction.

Served only by ``bench.perf_settings`` (``bench.perf_urls``), never by a deployment.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Event, Match, Seat


class FloorMatch(serializers.ModelSerializer):
    class Meta:
        model = Match
        fields = [
            "id",
            "game",
            "status",
            "version",
            "visibility",
            "options",
            "seat_count",
            "time_control",
            "decision_seconds",
            "deadline",
            "placements",
            "end_reason",
            "last_seq",
        ]


class FloorSeat(serializers.ModelSerializer):
    name = serializers.CharField(source="user.display_name", default=None)

    class Meta:
        model = Seat
        fields = ["position", "user", "name", "bot_level", "must_act", "deadline", "away", "place"]


class FloorEvent(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = ["seq", "version", "type", "public"]


class FloorMove(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def post(self, request: Request, match_id: Any) -> Response:
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            match.version += 1
            match.last_seq += 1
            match.state = {"n": match.version, "action": request.data}
            match.save()
            Event.objects.create(
                match=match,
                seq=match.last_seq,
                version=match.version,
                type="floor",
                public=request.data,
                actor=0,
                action=request.data,
            )
        return Response({"version": match.version})


class FloorView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def get(self, request: Request, match_id: Any) -> Response:
        match = Match.objects.get(pk=match_id)
        seats = match.seats.select_related("user").order_by("position")
        events = Event.objects.filter(match=match, seq__gt=max(0, match.last_seq - 20))
        return Response(
            {
                **FloorMatch(match).data,
                "seats": FloorSeat(seats, many=True).data,
                "events": FloorEvent(events.order_by("seq"), many=True).data,
            }
        )
