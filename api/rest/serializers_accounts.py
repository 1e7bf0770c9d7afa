"""The one public shape of a user, reused by every endpoint that shows one."""

from rest_framework import serializers

from accounts.models import User


class UserOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "display_name", "is_guest", "date_joined"]
        read_only_fields = fields
