"""Leaderboard and player-statistics routes, included under ``/api/``."""

from django.urls import path

from . import stats as v

urlpatterns = [
    path("leaderboards/<str:game>/", v.LeaderboardView.as_view(), name="leaderboard"),
    path("players/<str:player_id>/", v.PlayerView.as_view(), name="player"),
    path("players/<str:player_id>/stats/", v.PlayerStatsView.as_view(), name="player-stats"),
    path("me/stats/", v.MyStatsView.as_view(), name="my-stats"),
]
