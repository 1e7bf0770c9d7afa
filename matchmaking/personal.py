"""What ``matchmaking`` holds about a player, for the deletion and the export of an account
(registered with :mod:`accounts.hooks` in ``MatchmakingConfig.ready``): the queue, blocks,
follows and challenges as :mod:`matchmaking.reads` renders them."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone

from accounts import hooks
from accounts.erasure import Decision, delete, handled, keep
from accounts.models import User

from . import reads
from .models import Challenge, Challenged, Ticket

ERASURE: dict[str, Decision] = {
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


def depart(user: User) -> None:
    """First of all (the highest app with a departure): a table a matcher pass is forming
    gets its seat settled before the tables settle theirs."""
    from .services import player_depart

    player_depart(user=user)


def section(user: User) -> dict[str, Any]:
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


def register() -> None:
    hooks.register("matchmaking", erasure=ERASURE, depart=depart, export={"matchmaking": section})
