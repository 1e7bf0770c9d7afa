"""What deleting an account does to every row that points at the user: one decision per
foreign key (or one-to-one, or many-to-many table) to the user model.

Each app registers the decisions for its own tables (:mod:`accounts.hooks`; the accounts' own
are :data:`ACCOUNTS`); a model that adds a reference to the user adds one line to its app's
registration, and ``tests/accounts/test_erasure_registry.py`` finds every such reference in the
installed apps and fails while one has no decision. The deletion service
(:mod:`accounts.deletion`) applies ``DELETE`` and ``SET_NULL`` itself, app by app; ``HANDLED``
names the app's service that does the work (its departure, run first, while the rows are still
there); ``KEEP`` leaves the rows pointing at the anonymous tombstone the user row becomes, which
shows only the label "Deleted player xxxx".
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


#: ``"app_label.ModelName.field"`` -> what deleting the user does to those rows: the accounts'
#: own references (registered in ``AccountsConfig.ready``); the other apps register theirs
#: (:mod:`accounts.hooks`).
ACCOUNTS: dict[str, Decision] = {
    "accounts.Session.user": delete("every session signed out: its token stops working"),
    "accounts.User_groups.user": delete("group memberships"),
    "accounts.User_user_permissions.user": delete("permissions"),
    "accounts.AccountDeletion.staff": keep("the audit record: who ran a deletion, no data"),
    "accounts.DataExport.user": delete("the user's data exports (their documents)"),
}

#: Django's admin cannot register: the accounts app decides for its log.
ADMIN: dict[str, Decision] = {
    "admin.LogEntry.user": keep("the staff's own admin history (a staff member's actions)"),
}
