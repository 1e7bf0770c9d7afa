"""The route of a player's vacation, included under ``/api/``."""

from django.urls import path

from . import vacation as v

urlpatterns = [path("me/vacation/", v.VacationView.as_view(), name="vacation")]
