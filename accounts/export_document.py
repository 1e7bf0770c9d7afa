"""The document of "export my data": everything the server holds about one player, as the
player may see it, in one JSON object (docs/accounts.md lists its sections).

Every section is rendered by the reader that serves it to the player over the API, so the
export shows exactly what the player can already read, and nothing more. The profile and the
sessions are the accounts' own; every other section is registered by the app that holds it
(:mod:`accounts.hooks`: the matches, careers and rating history by ``games.personal``, the
inbox and settings by ``notifications.personal``, the queue, blocks, follows and challenges by
``matchmaking.personal``), and this module imports none of those apps. Secrets are not
exported: sessions are listed as ``GET /api/me/sessions/`` lists them (never their tokens),
webhooks say that they have a signing secret (:data:`MASKED`), push subscriptions are listed
without the browser's keys.

The document is bounded (:data:`MAX_BYTES`): the one bounded section (the matches) is added
newest first while the text stays under the cap; the entries left out are counted in
``omitted_matches`` and ``truncated`` is true.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from rest_framework.fields import DateTimeField

from . import hooks
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


def build(user: User, max_bytes: int | None = None) -> tuple[str, bool]:
    """The document's JSON text and whether entries of the bounded section (the matches) were
    left out to keep it under the cap."""
    cap = MAX_BYTES if max_bytes is None else max_bytes
    doc: dict[str, Any] = {
        "format": FORMAT,
        "generated_at": timezone.now().isoformat(),
        "profile": profile(user),
        "sessions": sessions(user),
    }
    for name, reader in hooks.export_sections().items():
        doc[name] = reader(user)
    bounded = hooks.bounded_section()
    if bounded is None:
        doc["truncated"] = False
        return dumps(doc), False
    name, entries = bounded
    doc.update({"truncated": False, f"omitted_{name}": 0, name: []})
    used = _size(doc) + 64  # room for the counts growing
    kept: list[Any] = []
    omitted = 0
    for entry in entries(user):
        size = _size(entry) + 1
        if omitted or used + size > cap:
            omitted += 1
            continue
        kept.append(entry)
        used += size
    doc.update({name: kept, "truncated": omitted > 0, f"omitted_{name}": omitted})
    return dumps(doc), omitted > 0
