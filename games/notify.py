"""Tell followers that a match changed: Redis pub/sub, one channel for all matches.

Published after commit with the match id and its new version. Followers (the long-poll events
endpoint) subscribe once per process and re-read the events table, so a lost message only
delays a follower until its next timed re-check; it never loses an event.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

CHANNEL = "fibserver:match-changed"
log = logging.getLogger(__name__)
_client: Any = None


def _redis() -> Any:
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(str(settings.REDIS_URL), socket_timeout=2)
    return _client


def publish(match_id: Any, version: int) -> None:
    if not settings.REDIS_URL:
        return
    try:
        _redis().publish(CHANNEL, f"{match_id}:{version}")
    except Exception:  # followers re-check the database on their own; never fail a move
        log.warning("could not publish a change of match %s", match_id, exc_info=True)
