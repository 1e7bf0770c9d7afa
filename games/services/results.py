"""The end-of-match work, applied exactly once per finished match: careers now (ratings join
them in the ratings work). Queued by the finisher; re-queued by the sweep if it was lost."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ..models import Career, Match, Seat
from .common import MatchId, match_pk


@transaction.atomic
def match_record_results(*, match_id: MatchId) -> bool:
    """Each player's career in the game (their best place and their own statistics, summed
    over their seats). Returns whether it ran; a second call for the same match does nothing."""
    match = Match.objects.select_for_update().filter(pk=match_pk(match_id)).first()
    if match is None or match.status != Match.Status.FINISHED or match.results_recorded:
        return False
    stats = match.stats or []
    per_user: dict[Any, dict[str, Any]] = {}
    for seat in Seat.objects.filter(match=match, user__isnull=False).order_by("position"):
        entry = per_user.setdefault(seat.user_id, {"place": seat.place, "stats": {}})
        entry["place"] = min(entry["place"], seat.place)
        for key, value in stats[seat.position].items():
            entry["stats"][key] = entry["stats"].get(key, 0) + value
    for user_id, entry in per_user.items():
        career, _ = Career.objects.select_for_update().get_or_create(
            user_id=user_id, game=match.game
        )
        career.matches += 1
        career.wins += entry["place"] == 1
        career.place_sum += entry["place"]
        for key, value in entry["stats"].items():
            career.stats[key] = career.stats.get(key, 0) + value
        career.save()
    match.results_recorded = True
    match.save(update_fields=["results_recorded"])
    return True
