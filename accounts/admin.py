from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.deletion import account_delete
from accounts.models import AccountDeletion, DataExport, Session, User, UsernameHold
from kernel.admin import ReadOnlyAdmin
from kernel.errors import AppError


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "is_guest", "is_staff", "date_joined")
    list_filter = ("is_guest", "is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Player", {"fields": ("display_name", "is_guest")}),
    )
    add_fieldsets = (
        *BaseUserAdmin.add_fieldsets,
        ("Player", {"fields": ("display_name", "is_guest")}),
    )
    actions = ["delete_accounts"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """A user row is never removed by hand: accounts are deleted (anonymized) by the
        "Delete the selected accounts" action, through the same service as the player's."""
        return False

    def has_delete_accounts_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.change_user")

    @admin.action(
        description="Delete the selected accounts (anonymize, as the player would)",
        permissions=["delete_accounts"],
    )
    def delete_accounts(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        staff = request.user if isinstance(request.user, User) else None
        done = 0
        for user in queryset.only("pk"):
            try:
                account_delete(user=user, staff=staff)
            except AppError as error:
                self.message_user(request, f"user {user.pk}: {error.message}", messages.WARNING)
            else:
                done += 1
        if done:
            self.message_user(request, f"Deleted {done} account(s).", messages.SUCCESS)


@admin.register(AccountDeletion)
class AccountDeletionAdmin(ReadOnlyAdmin):
    """The audit trail of deletions: read-only."""

    list_display = ("deleted_at", "subject_id", "by", "staff")
    list_filter = ("by",)


@admin.register(DataExport)
class DataExportAdmin(ReadOnlyAdmin):
    """Export jobs: their status and size, never the document (the player's own data)."""

    list_display = ("id", "user", "status", "created_at", "finished_at", "size", "truncated")
    list_filter = ("status",)
    hidden = ("body",)


@admin.register(UsernameHold)
class UsernameHoldAdmin(ReadOnlyAdmin):
    """Usernames of deleted accounts held back (only their hash) until the grace period ends."""

    list_display = ("name_hash", "until")


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    """Who is signed in where; the token's digest is never shown (players sign their sessions
    out themselves, a deletion signs all out)."""

    list_display = ("label", "user", "created", "last_used", "client_address")
    hidden = ("digest",)
