"""The outbox: notifications written by the change that causes them, never on their own.

These are listeners of the lower apps' signals (``games.signals``, ``matchmaking.signals``,
connected in :mod:`notifications.apps`), run inside the transaction of their cause; a step's
notifications go to the step's sink (``sink.rows``, :mod:`games.services.sink`), so on the
optimistic move path they are part of the move's one statement (no extra statement at all) and
on the locked path one bulk ``INSERT``. A
notification's ``key`` is unique per user (``ON CONFLICT DO NOTHING``): a cause retried or
replayed never writes a second one. What a row holds is public to its recipient (a match id, a
version, a seat of theirs, a deadline, placements once the match is over); anything drawn from
the game's log is read through the one redaction path when the inbox is read
(:mod:`notifications.reads`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings

from .models import Kind, Notification
from .wake import wake_users

if TYPE_CHECKING:
    from games.models import Match, Seat
    from games.services.sink import Sink
    from matchmaking.models import Challenge, Ticket

#: Part of a decision's time left when its reminder fires (``NOTIFICATIONS["REMINDER_LEFT"]``).
REMINDER_LEFT = 0.2


def reminder_left() -> float:
    return float(getattr(settings, "NOTIFICATIONS", {}).get("REMINDER_LEFT", REMINDER_LEFT))


def waiting(seats: Iterable[Seat]) -> set[int]:
    """The seats that had a decision pending before a change (give it to :func:`after_step`)."""
    return {s.position for s in seats if s.must_act}


def after_step(
    match: Match, seats: list[Seat], before: set[int], actor: int | None, sink: Sink
) -> None:
    """A change set the seats' decisions: a ``your_turn`` for every human seat with a new
    decision (not the player who just acted for themselves), and, in an ``async`` match, its
    ``deadline_reminder`` written ahead of time. One write through ``sink``."""
    rows: list[Notification] = []
    left = reminder_left()
    for seat in seats:
        if not seat.must_act or seat.user_id is None or seat.is_bot or seat.away:
            continue
        if seat.position in before and seat.position != actor:
            continue  # the same decision, still pending
        common = {
            "user_id": seat.user_id,
            "match_id": match.pk,
            "version": match.version,
            "seat": seat.position,
        }
        data = {
            "game": match.game,
            "deadline": seat.deadline.isoformat() if seat.deadline else None,
        }
        tag = f"{match.pk}:{match.version}:{seat.position}"
        if seat.position != actor or seat.last_by_bot:
            rows.append(Notification(kind=Kind.YOUR_TURN, key=f"turn:{tag}", data=data, **common))
        if seat.deadline is not None and match.time_control == "async":
            due = seat.deadline - timedelta(seconds=match.decision_seconds * left)
            rows.append(
                Notification(
                    kind=Kind.DEADLINE_REMINDER,
                    key=f"remind:{tag}",
                    data=data,
                    due_at=due,
                    **common,
                )
            )
    if rows:
        sink.rows(Notification, rows)
        users = {r.user_id for r in rows if r.due_at is None}
        if users:
            sink.on_commit(lambda: wake_users(users))


def match_started(match: Match, seats: list[Seat]) -> None:
    """``match_started`` for every person seated (once each, whatever their seats)."""
    by_user: dict[int, list[int]] = {}
    for seat in seats:
        if seat.user_id is not None and not seat.is_bot:
            by_user.setdefault(seat.user_id, []).append(seat.position)
    _insert(
        Notification(
            user_id=user,
            kind=Kind.MATCH_STARTED,
            match_id=match.pk,
            version=match.version,
            seat=positions[0],
            data={"game": match.game, "seats": positions},
            key=f"started:{match.pk}",
        )
        for user, positions in by_user.items()
    )


def match_ended(match: Match, seats: list[tuple[int, int]]) -> None:
    """``match_ended`` for every person seated, ``seats`` as ``(user id, position)``: the end
    reason, and the placements (public once a match is over; none when it was aborted)."""
    by_user: dict[int, list[int]] = {}
    for user, position in seats:
        by_user.setdefault(user, []).append(position)
    _insert(
        Notification(
            user_id=user,
            kind=Kind.MATCH_ENDED,
            match_id=match.pk,
            version=match.version,
            seat=positions[0],
            data={
                "game": match.game,
                "seats": positions,
                "status": match.status,
                "reason": match.end_reason,
                "placements": match.placements,
            },
            key=f"ended:{match.pk}",
        )
        for user, positions in by_user.items()
    )


def takeover(match: Match, seat: Seat) -> None:
    """``takeover``: a bot took the decision of ``seat`` (at the match's current version) for
    its player; what it did is read, redacted for that seat, from the log when the inbox is."""
    if seat.user_id is None or seat.is_bot:
        return
    _insert(
        [
            Notification(
                user_id=seat.user_id,
                kind=Kind.TAKEOVER,
                match_id=match.pk,
                version=match.version,
                seat=seat.position,
                data={"game": match.game},
                key=f"takeover:{match.pk}:{match.version}:{seat.position}",
            )
        ]
    )


def challenged(challenge: Challenge, players: list[int]) -> None:
    """``challenged``: each player named in a challenge (its id, so a tap opens it)."""
    _insert(
        Notification(
            user_id=player,
            kind=Kind.CHALLENGED,
            data={"game": challenge.game, "challenge": challenge.pk},
            key=f"challenge:{challenge.pk}",
        )
        for player in players
    )


def rematch_offered(match: Match, offer: int, players: list[int]) -> None:
    """``rematch_offered``: the other humans of a finished match, when one offers a rematch
    (the match is the finished one: its rematch is answered at ``/rematch/``)."""
    _insert(
        Notification(
            user_id=player,
            kind=Kind.REMATCH_OFFERED,
            match_id=match.pk,
            version=match.version,
            data={"game": match.game},
            key=f"rematch:{offer}",
        )
        for player in players
    )


def round_notice() -> timedelta:
    """How long before a tournament's announced start its entrants are told
    (``NOTIFICATIONS["ROUND_NOTICE_SECONDS"]``)."""
    seconds = getattr(settings, "NOTIFICATIONS", {}).get("ROUND_NOTICE_SECONDS", 600)
    return timedelta(seconds=float(seconds))


def round_starting(tournament: Any, players: list[int], now: datetime) -> None:
    """``round_starting``, written ahead of time for each of ``players`` registered for a
    tournament whose start is announced (``starts_at`` in the future): due ``round_notice()``
    before it (at once when that is already past). The reminder sweep fires it if the
    tournament still starts then and the player is still registered (else deletes it). One per
    player and announced time (its key)."""
    starts_at = tournament.starts_at
    if starts_at is None or starts_at <= now:
        return
    due = max(starts_at - round_notice(), now)
    _insert(
        (
            Notification(
                user_id=player,
                kind=Kind.ROUND_STARTING,
                data={
                    "game": tournament.game,
                    "tournament": str(tournament.pk),
                    "starts_at": starts_at.isoformat(),
                },
                due_at=due,
                key=f"round:{tournament.pk}:{starts_at.isoformat()}",
            )
            for player in players
        ),
        wake=False,
    )


def looking_delay() -> timedelta:
    """How long a ticket waits before its player's followers are told
    (``NOTIFICATIONS["LOOKING_DELAY_SECONDS"]``)."""
    seconds = getattr(settings, "NOTIFICATIONS", {}).get("LOOKING_DELAY_SECONDS", 10)
    return timedelta(seconds=float(seconds))


def looking_window() -> timedelta:
    """At most one ``followed_looking`` per follower and player in this long
    (``NOTIFICATIONS["LOOKING_WINDOW_SECONDS"]``)."""
    seconds = getattr(settings, "NOTIFICATIONS", {}).get("LOOKING_WINDOW_SECONDS", 1800)
    return timedelta(seconds=float(seconds))


def looking_prefix(player: int) -> str:
    """The start of the keys of the ``followed_looking`` notices about ``player``."""
    return f"looking:{player}:"


def looking_ticket(key: str) -> int | None:
    """The ticket a ``followed_looking`` notice was written for (from its key)."""
    _, _, ticket = key.rpartition(":")
    return int(ticket) if ticket.isdigit() else None


def followed_looking(ticket: Ticket, followers: list[int], now: datetime) -> None:
    """``followed_looking`` for each of ``followers`` (the sender leaves out anyone blocked
    either way), written with the ticket, ahead of time: due ``looking_delay()`` later, when
    the reminder sweep fires it if the ticket is still waiting and the follow still stands
    (else deletes it), so a ticket cancelled or matched within seconds tells nobody. A follower
    told about this player within ``looking_window()`` is not written to. It names the player
    and the game, nothing else (not the seats, time control, rating or ticket)."""
    player, game = ticket.user_id, ticket.game
    audience = set(followers)
    if not audience:
        return
    told = set(
        Notification.objects.filter(
            user_id__in=audience,
            kind=Kind.FOLLOWED_LOOKING,
            key__startswith=looking_prefix(player),
            due_at__isnull=True,
            created_at__gte=now - looking_window(),
        ).values_list("user_id", flat=True)
    )
    due = now + looking_delay()
    _insert(
        (
            Notification(
                user_id=follower,
                kind=Kind.FOLLOWED_LOOKING,
                data={"game": game, "player": player},
                due_at=due,
                key=f"{looking_prefix(player)}{ticket.pk}",
            )
            for follower in sorted(audience - told)
        ),
        wake=False,
    )


def _insert(rows: Iterable[Notification], *, wake: bool = True) -> None:
    from django.db import transaction

    rows = list(rows)
    if not rows:
        return
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    if wake:  # a notification written ahead of time wakes no one until the sweep fires it
        users = {r.user_id for r in rows}
        transaction.on_commit(lambda: wake_users(users))
