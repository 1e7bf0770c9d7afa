"""The URL conf the OpenAPI schema is generated from: the public API, with the DRF twin of
the async events view (``EventsView``) standing in for it so the feed is documented too."""

from django.urls import include, path

from . import matches as v

urlpatterns = [
    path("api/", include("api.rest.auth_urls")),
    path("api/matches/<str:match_id>/events/", v.EventsView.as_view(), name="match-events"),
    path("api/", include("api.rest.match_urls")),
    path("api/", include("api.rest.stats_urls")),
    path("api/", include("api.rest.event_urls")),
]
