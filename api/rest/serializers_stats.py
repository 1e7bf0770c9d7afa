"""Output serializers of ratings, leaderboards and player statistics (they document the
schema; the readers in ``games.reads.leaderboards`` build the dicts)."""

from __future__ import annotations

from rest_framework import serializers

from games import boards
from games.engine import registry


def _board_help() -> str:
    lines = []
    for board in boards.BOARD_IDS:
        info = boards.BOARDS[board]
        per_game = []
        for game in registry.game_ids():
            spec = boards.terms(game, board)
            if board not in boards.boards_of(game):
                per_game.append(f"{game}: none")
            elif spec is not None:
                num, den = (" + ".join((s,) if isinstance(s, str) else s) for s in spec)
                per_game.append(f"{game}: {num} ÷ {den}")
        detail = f" ({'; '.join(per_game)})" if per_game else ""
        lines.append(f"`{board}` ({info.title}): {info.description}{detail}.")
    return " ".join(lines)


BOARD_HELP = _board_help()


def game_field(**kwargs: object) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=registry.game_ids(), **kwargs)  # type: ignore[arg-type]


def board_field(**kwargs: object) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=list(boards.BOARD_IDS), **kwargs)  # type: ignore[arg-type]


class PlayerRefOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="the display name, else the username")


class LeaderboardEntryOut(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 = best; unique (ties broken by the board order)")
    player = PlayerRefOut()
    value = serializers.FloatField(
        help_text="the player's value on this board (a whole number on the wins board)"
    )
    matches = serializers.IntegerField(help_text="finished matches in this game")
    wins = serializers.IntegerField(help_text="first places in this game")
    rating = serializers.FloatField(help_text="the display rating, mu - 3 sigma")
    rated_matches = serializers.IntegerField()
    provisional = serializers.BooleanField()
    numerator = serializers.IntegerField(
        allow_null=True, help_text="bluff boards: the statistic divided (e.g. bluffs that stood)"
    )
    denominator = serializers.IntegerField(
        allow_null=True, help_text="bluff boards: the statistic it is divided by (e.g. bluffs)"
    )


class LeaderboardOut(serializers.Serializer):
    game = game_field()
    board = board_field(help_text=BOARD_HELP)
    title = serializers.CharField()
    description = serializers.CharField(help_text="what the value is")
    eligibility = serializers.CharField(help_text="who is on this board")
    active_days = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField(help_text="players on the board (with the active filter)")
    offset = serializers.IntegerField()
    limit = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LeaderboardEntryOut(many=True)
    me = LeaderboardEntryOut(
        allow_null=True, help_text="with around=me: the caller's own entry and rank"
    )


class RatingOut(serializers.Serializer):
    rating = serializers.FloatField(help_text="mu - 3 sigma: what boards show (starts at 0)")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rated_matches = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="too few rated matches to be on the board")


class RatingPointOut(serializers.Serializer):
    match = serializers.UUIDField()
    played_at = serializers.DateTimeField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    place = serializers.IntegerField()


class BoardValueOut(serializers.Serializer):
    board = board_field()
    value = serializers.FloatField(allow_null=True, help_text="null: not on this board yet")
    numerator = serializers.IntegerField(allow_null=True)
    denominator = serializers.IntegerField(allow_null=True)


class PlayerGameStatsOut(serializers.Serializer):
    player = PlayerRefOut()
    game = game_field()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    assisted = serializers.IntegerField(help_text="matches in which bots took most decisions")
    assisted_wins = serializers.IntegerField()
    average_place = serializers.FloatField(allow_null=True)
    places = serializers.DictField(
        child=serializers.IntegerField(), help_text='how often each place was taken: {"1": 4}'
    )
    rating = RatingOut()
    history = RatingPointOut(
        many=True, help_text="the latest rating points, one per rated match, oldest first"
    )
    stats = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="bluff statistics of the player's own decisions, summed (keys: docs/rules)",
    )
    bot_stats = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="statistics of the decisions bots took for the player, summed apart",
    )
    boards = BoardValueOut(many=True)
    last_played_at = serializers.DateTimeField(allow_null=True)


class PlayerGameSummaryOut(serializers.Serializer):
    game = game_field()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    rating = serializers.FloatField()
    rated_matches = serializers.IntegerField()
    provisional = serializers.BooleanField()
    last_played_at = serializers.DateTimeField(allow_null=True)


class PlayerProfileOut(serializers.Serializer):
    player = PlayerRefOut()
    games = PlayerGameSummaryOut(many=True)


class MyStatsOut(serializers.Serializer):
    player = PlayerRefOut()
    games = PlayerGameStatsOut(many=True)
