"""The names tournaments had before they were called tournaments ("events") or before they
were an app of their own, kept for clients and messages of that time; nothing in the server
sends or links them any more. docs/tournaments.md ("Old names") says when they go.

- task names: ``games.tasks.event_round_ended`` and ``games.tasks.tournament_round_ended``
  (messages a server queued before it was upgraded; both run ``tournaments.tasks.round_ended``'s
  work).

The other old names live with the face that serves them, since a lower app may not import
the faces: the ``/api/events/…`` routes (``api.rest.tournament_urls.legacy_urlpatterns``), the
deprecated GraphQL fields (``event``, ``events``, ``createEvent`` …, each marked deprecated in
the SDL), and the ``event`` match option, which the Fibber's Dice rules still read from old
records (``games.engine.fibbers_dice.rules.LEGACY_TOURNAMENT_KEY``).
"""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(acks_late=True, ignore_result=True, name="games.tasks.tournament_round_ended")
def tournament_round_ended(match_id: str) -> bool:
    """``tournaments.tasks.round_ended`` under its name while ``games`` ran it."""
    return services.tournament_round_ended(match_id=match_id)


@shared_task(acks_late=True, ignore_result=True, name="games.tasks.event_round_ended")
def event_round_ended(match_id: str) -> bool:
    """The same task under its name before tournaments were called tournaments."""
    return services.tournament_round_ended(match_id=match_id)
