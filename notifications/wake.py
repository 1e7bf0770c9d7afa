"""Wake a user's inbox followers after commit: the followers' one Redis channel
(:mod:`kernel.wake`), with a user's key (``user-<id>``) in place of a match id. A lost message
only delays a follower until its next re-check of the inbox."""

from __future__ import annotations

from collections.abc import Iterable


def user_key(user_id: int) -> str:
    return f"user-{user_id}"


def wake_users(users: Iterable[int]) -> None:
    """Queue a wake-up per user on the match-changed publisher (off the change's critical
    path, in the same pipelined round trip as the match's own message)."""
    from kernel.wake import publish

    for user in users:
        publish(user_key(user), 0)
