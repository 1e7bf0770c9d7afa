"""The URL conf the OpenAPI schema is generated from: the public API, with the DRF twins of
the async events view (``EventsView``) and of the plain move and match views (``ActionView``,
``MatchDetailView``) standing in for them so the feed, the moves and the views are documented
too."""

from django.urls import include, path

from . import matches as v
from . import notification_urls

urlpatterns = [
    path("api/", include("api.rest.auth_urls")),
    path("api/matches/<str:match_id>/events/", v.EventsView.as_view(), name="match-events"),
    path("api/matches/<str:match_id>/actions/", v.ActionView.as_view(), name="match-actions"),
    path("api/matches/<str:match_id>/", v.MatchDetailView.as_view(), name="match-detail"),
    path("api/", include("api.rest.match_urls")),
    path("api/", include("api.rest.stats_urls")),
    path("api/", include("api.rest.tournament_urls")),
    path("api/", include(notification_urls.documented)),
    path("api/", include("api.rest.queue_urls")),
]
