"""The only code that changes a match (docs/architecture.md), one module per step of its life:

- :mod:`.lobby`        create, join (by id or invite code), leave, add bots, start;
- :mod:`.actions`      a player's move, exactly once (expected version, idempotency key);
- :mod:`.optimistic`   the same move in one read and one conditional write (PostgreSQL);
- :mod:`.step`         the one commit step every move shares: state, version, events,
                       deadlines, what comes next;
- :mod:`.eventlog`     the append-only event log (and the followers' wake-up);
- :mod:`.sink`         where a step's writes go: the ORM, or one statement (:mod:`.optimistic`);
- :mod:`.clock`        bot turns, takeovers after a deadline, the sweep;
- :mod:`.finisher`     every end of a match;
- :mod:`.results`      the end-of-match work, exactly once per match: careers, ratings,
                       rating history and leaderboards (their rules in :mod:`.tally`);
- :mod:`.rebuild`      the same aggregates rebuilt from the whole match history;
- :mod:`.departure`    a deleted player's seats and entries settled (lobby seats freed,
                       active seats to the takeover bot: :mod:`accounts.deletion`);
- :mod:`.schedule`     follow-up work queued on commit (tasks are sent by name: services never
                       import ``games.tasks``);
- :mod:`.housekeeping` clean-up of expired records;
- :mod:`.common`       the database clock, the row lock and seat helpers.

Every writer locks the match row (or, :mod:`.optimistic`, writes only if the version it read
is still the match's), checks what it expects (status, version, seat), applies
through the engine, appends events, bumps the version, sets deadlines and queues follow-up work
on commit. Errors are :class:`kernel.errors.AppError`.
"""

from .actions import action_submit
from .clock import bot_act, deadline_expire, deadlines_sweep
from .common import db_now
from .finisher import match_abort, match_finish
from .housekeeping import idempotency_purge
from .lobby import (
    match_add_bots,
    match_create,
    match_join,
    match_join_by_code,
    match_leave,
    match_start,
)
from .optimistic import action_submit_optimistic
from .rebuild import stats_rebuild
from .results import match_record_results

__all__ = [
    "action_submit",
    "action_submit_optimistic",
    "bot_act",
    "db_now",
    "deadline_expire",
    "deadlines_sweep",
    "idempotency_purge",
    "match_abort",
    "match_add_bots",
    "match_create",
    "match_finish",
    "match_join",
    "match_join_by_code",
    "match_leave",
    "match_record_results",
    "match_start",
    "stats_rebuild",
]
