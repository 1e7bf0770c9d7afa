"""The URL conf of ``fibserver.door.ShortHandler``: the two hot routes, served by the plain
views of the full URL conf (``match_urls``) where they serve the request themselves, and
handed over to the full handler (``fibserver.door.HandOver``) for everything else."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import path, re_path
from django.views.decorators.csrf import csrf_exempt

from fibserver.door import HandOver

from .actions import lean_move
from .match_view import lean_match_view


def hand_over(request: HttpRequest, **_kwargs: Any) -> HttpResponse:
    return HandOver()


@csrf_exempt
def move(request: HttpRequest, match_id: str) -> HttpResponse:
    return lean_move(request, match_id) or HandOver()


def match_view(request: HttpRequest, match_id: str) -> HttpResponse:
    return lean_match_view(request, match_id) or HandOver()


urlpatterns = [
    path("api/matches/join/", hand_over),  # a route of its own in the full URL conf
    path("api/matches/<str:match_id>/", match_view),
    path("api/matches/<str:match_id>/actions/", move),
    re_path(r"", hand_over),
]
