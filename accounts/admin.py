from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


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
