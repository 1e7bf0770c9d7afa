"""What happens to a tournament, announced for the apps above (:mod:`kernel.signals`);
``notifications`` listens. Sent inside the transaction of the cause."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from kernel.signals import Signal

if TYPE_CHECKING:
    from .models import Tournament

#: Players registered for a tournament before it started (its announced start may be ahead).
tournament_entered: Signal[[Tournament, list[int], datetime]] = Signal("tournament_entered")
