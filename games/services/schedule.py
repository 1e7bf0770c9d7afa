"""Follow-up work the services queue on commit: the next bot turn, a deadline's timer, the
end-of-match work.

Tasks are addressed by name (``games.tasks.…``) through :mod:`kernel.tasks`, so this module —
and with it every service — never imports ``games.tasks``; only tasks import services. Where the
work runs depends on ``FIBSERVER["TASKS"]`` (celery, embedded or inline: :mod:`kernel.tasks`);
deadlines need no timer without Celery, the sweep enforces them, and inline bot turns are
taken in a loop here rather than by recursion.
"""

from __future__ import annotations

import threading
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from kernel import tasks

from .common import MatchId

TASK_PREFIX = "games.tasks."
_inline = threading.local()


def bots(match_id: MatchId, version: int) -> None:
    """The next bot decision of a match at ``version``, after the bot pause."""
    if tasks.mode() == "inline":
        _drain_bots(match_id)
        return
    delay = settings.FIBSERVER["BOT_DELAY_SECONDS"]
    tasks.send(TASK_PREFIX + "run_bot_turn", (str(match_id), version), delay=delay)


def _drain_bots(match_id: MatchId) -> None:
    """Inline: take every bot decision now, one transaction each, in a loop rather than by
    recursion (each decision's commit asks for the next one)."""
    if getattr(_inline, "draining", False):
        return  # the loop below is already running and will pick this decision up
    from ..models import Match

    _inline.draining = True
    try:
        run = tasks.task(TASK_PREFIX + "run_bot_turn")
        while True:
            current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
            if current is None or not run(str(match_id), current):
                break
    finally:
        _inline.draining = False


def timer_needed(at: datetime, armed: datetime | None, now: datetime) -> bool:
    """Whether a deadline at ``at`` needs a timer of its own, the match's last timer firing at
    ``armed``: only with Celery (without it the sweep is the timer), only when ``at`` is near
    enough for a broker to hold it (long ``async`` deadlines are left to the sweep), and only
    when no timer is still to fire at or before ``at``.

    One timer per match is enough: deadlines only move later while a match is played (each is
    the time of a decision plus the seconds per decision), and a timer that finds the match
    moved on sends the next one for the deadline it finds (``services.deadline_expire``). So a
    live match sends a timer about once per deadline period rather than once per move; a timer
    that is lost is the sweep's, as before."""
    if tasks.mode() != "celery":
        return False
    if (at - now).total_seconds() > settings.FIBSERVER["DEADLINE_TIMER_HORIZON_SECONDS"]:
        return False
    return armed is None or armed <= now or armed > at


def deadline(match_id: MatchId, version: int, at: datetime) -> None:
    """The precise timer of a deadline (sent when :func:`timer_needed` said so)."""
    if tasks.mode() != "celery":
        return
    horizon = settings.FIBSERVER["DEADLINE_TIMER_HORIZON_SECONDS"]
    if (at - timezone.now()).total_seconds() > horizon:
        return
    tasks.send_at(TASK_PREFIX + "enforce_deadline", (str(match_id), version), at)


def results(match_id: MatchId) -> None:
    """The end-of-match work of a finished match."""
    tasks.send(TASK_PREFIX + "record_results", (str(match_id),))
