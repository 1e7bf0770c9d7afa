"""The URL conf of the fast lane's short handler (:mod:`api.fast.entry`): the two routes it
takes, served by the plain views where they serve the request themselves; what they hand over
(and any other path) goes back to the full handler."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import path, re_path
from django.views.decorators.csrf import csrf_exempt

from . import HandOver
from .entry import HandedOver
from .move import move
from .view import view


def hand_over(request: HttpRequest, **_kwargs: Any) -> HttpResponse:
    return HandedOver()


def _or_hand_over(plain: Callable[[HttpRequest, str], HttpResponse]) -> Any:
    @csrf_exempt
    def route(request: HttpRequest, match_id: str) -> HttpResponse:
        try:
            return plain(request, match_id)
        except HandOver:
            return HandedOver()

    return route


urlpatterns = [
    path("api/matches/join/", hand_over),  # a route of its own in the full URL conf
    path("api/matches/<str:match_id>/", _or_hand_over(view)),
    path("api/matches/<str:match_id>/actions/", _or_hand_over(move)),
    re_path(r"", hand_over),
]

# An unhandled exception answers in the one error shape (503 for an outage).
handler500 = "api.errors.server_error"
