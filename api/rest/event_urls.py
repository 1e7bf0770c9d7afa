"""Event routes (docs/events.md)."""

from django.urls import path

from . import events as v

urlpatterns = [
    path("events/", v.EventListView.as_view(), name="event-list"),
    path("events/<str:event_id>/", v.EventDetailView.as_view(), name="event-detail"),
    path("events/<str:event_id>/register/", v.RegisterView.as_view(), name="event-register"),
    path("events/<str:event_id>/unregister/", v.UnregisterView.as_view(), name="event-unregister"),
    path("events/<str:event_id>/start/", v.StartView.as_view(), name="event-start"),
    path("events/<str:event_id>/next-round/", v.NextRoundView.as_view(), name="event-next-round"),
    path(
        "events/<str:event_id>/short-format/",
        v.ShortFormatView.as_view(),
        name="event-short-format",
    ),
    path("events/<str:event_id>/raffle/", v.RaffleView.as_view(), name="event-raffle"),
    path("events/<str:event_id>/my-match/", v.MyMatchView.as_view(), name="event-my-match"),
]
