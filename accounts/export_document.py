"""The document of "export my data": everything the server holds about one player, as the
player may see it, in one JSON object (docs/accounts.md lists its sections).

Every section is rendered by the reader that serves it to the player over the API, so the
export shows exactly what the player can already read, and nothing more: each match through
:func:`games.reads.views.read_view` for the player's own seat and its log through
:func:`games.reads.redaction.event_for` for that seat (the one redaction path: another seat's
hidden cards never appear), the careers through :func:`games.reads.leaderboards.my_stats`,
the inbox and the settings through :mod:`notifications.reads`, the queue, blocks, follows and
challenges through :mod:`matchmaking.reads`. Secrets are not exported: sessions are listed as
``GET /api/me/sessions/`` lists them (never their tokens), webhooks say that they have a
signing secret, push subscriptions are listed without the browser's keys.

The document is bounded (:data:`MAX_BYTES`): matches are added newest first while the text
stays under the cap; the ones left out are counted in ``omitted_matches`` and ``truncated`` is
true.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q
from django.utils import timezone
from rest_framework.fields import DateTimeField

from .models import User

#: The most JSON text (UTF-8 bytes) one export holds.
MAX_BYTES = 8 * 1024 * 1024
#: What a webhook's signing secret reads as in the export.
MASKED = "********"
FORMAT = 1


def dumps(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))


def _size(value: Any) -> int:
    return len(dumps(value).encode())


def profile(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "is_guest": user.is_guest,
        "date_joined": _as_api(user.date_joined),
        "last_login": _as_api(user.last_login) if user.last_login else None,
    }


def _as_api(value: datetime) -> str:
    """A time as ``GET /api/me/`` writes it."""
    return str(DateTimeField().to_representation(value))


def sessions(user: User) -> list[dict[str, Any]]:
    """The player's sessions as ``GET /api/me/sessions/`` lists them (never a token)."""
    from .sessions import listing

    return [
        {k: v for k, v in row.items() if k != "current"} for row in listing(user=user, current=None)
    ]


def match_entries(user: User) -> Iterator[dict[str, Any]]:
    """Each match the player holds a seat in, newest first, once per seat held: the view of
    that seat and every event of the log as that seat sees it."""
    from games.models import Event, Seat
    from games.reads.redaction import event_for
    from games.reads.views import read_view

    seats = (
        Seat.objects.filter(user=user)
        .order_by("-match__created_at", "match_id", "position")
        .values_list("match_id", "position")
    )
    for match_id, position in seats.iterator():
        view, _tag = read_view(match_id, user, position)
        events = Event.objects.filter(match_id=match_id).order_by("seq")
        yield {
            "match": str(match_id),
            "seat": position,
            "view": view,
            "events": [event_for(e, position) for e in events.iterator()],
        }


def careers(user: User) -> dict[str, Any]:
    from games.reads.leaderboards import my_stats

    return my_stats(user)


def rating_history(user: User) -> list[dict[str, Any]]:
    """Every rating point (the careers' ``history`` holds only the latest ones)."""
    from games.models import RatingPoint

    rows = (
        RatingPoint.objects.filter(user=user)
        .order_by("game", "record_id")
        .values("game", "match_id", "played_at", "rating", "mu", "sigma", "place")
    )
    return [{**r, "match_id": str(r["match_id"]), "played_at": _iso(r["played_at"])} for r in rows]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def notifications(user: User) -> dict[str, Any]:
    from notifications import reads
    from notifications.models import Device, PushSubscription, Webhook

    hooks = Webhook.objects.filter(user=user).order_by("id")
    pushes = PushSubscription.objects.filter(user=user).order_by("id")
    return {
        "inbox": reads.render(list(reads.inbox(user=user))),
        "preferences": reads.render_preference(reads.preference_of(user)),
        "webhooks": [
            {
                "id": h.pk,
                "url": h.url,
                "active": h.active,
                "failures": h.failures,
                "created_at": h.created_at.isoformat(),
                "secret": MASKED,
            }
            for h in hooks
        ],
        # as GET /api/me/push-subscriptions/ lists them: the browser's keys (the auth secret
        # it decrypts with, and the public key useless without it) are not exported
        "push_subscriptions": [
            {"id": p.pk, "endpoint": p.endpoint, "created_at": p.created_at.isoformat()}
            for p in pushes
        ],
        # as GET /api/me/devices/ lists them (the token is the player's own phone's)
        "devices": [
            {
                "id": d.pk,
                "platform": d.platform,
                "token": d.token,
                "label": d.label,
                "created_at": d.created_at.isoformat(),
                "last_used_at": d.last_used_at.isoformat() if d.last_used_at else None,
            }
            for d in Device.objects.filter(user=user).order_by("id")
        ],
    }


def matchmaking(user: User) -> dict[str, Any]:
    from matchmaking import reads
    from matchmaking.models import Challenge, Challenged, Ticket

    now = timezone.now()
    tickets = Ticket.objects.filter(user=user).order_by("-created_at", "-id")
    received = Challenged.objects.filter(user=user).values("challenge_id")
    challenges = (
        Challenge.objects.filter(Q(challenger=user) | Q(pk__in=received))
        .select_related("challenger")
        .prefetch_related("invited")
        .order_by("-created_at", "-id")
    )
    return {
        "tickets": [reads.render_ticket(t, now) for t in tickets],
        "blocks": reads.blocked_players(user),
        "follows": reads.followed_players(user),
        "challenges": [reads.render_challenge(c, now) for c in challenges],
    }


def build(user: User, max_bytes: int | None = None) -> tuple[str, bool]:
    """The document's JSON text and whether matches were left out to keep it under the cap."""
    cap = MAX_BYTES if max_bytes is None else max_bytes
    doc: dict[str, Any] = {
        "format": FORMAT,
        "generated_at": timezone.now().isoformat(),
        "profile": profile(user),
        "sessions": sessions(user),
        "careers": careers(user),
        "rating_history": rating_history(user),
        "notifications": notifications(user),
        "matchmaking": matchmaking(user),
        "truncated": False,
        "omitted_matches": 0,
        "matches": [],
    }
    used = _size(doc) + 64  # room for the counts growing
    kept: list[dict[str, Any]] = []
    omitted = 0
    for entry in match_entries(user):
        size = _size(entry) + 1
        if omitted or used + size > cap:
            omitted += 1
            continue
        kept.append(entry)
        used += size
    doc.update(matches=kept, truncated=omitted > 0, omitted_matches=omitted)
    return dumps(doc), omitted > 0
