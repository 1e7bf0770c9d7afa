"""Tournament routes (docs/tournaments.md), under ``tournaments/``.

The same routes also answer under ``events/``, their names before tournaments were called
tournaments (:data:`legacy_urlpatterns`), for clients written then; the OpenAPI schema
documents only ``tournaments/``."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from . import tournaments as v

ROUTES: list[tuple[str, Callable[..., Any], str]] = [
    ("", v.TournamentListView.as_view(), "list"),
    ("<str:tournament_id>/", v.TournamentDetailView.as_view(), "detail"),
    ("<str:tournament_id>/register/", v.RegisterView.as_view(), "register"),
    ("<str:tournament_id>/unregister/", v.UnregisterView.as_view(), "unregister"),
    ("<str:tournament_id>/start/", v.StartView.as_view(), "start"),
    ("<str:tournament_id>/next-round/", v.NextRoundView.as_view(), "next-round"),
    ("<str:tournament_id>/short-format/", v.ShortFormatView.as_view(), "short-format"),
    ("<str:tournament_id>/raffle/", v.RaffleView.as_view(), "raffle"),
    ("<str:tournament_id>/my-match/", v.MyMatchView.as_view(), "my-match"),
]


def _routes(prefix: str, name: str) -> list[URLPattern]:
    return [path(prefix + route, view, name=f"{name}-{what}") for route, view, what in ROUTES]


urlpatterns = _routes("tournaments/", "tournament")
legacy_urlpatterns = _routes("events/", "event")
