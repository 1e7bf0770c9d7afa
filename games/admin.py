"""A browsable admin for staff that cannot bypass the services.

Staff may look at everything, but nothing that makes up a match — status, version, state,
seats, visibility, the event log — can be edited or deleted here: only the services change a
match. Ending a match goes through the one finisher (the "Abort" action calls
:func:`games.services.match_abort`)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from kernel.admin import ReadOnlyAdmin
from kernel.errors import AppError

from . import services
from .models import (
    Career,
    Event,
    IdempotencyRecord,
    Match,
    RatingPoint,
    RecordedMatch,
    Seat,
    Vacation,
)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot_level", "must_act", "deadline", "timeouts", "away", "place")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "game",
        "status",
        "visibility",
        "time_control",
        "rated",
        "seat_count",
        "version",
        "created_at",
    )
    list_filter = ("game", "status", "visibility", "time_control", "rated")
    search_fields = ("id", "invite_code")
    inlines = [SeatInline]
    actions = ["abort"]

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_match")

    @admin.action(description="Abort the selected matches (no result)", permissions=["abort"])
    def abort(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        aborted = 0
        for match in queryset.only("pk"):
            try:
                services.match_abort(match_id=match.pk)
            except AppError as error:
                self.message_user(request, f"{match.pk}: {error.message}", messages.WARNING)
            else:
                aborted += 1
        if aborted:
            self.message_user(request, f"Aborted {aborted} match(es).", messages.SUCCESS)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "version", "type", "actor", "by_bot", "created_at")
    list_filter = ("type", "by_bot")
    search_fields = ("match__id",)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ("user", "key", "match", "status_code", "created_at")


@admin.register(Career)
class CareerAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "matches", "wins", "rating", "rated_matches", "updated_at")
    list_filter = ("game",)


@admin.register(RecordedMatch)
class RecordedMatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "match", "game", "rated", "recorded_at")
    list_filter = ("game", "rated")


@admin.register(RatingPoint)
class RatingPointAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "match", "rating", "place", "played_at")
    list_filter = ("game",)


@admin.register(Vacation)
class VacationAdmin(ReadOnlyAdmin):
    list_display = ("user", "started_at", "ends_at", "days", "ended_at")
