"""What of a tournament a caller may see, and tournament ids as clients give them; shared by
the writer (:mod:`tournaments.services`) and the reader (:mod:`tournaments.reads`)."""

from __future__ import annotations

import uuid
from typing import TypeAlias

from games.access import Caller
from games.models import Match
from kernel.errors import NotFound

from .models import Tournament

#: A tournament id as clients and tasks give it.
TournamentId: TypeAlias = uuid.UUID | str


def tournament_pk(tournament_id: TournamentId) -> uuid.UUID:
    try:
        return (
            tournament_id if isinstance(tournament_id, uuid.UUID) else uuid.UUID(str(tournament_id))
        )
    except ValueError:
        raise NotFound("No such tournament.") from None


def may_see(tournament: Tournament, user: Caller) -> bool:
    """A public tournament is seen by everyone; a private one by its host and its entrants."""
    if tournament.visibility == Match.Visibility.PUBLIC:
        return True
    if user is None or not user.is_authenticated:
        return False
    return tournament.host_id == user.pk or tournament.entries.filter(user=user).exists()
