"""The production URLs plus the benchmark's floor (``bench/perf_floor.py``), for
``bench.perf_settings`` only: no deployment routes to the floor."""

from django.urls import include, path

from bench import perf_floor

urlpatterns = [
    path("bench/floor/<uuid:match_id>/move/", perf_floor.FloorMove.as_view()),
    path("bench/floor/<uuid:match_id>/", perf_floor.FloorView.as_view()),
    path("", include("fibserver.urls")),
]
