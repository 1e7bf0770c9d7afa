"""Tournaments in the admin: read-only (``kernel.admin.ReadOnlyAdmin``); the services are the
only writers."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from kernel.admin import ReadOnlyAdmin

from .models import Entry, Round, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Entry._meta.fields]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("id", "name", "status", "format", "host", "created_at")
    list_filter = ("status", "format")
    search_fields = ("id", "name")
    inlines = [EntryInline]
    hidden = ("raffle_seed",)  # secret until the draw: its commitment is public


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "final", "skipped", "match")
    list_filter = ("final", "skipped")
