"""Named sessions: every sign-in (a guest created, a login, a registration) opens a session of
its own, with the device's label, when it was made and last used, and the client's address.

A session's token is shown once, to the client that signed in; the database keeps only its
SHA-256, so neither a copy of the database nor the admin can sign anyone in. The shared cache
(:mod:`api.authentication`) keeps a looked-up token's user and session for
``TOKEN_CACHE_SECONDS``, under keys made from that same digest, so a revocation, which knows
only the digest, drops the entry at once.

``last_used`` (and the address it was used from) is refreshed when the cache looks the token up
again and the stored time is more than :data:`LAST_USED_EVERY` seconds old: at most one write per
session in that time, never one per request.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import uuid
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from kernel.errors import NotFound

from .models import Session, User

#: How stale ``last_used`` may be before a lookup refreshes it (seconds).
LAST_USED_EVERY = 300
LABEL_MAX = 100
#: The label of a session whose client gave none and sent no ``User-Agent``.
UNNAMED = "Unnamed device"


def digest_of(key: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(key.encode()).hexdigest()


def label_of(request: HttpRequest | None, given: str | None = None) -> str:
    """The session's name: the ``device`` the client gave, else its ``User-Agent`` (cut to
    :data:`LABEL_MAX`), else :data:`UNNAMED`."""
    text = (given or "").strip()
    if not text and request is not None:
        text = str(request.META.get("HTTP_USER_AGENT", "")).strip()
    text = "".join(c for c in text if c.isprintable())
    return text[:LABEL_MAX] or UNNAMED


def address_of(request: Any) -> str | None:
    """The client's address as the throttles see it (``REST_FRAMEWORK["NUM_PROXIES"]`` trusted
    proxies), ``None`` when it is not an IP address."""
    from rest_framework.throttling import BaseThrottle

    if request is None:
        return None
    try:
        return str(ipaddress.ip_address(str(BaseThrottle().get_ident(request) or "").strip()))
    except (ValueError, AttributeError, TypeError):  # no address, or not one
        return None


@transaction.atomic
def session_open(*, user: User, label: str = UNNAMED, address: str | None = None) -> str:
    """A new session of ``user``; its token (shown this once)."""
    key = secrets.token_hex(20)
    now = timezone.now()
    Session.objects.create(
        user=user,
        digest=digest_of(key),
        label=label[:LABEL_MAX] or UNNAMED,
        created=now,
        last_used=now,
        client_address=address,
    )
    return key


def session_of(key: str) -> Session | None:
    """The session of a token, with its user; ``None`` when there is none."""
    return Session.objects.select_related("user").filter(digest=digest_of(key)).first()


def touch(session: Session, address: str | None = None) -> None:
    """Record that ``session`` was used now (from ``address``), if what is stored is more than
    :data:`LAST_USED_EVERY` seconds old or from another address. One conditional UPDATE."""
    now = timezone.now()
    moved = address is not None and address != session.client_address
    if not moved and now - session.last_used < timedelta(seconds=LAST_USED_EVERY):
        return
    fields: dict[str, Any] = {"last_used": now}
    if address is not None:
        fields["client_address"] = address
    Session.objects.filter(pk=session.pk).update(**fields)
    session.last_used = now
    if address is not None:
        session.client_address = address


def listing(*, user: User, current: Session | None) -> list[dict[str, Any]]:
    """The user's sessions, the most recently used first."""
    return [
        {
            "id": str(s.pk),
            "label": s.label,
            "created": s.created.isoformat(),
            "last_used": s.last_used.isoformat(),
            "client_address": s.client_address,
            "current": current is not None and s.pk == current.pk,
        }
        for s in Session.objects.filter(user=user).order_by("-last_used", "-created")
    ]


def _session_id(value: uuid.UUID | str) -> uuid.UUID:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        raise NotFound("No such session.") from None


@transaction.atomic
def session_revoke(*, user: User, session_id: uuid.UUID | str) -> None:
    """Sign one of the user's sessions out (the calling one too: that is a logout)."""
    deleted, _ = Session.objects.filter(user=user, pk=_session_id(session_id)).delete()
    if not deleted:
        raise NotFound("No such session.")


@transaction.atomic
def sessions_revoke(*, user: User, keep: Session | None = None) -> int:
    """Sign out every session of the user but ``keep``; how many were."""
    rows = Session.objects.filter(user=user)
    if keep is not None:
        rows = rows.exclude(pk=keep.pk)
    return rows.delete()[1].get(Session._meta.label, 0)
