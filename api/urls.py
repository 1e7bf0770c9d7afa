from django.urls import include, path

from api.rest.tournament_urls import legacy_urlpatterns

urlpatterns = [
    path("api/", include("api.rest.auth_urls")),
    path("api/", include("api.rest.match_urls")),
    path("api/", include("api.rest.stats_urls")),
    path("api/", include("api.rest.tournament_urls")),
    path("api/", include("api.rest.notification_urls")),
    path("api/", include("api.rest.queue_urls")),
    path("api/", include("api.rest.vacation_urls")),
    path("api/", include(legacy_urlpatterns)),  # the tournaments' earlier name, not documented
]
