"""Match routes. The view and the move are the fast lane's plain views (``api.fast.view``,
``api.fast.move``), their DRF twins ``MatchDetailView`` and ``ActionView`` answering what they
hand over and documenting the schema; the events feed is the async long-poll view
(``api.longpoll``), whose DRF twin ``EventsView`` documents it."""

from django.urls import path

from api.fast.answers import fast_or_full
from api.fast.move import move
from api.fast.view import view
from api.longpoll import match_events

from . import lobby, records
from . import matches as v
from .twins import documented_by

urlpatterns = [
    path("matches/", lobby.MatchListView.as_view(), name="match-list"),
    path("matches/join/", lobby.JoinByCodeView.as_view(), name="match-join-by-code"),
    path(
        "matches/<str:match_id>/",
        fast_or_full(view, v.MatchDetailView),
        name="match-detail",
    ),
    path("matches/<str:match_id>/join/", lobby.JoinView.as_view(), name="match-join"),
    path("matches/<str:match_id>/leave/", lobby.LeaveView.as_view(), name="match-leave"),
    path("matches/<str:match_id>/bots/", lobby.BotsView.as_view(), name="match-bots"),
    path("matches/<str:match_id>/start/", lobby.StartView.as_view(), name="match-start"),
    path("matches/<str:match_id>/actions/", fast_or_full(move, v.ActionView), name="match-actions"),
    path(
        "matches/<str:match_id>/events/",
        documented_by(match_events, v.EventsView),
        name="match-events",
    ),
    path("matches/<str:match_id>/replay/", records.ReplayView.as_view(), name="match-replay"),
    path(
        "matches/<str:match_id>/replay/steps/<str:n>/",
        records.ReplayStepView.as_view(),
        name="match-replay-step",
    ),
    path("matches/<str:match_id>/stats/", records.StatsView.as_view(), name="match-stats"),
    path("me/turns/", v.MyTurnsView.as_view(), name="my-turns"),
]
