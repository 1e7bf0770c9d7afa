"""What the GraphQL operations share: the match id and seat arguments, and the view answered."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from games.reads import views

from .types import MatchView

MatchID = Annotated[strawberry.ID, strawberry.argument(description="The match's id (a UUID).")]
SeatArg = Annotated[
    int | None,
    strawberry.argument(
        description="Which of your seats (Skull two_tribes); by default the one that must act."
    ),
]


def view_of(match_id: Any, user: Any) -> MatchView:
    return MatchView.of(views.read_view(match_id, user)[0])
