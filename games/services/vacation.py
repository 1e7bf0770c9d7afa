"""Vacation: a player pauses their clocks in ``async`` matches for a number of days.

While a vacation runs, each of the player's async seats carries ``vacation_until`` (the planned
end). The seat's pending deadline is pushed on by the whole vacation when it starts, and a
decision that comes to the seat meanwhile gets its full time from the end of the vacation
(:func:`games.services.step.after_change`), so nothing the sweep or a timer looks at falls due
while the player is away, and the takeover never fires for them. Ended early, every such
deadline is pulled back by the part not taken: each deadline then stands exactly as if the
clock had stopped for the time spent on vacation. Live and solo matches are never paused.

At most ``VACATION_DAYS_PER_YEAR`` days (setting ``NOTIFICATIONS``) may be taken in a calendar
year (UTC, counted by the year a vacation starts): a vacation counts its planned days, or, if
ended early, the days begun.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from accounts.models import User
from kernel.errors import Conflict, Invalid, NotFound

from ..models import Match, Seat, Vacation
from ..reads.vacation import DAY, current, days_per_year, days_used
from .common import bump, db_now, locked, seats_of
from .schedule import deadline as send_timer
from .schedule import timer_needed


def _async_matches(user: User) -> list[object]:
    return list(
        Match.objects.filter(
            seats__user=user,
            status=Match.Status.ACTIVE,
            time_control=Match.TimeControl.ASYNC,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )


@transaction.atomic
def vacation_start(*, user: User, days: int) -> Vacation:
    """Start a vacation now for ``days`` days: every deadline of the player's async seats waits.
    A vacation already running, or more days than are left this year: nothing changes."""
    User.objects.select_for_update(no_key=True).filter(
        pk=user.pk
    ).first()  # one change of a user at once
    now = db_now()
    if current(user, now) is not None:
        raise Conflict("You are on vacation already; end it first.")
    left = days_per_year() - days_used(user, now)
    if type(days) is not int or days < 1:
        reason = "Must be at least 1."
        raise Invalid(f"The request is not valid: 'days': {reason}", fields={"days": [reason]})
    # More days than the yearly allowance (a setting, which the schema cannot know) or than
    # are left of it: a well-formed request that this account cannot be granted now.
    if days > left:
        raise Conflict(
            f"Only {max(left, 0)} vacation days are left this year.", days_left=max(left, 0)
        )
    vacation = Vacation.objects.create(
        user=user, started_at=now, ends_at=now + days * DAY, days=days
    )
    for pk in _async_matches(user):
        _pause(pk, user, vacation.ends_at, push=vacation.ends_at - now)
    return vacation


@transaction.atomic
def vacation_end(*, user: User) -> Vacation:
    """End the running vacation now: the deadlines it pushed are pulled back by the part not
    taken. No vacation running: 404."""
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    now = db_now()
    vacation = current(user, now)
    if vacation is None:
        raise NotFound("You are not on vacation.")
    vacation.ended_at = now
    vacation.save(update_fields=["ended_at"])
    for pk in _async_matches(user):
        _pause(pk, user, None, push=now - vacation.ends_at)
    return vacation


def on_start(match: Match, seats: list[Seat]) -> None:
    """A match starting: its async seats whose players are on vacation carry its end (the
    caller saves the seats with the first step)."""
    if match.time_control != Match.TimeControl.ASYNC:
        return
    users = [s.user_id for s in seats if s.user_id is not None]
    if not users:
        return
    now = db_now()
    running = dict(
        Vacation.objects.filter(user__in=users, ended_at__isnull=True, ends_at__gt=now)
        .order_by("started_at")
        .values_list("user_id", "ends_at")
    )
    for seat in seats:
        if seat.user_id in running:
            seat.vacation_until = running[seat.user_id]
            seat.away = False
            seat.save(update_fields=["vacation_until", "away"])


def _pause(match_id: object, user: User, until: datetime | None, *, push: timedelta) -> None:
    """The player's seats of one async match: ``vacation_until`` set (or cleared), their
    pending deadlines moved by ``push``, a bot no longer playing for them; the match's earliest
    deadline (and its timer, if it is now earlier) follow."""
    match = locked(match_id)  # type: ignore[arg-type]
    if match.status != Match.Status.ACTIVE:
        return
    seats = seats_of(match)
    full = timedelta(seconds=match.decision_seconds)
    for seat in seats:
        if seat.user_id != user.pk:
            continue
        seat.vacation_until = until
        if seat.deadline is not None:
            seat.deadline = seat.deadline + push
            if until is not None:  # a decision that came after the start: its full time
                seat.deadline = min(seat.deadline, until + full)
        if until is not None:
            seat.away = False
        seat.save(update_fields=["vacation_until", "deadline", "away"])
    deadlines = [s.deadline for s in seats if s.must_act and s.deadline is not None]
    match.deadline = min(deadlines) if deadlines else None
    bump(match)
    fields = ["deadline", "version", "updated_at"]
    now = db_now()
    at = match.deadline
    if at is not None and timer_needed(at, match.timer_at, now):
        match.timer_at = at
        fields.append("timer_at")
        pk, version = match.pk, match.version
        transaction.on_commit(lambda: send_timer(pk, version, at))
    match.save(update_fields=fields)
    pk, version = match.pk, match.version
    transaction.on_commit(lambda: _publish(pk, version))


def _publish(match_id: object, version: int) -> None:
    from kernel.wake import publish

    publish(match_id, version)


def on_vacation(seat: Seat, now: datetime) -> bool:
    """Whether the seat's player is on vacation at ``now`` (async seats only carry it)."""
    return seat.vacation_until is not None and seat.vacation_until > now
