"""The operational endpoints (:mod:`.views`), at the root of the site."""

from django.urls import path

from . import views

urlpatterns = [
    path("livez/", views.livez, name="livez"),
    path("readyz/", views.readyz, name="readyz"),
    path("healthz/", views.readyz, name="healthz"),  # the older name of readiness
    path("metrics", views.metrics, name="metrics"),  # Prometheus' default path
    path("metrics/", views.metrics),
]
