"""What happens in matchmaking, announced for the apps above it (:mod:`kernel.signals`);
``notifications`` listens. Sent inside the transaction of the cause."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from kernel.signals import Signal

if TYPE_CHECKING:
    from games.models import Match

    from .models import Challenge, Ticket

#: A challenge was issued to the players named (user ids; the challenger not among them).
challenged: Signal[[Challenge, list[int]]] = Signal("challenged")

#: A rematch of a finished match was offered (the offer's id) to its other human players.
rematch_offered: Signal[[Match, int, list[int]]] = Signal("rematch_offered")

#: A player is looking for a game (a new ticket), with the followers that may know (nobody
#: blocked either way), at ``now``.
looking: Signal[[Ticket, list[int], datetime]] = Signal("looking")
