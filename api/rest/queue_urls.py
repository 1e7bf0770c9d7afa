"""Quick-play queue, block, follow, challenge and rematch routes (docs/matchmaking.md)."""

from django.urls import path

from . import queue as v

urlpatterns = [
    path("queue/", v.QueueView.as_view(), name="queue"),
    path("queue/<str:ticket_id>/", v.TicketView.as_view(), name="queue-ticket"),
    path("blocks/", v.BlockListView.as_view(), name="blocks"),
    path("blocks/<str:player_id>/", v.BlockView.as_view(), name="block"),
    path("follows/", v.FollowListView.as_view(), name="follows"),
    path("follows/<str:player_id>/", v.FollowView.as_view(), name="follow"),
    path("challenges/", v.ChallengeListView.as_view(), name="challenges"),
    path("challenges/<str:challenge_id>/", v.ChallengeView.as_view(), name="challenge"),
    path(
        "challenges/<str:challenge_id>/accept/",
        v.ChallengeAcceptView.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<str:challenge_id>/decline/",
        v.ChallengeDeclineView.as_view(),
        name="challenge-decline",
    ),
    path("matches/<str:match_id>/rematch/", v.RematchView.as_view(), name="match-rematch"),
]
