from django.urls import include, path

from api import views

urlpatterns = [
    path("healthz/", views.healthz, name="healthz"),
    path("api/", include("api.rest.auth_urls")),
    path("api/", include("api.rest.match_urls")),
    path("api/", include("api.rest.stats_urls")),
    path("api/", include("api.rest.event_urls")),
]
