"""Match routes. The events feed is served by the async follower view (``api.follow``); its
DRF twin ``EventsView`` answers the same requests without waiting and documents the schema.
Moves and match views are served by the plain views ``api.rest.actions.match_actions`` and
``api.rest.match_view.match_detail``, whose DRF twins ``ActionView`` and ``MatchDetailView``
document the schema and answer what the plain views hand them."""

from django.urls import path

from api.follow import match_events

from . import matches as v
from .actions import match_actions
from .match_view import match_detail

urlpatterns = [
    path("matches/", v.MatchListView.as_view(), name="match-list"),
    path("matches/join/", v.JoinByCodeView.as_view(), name="match-join-by-code"),
    path("matches/<str:match_id>/", match_detail, name="match-detail"),
    path("matches/<str:match_id>/join/", v.JoinView.as_view(), name="match-join"),
    path("matches/<str:match_id>/leave/", v.LeaveView.as_view(), name="match-leave"),
    path("matches/<str:match_id>/bots/", v.BotsView.as_view(), name="match-bots"),
    path("matches/<str:match_id>/start/", v.StartView.as_view(), name="match-start"),
    path("matches/<str:match_id>/actions/", match_actions, name="match-actions"),
    path("matches/<str:match_id>/events/", match_events, name="match-events"),
    path("matches/<str:match_id>/replay/", v.ReplayView.as_view(), name="match-replay"),
    path(
        "matches/<str:match_id>/replay/steps/<str:n>/",
        v.ReplayStepView.as_view(),
        name="match-replay-step",
    ),
    path("matches/<str:match_id>/stats/", v.StatsView.as_view(), name="match-stats"),
    path("me/turns/", v.MyTurnsView.as_view(), name="my-turns"),
]
