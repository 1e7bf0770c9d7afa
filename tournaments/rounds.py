"""The tournaments' listener of ``games``: a round's match ended, so its tournament moves on
after the commit (``tournaments.tasks.round_ended``: the result, then the next round or the
prizes). ``games`` knows a round's match only by its ``tournament`` option."""

from __future__ import annotations

from django.db import transaction

from games.models import Match
from kernel import tasks


def match_ended(match: Match, seats: list[tuple[int, int]]) -> None:
    if not match.options.get("tournament"):
        return
    match_id = str(match.pk)
    transaction.on_commit(lambda: tasks.send("tournaments.tasks.round_ended", (match_id,)))
