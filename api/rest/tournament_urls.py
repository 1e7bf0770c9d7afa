"""Tournament routes (docs/tournaments.md), under ``tournaments/``.

The same routes also answer under ``events/``, their names before tournaments were called
tournaments (:data:`legacy_urlpatterns`), for clients written then; the OpenAPI schema
documents only ``tournaments/`` (the legacy views have no schema)."""

from django.urls import path
from rest_framework.views import APIView

from . import tournaments as v

ROUTES: list[tuple[str, type[APIView], str]] = [
    ("", v.TournamentListView, "list"),
    ("<str:tournament_id>/", v.TournamentDetailView, "detail"),
    ("<str:tournament_id>/register/", v.RegisterView, "register"),
    ("<str:tournament_id>/unregister/", v.UnregisterView, "unregister"),
    ("<str:tournament_id>/start/", v.StartView, "start"),
    ("<str:tournament_id>/next-round/", v.NextRoundView, "next-round"),
    ("<str:tournament_id>/short-format/", v.ShortFormatView, "short-format"),
    ("<str:tournament_id>/raffle/", v.RaffleView, "raffle"),
    ("<str:tournament_id>/my-match/", v.MyMatchView, "my-match"),
]


def _undocumented(view: type[APIView]) -> type[APIView]:
    """``view`` left out of the OpenAPI schema (the same view, answering the same)."""
    return type(view.__name__, (view,), {"schema": None, "__module__": view.__module__})


urlpatterns = [
    path("tournaments/" + route, view.as_view(), name=f"tournament-{what}")
    for route, view, what in ROUTES
]
legacy_urlpatterns = [
    path("events/" + route, _undocumented(view).as_view(), name=f"event-{what}")
    for route, view, what in ROUTES
]
