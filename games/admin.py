"""A browsable admin for staff. Engine state and seeds are shown read-only."""

from django.contrib import admin

from .models import Career, Event, IdempotencyRecord, Match, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot_level", "must_act", "deadline", "timeouts", "away", "place")
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "status",
        "visibility",
        "time_control",
        "seat_count",
        "version",
        "created_at",
    )
    list_filter = ("game", "status", "visibility", "time_control")
    search_fields = ("id", "invite_code")
    readonly_fields = (
        "id",
        "game",
        "options",
        "seat_count",
        "version",
        "last_seq",
        "seed",
        "seed_commitment",
        "state",
        "deadline",
        "placements",
        "stats",
        "end_reason",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    )
    inlines = [SeatInline]

    def has_add_permission(self, request) -> bool:  # matches are created through the API
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "version", "type", "actor", "by_bot", "created_at")
    list_filter = ("type", "by_bot")
    search_fields = ("match__id",)
    readonly_fields = [f.name for f in Event._meta.fields]

    def has_add_permission(self, request) -> bool:  # the log is append-only, by services
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "key", "match", "status_code", "created_at")
    readonly_fields = [f.name for f in IdempotencyRecord._meta.fields]


@admin.register(Career)
class CareerAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "matches", "wins", "place_sum", "updated_at")
    list_filter = ("game",)
    readonly_fields = [f.name for f in Career._meta.fields]
