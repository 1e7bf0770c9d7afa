"""Wake a user's inbox followers after commit: the followers' one Redis channel
(:mod:`games.notify`), with a user's key (``user-<id>``) in place of a match id. A lost message
only delays a follower until its next re-check of the inbox."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings

log = logging.getLogger(__name__)


def user_key(user_id: int) -> str:
    return f"user-{user_id}"


def wake_users(users: Iterable[int]) -> None:
    if not settings.REDIS_URL:
        return
    from games.notify import CHANNEL, _redis

    try:
        pipe = _redis().pipeline(transaction=False)
        for user in users:
            pipe.publish(CHANNEL, f"{user_key(user)}:0")
        pipe.execute()
    except Exception:  # followers re-check the inbox on their own; never fail a change
        log.warning("could not wake the inbox followers", exc_info=True)
