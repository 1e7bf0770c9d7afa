"""What ``tournaments`` holds about a player, for the deletion of an account (registered with
:mod:`accounts.hooks` in ``TournamentsConfig.ready``)."""

from __future__ import annotations

from accounts import hooks
from accounts.erasure import Decision, handled, keep
from accounts.models import User

ERASURE: dict[str, Decision] = {
    "tournaments.Entry.user": handled(
        "tournaments.housekeeping.player_depart: withdrawn from open tournaments, kept in started "
        "ones (their rounds and placements are the other players' results)"
    ),
    "tournaments.Tournament.host": keep(
        "a tournament the user hosted goes on under the label (tournaments.housekeeping."
        "tournaments_host_departed: its rounds advance by themselves)"
    ),
}


def depart(user: User) -> None:
    """Before the tables settle their seats (a tournament's row is locked before its
    matches'): open entries withdrawn, hosted tournaments go on without the host."""
    from .housekeeping import player_depart

    player_depart(user=user)


def register() -> None:
    hooks.register("tournaments", erasure=ERASURE, depart=depart)
