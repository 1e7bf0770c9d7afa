"""What deleting an account does to every row that points at the user: one decision per
foreign key (or one-to-one, or many-to-many table) to the user model, in one place.

A model that adds a reference to the user adds one line to :data:`ERASURE`;
``tests/accounts/test_erasure_registry.py`` finds every such reference in the installed apps
and fails while one has no decision. The deletion service (:mod:`accounts.deletion`) applies
``DELETE`` and ``SET_NULL`` itself, in the order of this mapping; ``HANDLED`` names the service
that does the work (it runs first, while the rows are still there); ``KEEP`` leaves the rows
pointing at the anonymous tombstone the user row becomes, which shows only the label
"Deleted player xxxx".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Policy(Enum):
    DELETE = "delete"  # the rows are deleted
    SET_NULL = "set_null"  # the reference is cleared (the field is nullable)
    KEEP = "keep"  # the rows stay, pointing at the anonymous tombstone
    HANDLED = "handled"  # a service decides row by row (named in ``why``)


@dataclass(frozen=True)
class Decision:
    policy: Policy
    why: str


def delete(why: str) -> Decision:
    return Decision(Policy.DELETE, why)


def set_null(why: str) -> Decision:
    return Decision(Policy.SET_NULL, why)


def keep(why: str) -> Decision:
    return Decision(Policy.KEEP, why)


def handled(why: str) -> Decision:
    return Decision(Policy.HANDLED, why)


#: ``"app_label.ModelName.field"`` -> what deleting the user does to those rows.
ERASURE: dict[str, Decision] = {
    # accounts, auth, admin
    "accounts.Session.user": delete("every session signed out: its token stops working"),
    "accounts.User_groups.user": delete("group memberships"),
    "accounts.User_user_permissions.user": delete("permissions"),
    "admin.LogEntry.user": keep("the staff's own admin history (a staff member's actions)"),
    "accounts.AccountDeletion.staff": keep("the audit record: who ran a deletion, no data"),
    "accounts.DataExport.user": delete("the user's data exports (their documents)"),
    # matches
    "games.Seat.user": handled(
        "games.services.departure: lobby seats freed, active seats played by the takeover "
        "bot, finished seats kept under the anonymous label (the others' records)"
    ),
    "games.Match.created_by": keep("the host of finished matches (lobbies are left first)"),
    "games.IdempotencyRecord.user": delete("stored answers of the user's own moves"),
    "games.Vacation.user": delete(
        "the user's vacations (games.services.departure ends one: the takeover bot plays on)"
    ),
    # careers, ratings, leaderboards
    "games.Career.user": delete("the user's statistics: they leave every leaderboard"),
    "games.RatingPoint.user": delete("the user's rating history (others' are not recomputed)"),
    # tournaments
    "games.Entry.user": handled(
        "games.services.departure: withdrawn from open tournaments, kept in started ones "
        "(their rounds and placements are the other players' results)"
    ),
    "games.Tournament.host": keep("a tournament the user hosted goes on under the label"),
    # notifications
    "notifications.Notification.user": delete("the user's inbox (and its delivery records)"),
    "notifications.Preference.user": delete("the user's notification settings"),
    "notifications.Webhook.user": delete("the user's webhooks (and their delivery records)"),
    "notifications.PushSubscription.user": delete("the user's browsers' push subscriptions"),
    "notifications.Device.user": delete("the user's phones' push tokens"),
    # matchmaking
    "matchmaking.Ticket.user": handled(
        "matchmaking.services.player_depart: the user's tickets leave the queue"
    ),
    "matchmaking.Block.blocker": delete("the user's blocks"),
    "matchmaking.Block.blocked": delete("others' blocks of the user: nobody can meet them now"),
    "matchmaking.Follow.follower": delete("whom the user followed"),
    "matchmaking.Follow.followed": delete("others' follows of the user"),
    "matchmaking.Challenge.challenger": handled(
        "matchmaking.services.player_depart: open challenges declined; past ones kept under "
        "the label (the others' history)"
    ),
    "matchmaking.Challenged.user": handled(
        "matchmaking.services.player_depart: open challenges naming the user declined; past "
        "answers kept under the label"
    ),
    "matchmaking.Challenge.declined_by": keep("who declined a past challenge: the label"),
    "matchmaking.Rematch.declined_by": keep("who declined a past rematch offer: the label"),
}
