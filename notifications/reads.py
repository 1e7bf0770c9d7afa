"""Reading the inbox: a user's notifications as they may see them.

A row holds only what its recipient may see (:mod:`notifications.outbox`); what a ``takeover``
shows of the decision a bot took is read from the match's log at render time through the one
redaction path (:func:`games.reads.redaction.event_for`, as the recipient's seat sees it).
Reminders written ahead of time stay out of the inbox until the reminder sweep fires them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import User
from games.models import Event
from games.reads.redaction import event_for
from kernel.shapes import Field, Shape

from .models import Kind, Notification, Preference

#: A follower's page of new notifications holds at most this many.
FOLLOW_PAGE = 100


def inbox(*, user: User, unread: bool = False) -> QuerySet[Notification]:
    """The user's notifications, newest first (``unread``: only those not read)."""
    qs = Notification.objects.filter(user=user, due_at__isnull=True)
    if unread:
        qs = qs.filter(read_at__isnull=True)
    return qs.order_by("-id")


def unread_count(*, user: User) -> int:
    return inbox(user=user, unread=True).count()


def newer(*, user: User, after: int) -> list[dict[str, Any]]:
    """The user's notifications after id ``after``, oldest first (a follower's page)."""
    rows = list(
        Notification.objects.filter(user=user, due_at__isnull=True, id__gt=after).order_by("id")[
            :FOLLOW_PAGE
        ]
    )
    return render(rows)


#: A notification as its recipient sees it (``render``); the OpenAPI component
#: ``NotificationOut`` and the GraphQL type ``Notification`` are derived from this declaration.
NOTIFICATION = Shape(
    "NotificationOut",
    "Notification",
    "A notification: what it is about, as you may see it (a `takeover` has the events of the "
    "decision a bot took for your seat, as your seat sees them).",
    (
        Field(
            "id",
            "int",
            "The notification's id: later notifications have greater ids.",
            lo=1,
            graphql_about="",
        ),
        Field("kind", "NotificationKind"),
        Field("match", "uuid", nullable=True, graphql_name="match_id"),
        Field(
            "version",
            "int",
            "The match's version it was written at: open that.",
            nullable=True,
            lo=0,
            graphql_about="The match's version it was written at: open that state (or a later "
            "one).",
        ),
        Field("seat", "Seat", nullable=True),
        Field("game", "Game", nullable=True),
        Field("deadline", "datetime", nullable=True),
        Field("seats", "Seat", many=True),
        Field("status", "MatchStatus", nullable=True),
        Field(
            "reason", "str", "How the match ended (`match_ended`).", nullable=True, graphql_about=""
        ),
        Field("placements", "int", nullable=True, lo=1, many=True),
        Field("url", "str", "The webhook (`webhook_disabled`).", nullable=True, graphql_about=""),
        Field(
            "challenge",
            "int",
            "The challenge to answer (`challenged`).",
            nullable=True,
            lo=1,
            graphql_name="challenge_id",
        ),
        Field(
            "tournament",
            "uuid",
            "The tournament whose first round is about to start (`round_starting`).",
            nullable=True,
            graphql_name="tournament_id",
        ),
        Field(
            "starts_at",
            "datetime",
            nullable=True,
            graphql_about="When that round is announced to start (`round_starting`).",
        ),
        Field(
            "player",
            "Player",
            "The player you follow who is looking for a game (`followed_looking`; `game` is "
            "the game).",
            nullable=True,
        ),
        Field("events", "Event", many=True),
        Field("created_at", "datetime"),
        Field("read_at", "datetime", nullable=True),
    ),
    graphql_about="A notification, as you may see it (REST `NotificationOut`): a `takeover` has "
    "the events of the decision a bot took for your seat, as your seat sees them.",
)


def render(rows: list[Notification]) -> list[dict[str, Any]]:
    """The rows as their recipient sees them; the takeovers' steps in one query.

    A row renders the same whatever it is rendered with (the inbox reads one user's rows, the
    channels a batch of many users'): only a ``takeover`` has events, never another kind written
    at the same step (a ``your_turn`` after the bot's decision)."""
    steps: dict[tuple[Any, int], list[Event]] = {}
    taken = [r for r in rows if r.kind == Kind.TAKEOVER and r.match_id and r.version]
    if taken:
        which = Q()
        for r in taken:
            which |= Q(match_id=r.match_id, version=r.version)
        for event in Event.objects.filter(which).order_by("seq"):
            steps.setdefault((event.match_id, event.version), []).append(event)
    names = _names({r.data.get("player") for r in rows if r.kind == Kind.FOLLOWED_LOOKING})
    return [
        _render(
            r, steps.get((r.match_id, r.version or 0), []) if r.kind == Kind.TAKEOVER else [], names
        )
        for r in rows
    ]


def _names(ids: set[Any]) -> dict[int, str]:
    """The public names of the players ``ids`` (read now: a deleted account shows its label)."""
    wanted = {i for i in ids if isinstance(i, int)}
    if not wanted:
        return {}
    return {
        u.pk: u.public_name
        for u in User.objects.filter(pk__in=wanted).only("username", "display_name")
    }


def _render(row: Notification, events: list[Event], names: dict[int, str]) -> dict[str, Any]:
    data = row.data or {}
    player = data.get("player") if row.kind == Kind.FOLLOWED_LOOKING else None
    return {
        "id": row.id,
        "kind": row.kind,
        "match": str(row.match_id) if row.match_id else None,
        "version": row.version,
        "seat": row.seat,
        "game": data.get("game"),
        "deadline": data.get("deadline"),
        "seats": data.get("seats", [row.seat] if row.seat is not None else []),
        "status": data.get("status"),
        "reason": data.get("reason"),
        "placements": data.get("placements"),
        "url": data.get("url"),
        "challenge": data.get("challenge"),
        "tournament": data.get("tournament"),
        "starts_at": data.get("starts_at"),
        "player": {"id": player, "name": names[player]} if player in names else None,
        "events": [event_for(e, row.seat) for e in events],
        "created_at": row.created_at.isoformat(),
        "read_at": row.read_at.isoformat() if row.read_at else None,
    }


def preference_of(user: User) -> Preference:
    """The user's preferences (the defaults, not stored, when they never set any)."""
    found = Preference.objects.filter(user=user).first()
    return found if found is not None else Preference(user=user)


def render_preference(pref: Preference) -> dict[str, Any]:
    from .prefs import CHANNELS, KINDS

    return {
        "channels": {
            channel: {kind: kind not in pref.muted.get(channel, []) for kind in KINDS}
            for channel in CHANNELS
        },
        "time_zone": pref.time_zone,
        "quiet_start": pref.quiet_start.strftime("%H:%M") if pref.quiet_start else None,
        "quiet_end": pref.quiet_end.strftime("%H:%M") if pref.quiet_end else None,
        "reminders": pref.reminders,
        "digest": pref.digest,
    }


def follow_page(*, user: User, after: int) -> dict[str, Any]:
    """A follower's page: the notifications after id ``after`` (at most ``FOLLOW_PAGE``)."""
    items = newer(user=user, after=after)
    return {
        "notifications": items,
        "last_id": items[-1]["id"] if items else after,
        "more": len(items) == FOLLOW_PAGE,
        "unread": unread_count(user=user),
    }
