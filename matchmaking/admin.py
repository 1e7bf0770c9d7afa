"""Queue tickets, challenges, rematch offers, follows and blocks, for staff to look at.
Read-only: only the matchmaking services change them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from kernel.admin import ReadOnlyAdmin

from .models import Block, Challenge, Challenged, Follow, Rematch, Ticket


@admin.register(Ticket)
class TicketAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "user",
        "game",
        "time_control",
        "rated",
        "status",
        "created_at",
        "expires_at",
    )
    list_filter = ("game", "status", "time_control", "rated")


class ChallengedInline(admin.TabularInline):
    model = Challenged
    extra = 0
    can_delete = False
    fields = readonly_fields = ("user", "position", "accepted")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("id", "challenger", "game", "rated", "status", "created_at", "expires_at")
    list_filter = ("game", "status", "rated")
    inlines = [ChallengedInline]


@admin.register(Rematch)
class RematchAdmin(ReadOnlyAdmin):
    list_display = ("id", "source", "status", "match", "created_at", "expires_at")
    list_filter = ("status",)


@admin.register(Follow)
class FollowAdmin(ReadOnlyAdmin):
    list_display = ("follower", "followed", "created_at")


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
