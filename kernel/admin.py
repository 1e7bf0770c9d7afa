"""The base of every model admin that only shows: staff may look, but only the services change
what players made (STYLE.md: the service layer is the only writer)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable, never added, changed or deleted by hand. ``hidden``: fields never shown at
    all (secrets such as a webhook's signing key or a push subscription's keys)."""

    hidden: tuple[str, ...] = ()

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return list(self.hidden)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields if f.name not in self.hidden]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
