"""Input and output serializers of the match API (inputs validate; outputs document)."""

from __future__ import annotations

from rest_framework import serializers

from games.engine import registry
from games.models import Match
from games.timecontrol import TIME_CONTROLS


class MatchCreateIn(serializers.Serializer):
    game = serializers.ChoiceField(choices=registry.game_ids())
    seats = serializers.IntegerField(min_value=1, max_value=16)
    options = serializers.DictField(required=False, default=dict)
    visibility = serializers.ChoiceField(choices=Match.Visibility.values, default="public")
    time_control = serializers.ChoiceField(choices=list(TIME_CONTROLS), default="live")
    decision_seconds = serializers.IntegerField(required=False, allow_null=True, default=None)
    bots = serializers.ListField(
        child=serializers.CharField(max_length=16), required=False, default=list, max_length=16
    )
    join = serializers.BooleanField(default=True, help_text="false: a bot exhibition")


class JoinIn(serializers.Serializer):
    invite_code = serializers.CharField(required=False, allow_blank=False, max_length=16)


class JoinByCodeIn(serializers.Serializer):
    invite_code = serializers.CharField(max_length=16)


class BotsIn(serializers.Serializer):
    level = serializers.CharField(max_length=16, default="random")
    count = serializers.IntegerField(min_value=1, max_value=16, default=1)


class ActionIn(serializers.Serializer):
    """``{"type": ..., "<param>": value, ...}`` plus an optional ``expected_version``."""

    type = serializers.CharField(max_length=32)
    expected_version = serializers.IntegerField(required=False, min_value=0)

    class Meta:
        # The other keys are the action's parameters; see the match's legal_actions.
        ref_name = "ActionIn"


class SeatOut(serializers.Serializer):
    position = serializers.IntegerField()
    user = serializers.DictField(allow_null=True)
    bot_level = serializers.CharField(allow_null=True)
    must_act = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    away = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    type = serializers.CharField()
    private = serializers.DictField(required=False)
    by_bot = serializers.BooleanField(required=False)


class MatchOut(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Match.Status.values)
    version = serializers.IntegerField()
    visibility = serializers.CharField()
    options = serializers.DictField()
    seat_count = serializers.IntegerField()
    time_control = serializers.CharField()
    decision_seconds = serializers.IntegerField()
    created_by = serializers.IntegerField(allow_null=True)
    invite_code = serializers.CharField(allow_null=True)
    seed_commitment = serializers.CharField(allow_null=True)
    seats = SeatOut(many=True)
    you = serializers.DictField(allow_null=True)
    to_act = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    legal_actions = serializers.ListField(child=serializers.DictField())
    view = serializers.DictField(allow_null=True)
    placements = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    last_seq = serializers.IntegerField()
    events = EventOut(many=True)


class MatchSummaryOut(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    status = serializers.CharField()
    visibility = serializers.CharField()
    options = serializers.DictField()
    seat_count = serializers.IntegerField()
    filled = serializers.IntegerField()
    bots = serializers.IntegerField()
    time_control = serializers.CharField()
    created_at = serializers.DateTimeField()
    version = serializers.IntegerField()


class EventsOut(serializers.Serializer):
    events = EventOut(many=True)
    last_seq = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()


class TurnOut(serializers.Serializer):
    match = serializers.UUIDField()
    game = serializers.CharField()
    seat = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()


class ErrorOut(serializers.Serializer):
    error = serializers.DictField()


class MatchSummaryPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = MatchSummaryOut(many=True)
