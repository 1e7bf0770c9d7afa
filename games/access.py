"""Who is asking, and what of a match is theirs: shared by the writers
(``games.services``) and the readers (``games.reads``), which import it and never each other's
internals."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from kernel.errors import NotFound

from .models import Match, Seat

#: A match id as clients and tasks give it: a UUID or its text.
MatchId: TypeAlias = uuid.UUID | str
#: Whoever asks: a user, or an anonymous visitor (``None`` or Django's AnonymousUser).
Caller: TypeAlias = User | AnonymousUser | None


def match_pk(match_id: MatchId) -> uuid.UUID:
    """A match id as given by a client; anything that is not one is simply not found."""
    try:
        return match_id if isinstance(match_id, uuid.UUID) else uuid.UUID(str(match_id))
    except ValueError:
        raise NotFound("No such match.") from None


def user_seats(seats: Iterable[Seat], user: Caller) -> list[Seat]:
    """The seats ``user`` holds among ``seats`` (none for a visitor)."""
    if user is None or not user.is_authenticated:
        return []
    return [s for s in seats if s.user_id == user.pk]


def is_host(match: Match, user: Caller) -> bool:
    """The player who created the match: they may see and manage it, seated or not."""
    return user is not None and user.is_authenticated and match.created_by_id == user.pk
