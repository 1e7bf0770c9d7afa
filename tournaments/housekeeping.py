"""What happens to tournaments without a request of their host: the sweep starts those whose
announced time has come (``tournaments.tasks.start_due``), and a departing player's entries
and hosted tournaments are settled (:func:`player_depart`, registered in
:mod:`tournaments.personal`). Locks as in :mod:`tournaments.services`: a tournament's row first.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Count
from django.db.models.functions import Now
from django.utils import timezone

from accounts.models import User
from kernel.errors import AppError

from .models import Entry, Tournament
from .services import _advance, _begin, _current_round, _locked, _touch

log = logging.getLogger(__name__)


def tournaments_start_due(*, limit: int = 20) -> int:
    """Start every open tournament whose announced ``starts_at`` has come, as the host would (the
    sweep calls this every ``SWEEP_SECONDS``). A tournament with fewer than 2 entrants at its time
    stays open: it starts at the first sweep after a second player registers, or when the host
    starts it. Returns the tournaments started."""
    due = list(
        Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=Now())
        .annotate(entrants=Count("entries"))
        .filter(entrants__gte=2)
        .order_by("starts_at")
        .values_list("pk", flat=True)[:limit]
    )
    started = 0
    for pk in due:
        try:
            with transaction.atomic():
                tournament = _locked(pk)
                if tournament.status == Tournament.Status.OPEN:  # the host may have been first
                    _begin(tournament)
                    started += 1
        except AppError:  # keep the sweep going; the next sweep tries this tournament again
            log.exception("tournament %s could not start at its announced time", pk)
    return started


def tournaments_host_departed(*, user: User) -> int:
    """The host ``user`` is leaving (account deleted): every tournament they host that has not
    finished goes on without them — rounds advance by themselves from now on, an open one
    without an announced time starts at the next sweep once two players are registered, and a
    round that ended waiting for the host is followed by the next at once. The caller holds a
    transaction. Returns the tournaments changed."""
    changed = 0
    hosted = Tournament.objects.filter(
        host=user, status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING]
    ).order_by("pk")
    for pk in list(hosted.values_list("pk", flat=True)):
        tournament = _locked(pk)
        if tournament.status == Tournament.Status.FINISHED:
            continue
        tournament.auto_advance = True
        if tournament.status == Tournament.Status.OPEN and tournament.starts_at is None:
            tournament.starts_at = timezone.now()
        if tournament.status == Tournament.Status.RUNNING and not tournament.single_round:
            current = _current_round(tournament)
            if current is not None and current.over and not current.final:
                try:
                    with transaction.atomic():
                        _advance(tournament)
                except AppError as error:
                    log.warning(
                        "tournament %s: the next round did not start: %s",
                        tournament.pk,
                        error.message,
                    )
        _touch(tournament)
        tournament.save()
        changed += 1
    return changed


@transaction.atomic
def player_depart(*, user: User) -> dict[str, int]:
    """An account is being deleted (inside its transaction): its entries of open tournaments
    are withdrawn (started ones keep them: their rounds are the others' results), and the
    tournaments it hosts go on without it. Returns ``withdrawn`` and ``hosted``."""
    withdrawn = 0
    entries = Entry.objects.filter(user=user, tournament__status=Tournament.Status.OPEN)
    for entry in entries.select_related("tournament"):
        tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
        if tournament.status == Tournament.Status.OPEN:
            entry.delete()
            tournament.version += 1
            tournament.save(update_fields=["version"])
            withdrawn += 1
    return {"withdrawn": withdrawn, "hosted": tournaments_host_departed(user=user)}
