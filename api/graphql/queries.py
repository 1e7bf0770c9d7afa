"""GraphQL queries: the readers (``games.reads``: views, lists, feeds, replays, leaderboards,
tournaments) through the same checks as REST (:mod:`.inputs`)."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Annotated

import strawberry
from django.conf import settings
from django.db.models import Q, QuerySet
from strawberry.types import Info

from api.play.queries import whole_number
from games.access import match_pk
from games.models import Match
from games.reads import feeds, leaderboards, lists, replays, views
from kernel.errors import Invalid, NotAuthenticated

from . import inputs
from . import queue_types as qt
from . import tournament_types as ev
from .args import MatchID, SeatArg
from .context import caller, require_user
from .record_types import MatchStats, Replay, ReplayStep
from .stats_types import Board, Leaderboard, Player, PlayerGameStats
from .types import (
    EventsPage,
    Game,
    MatchConnection,
    MatchEdge,
    MatchStatus,
    MatchSummary,
    MatchView,
    PageInfo,
    Turn,
    User,
)

# --- Queries ---------------------------------------------------------------------------------


@strawberry.input(description="Which matches: the open public lobby (default) or your own.")
class MatchFilter:
    mine: bool = strawberry.field(
        default=False, description="Your matches (seated or hosted), any status."
    )
    game: Game | None = None
    status: MatchStatus | None = strawberry.field(
        default=None, description="With `mine`: only matches in this status."
    )


def _cursor(match: Match) -> str:
    return base64.urlsafe_b64encode(f"{match.created_at.isoformat()}|{match.pk}".encode()).decode()


def _after(qs: QuerySet[Match], cursor: str) -> QuerySet[Match]:
    """The matches listed after ``cursor`` (newest first: older, or as old with a lower id)."""
    try:
        when, pk = base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
        created = datetime.fromisoformat(when)
        match_pk(pk)
    except Exception:  # not base64, not text, no separator, not a date or not a UUID
        raise Invalid("'after' is not a cursor this server gave.", field="after") from None
    return qs.filter(Q(created_at__lt=created) | Q(created_at=created, pk__lt=pk))


def _tournament(info: Info, id: strawberry.ID) -> ev.TournamentType | None:
    return ev.detail(id, caller(info))


def _tournaments(
    info: Info, status: ev.TournamentStatus | None = None, first: int = 50
) -> list[ev.TournamentType]:
    if not 1 <= first <= 200:
        raise Invalid("'first' must be a whole number between 1 and 200.", field="first")
    return ev.listed(status, first)


def _my_tournament_match(info: Info, id: strawberry.ID) -> ev.TournamentMyMatch | None:
    return ev.my_match(id, require_user(info))


@strawberry.type
class Query:
    @strawberry.field(description="The calling user (REST `GET /api/me/`).")
    def me(self, info: Info) -> User | None:
        return User.of(require_user(info))

    @strawberry.field(
        description="The caller's redacted view of a match: the public part, the caller's "
        "private part, legal actions, version and deadlines (REST `GET /api/matches/{id}/`). "
        "Non-players get the spectator view; a private match is not found by outsiders."
    )
    def match(
        self,
        info: Info,
        id: MatchID,
        seat: SeatArg = None,
    ) -> MatchView | None:
        return MatchView.of(views.read_view(id, caller(info), whole_number("seat", seat))[0])

    @strawberry.field(
        description="Open public matches in the lobby (or your own with `filter: {mine: "
        "true}`), newest first, a page of `first` after the cursor `after`."
    )
    def matches(
        self,
        info: Info,
        filter: MatchFilter | None = None,
        first: int = 50,
        after: str | None = None,
    ) -> MatchConnection | None:
        wanted = filter or MatchFilter()
        most = int(settings.GRAPHQL["MAX_PAGE"])
        if not 1 <= first <= most:
            raise Invalid(f"'first' must be a whole number between 1 and {most}.", field="first")
        game = wanted.game.value if wanted.game else None
        status = wanted.status.value if wanted.status else None
        if wanted.mine:
            user = caller(info)
            if user is None:
                raise NotAuthenticated("Log in to list your matches.")
            qs = lists.matches_of(user=user, status=status)
            if game:
                qs = qs.filter(game=game)
        else:  # as REST: the open list holds lobby matches only, so another status finds none
            qs = lists.open_matches(game=game)
            if status is not None:
                qs = qs.filter(status=status)
        qs = qs.prefetch_related("seats__user").order_by("-created_at", "-pk")
        if after is not None:
            qs = _after(qs, after)
        page = list(qs[: first + 1])
        edges = [
            MatchEdge(
                cursor=_cursor(m),
                node=MatchSummary.of(lists.render_summary(m), lists.render_seats(m)),
            )
            for m in page[:first]
        ]
        return MatchConnection(
            edges=edges,
            page_info=PageInfo(
                has_next_page=len(page) > first,
                end_cursor=edges[-1].cursor if edges else None,
            ),
        )

    @strawberry.field(
        description="The matches where you must act, soonest deadline first (REST "
        "`GET /api/me/turns/`)."
    )
    def my_turns(self, info: Info) -> list[Turn] | None:
        return [Turn.of(t) for t in lists.read_turns(user=require_user(info))]

    @strawberry.field(
        description="Your redacted events after the sequence number `after` (REST "
        "`GET /api/matches/{id}/events/`, without waiting: subscribe to `matchEvents` to wait)."
    )
    def events(
        self,
        info: Info,
        match_id: MatchID,
        after: int = 0,
        seat: SeatArg = None,
    ) -> EventsPage | None:
        page = feeds.read_feed(
            match_id,
            caller(info),
            whole_number("after", after) or 0,
            whole_number("seat", seat),
        )
        return EventsPage.of(page)

    tournament: ev.TournamentType | None = strawberry.field(
        resolver=_tournament,
        description="A Fibber's Dice tournament (REST `GET /api/tournaments/{id}/`).",
    )
    tournaments: list[ev.TournamentType] = strawberry.field(
        resolver=_tournaments,
        description="Public tournaments, open and running by default (REST "
        "`GET /api/tournaments/`): summary fields only (the detail fields are null).",
    )
    my_tournament_match: ev.TournamentMyMatch | None = strawberry.field(
        resolver=_my_tournament_match,
        description="Your match in a tournament now (REST `…/my-match/`).",
    )
    # The tournaments' earlier names, kept for clients written then.
    dice_event: ev.TournamentType | None = strawberry.field(
        resolver=_tournament, deprecation_reason="Use `tournament`."
    )
    dice_events: list[ev.TournamentType] = strawberry.field(
        resolver=_tournaments, deprecation_reason="Use `tournaments`."
    )
    my_event_match: ev.TournamentMyMatch | None = strawberry.field(
        resolver=_my_tournament_match, deprecation_reason="Use `myTournamentMatch`."
    )
    my_tickets: list[qt.Ticket] = strawberry.field(
        resolver=qt.my_tickets,
        description="Your tickets in the quick-play queue (REST `GET /api/queue/`).",
    )
    ticket: qt.Ticket | None = strawberry.field(
        resolver=qt.ticket,
        description="One of your tickets (REST `GET /api/queue/{id}/`); anyone else's is not "
        "found.",
    )
    blocked_players: list[int] = strawberry.field(
        resolver=qt.blocked_players, description="The ids of the players you block."
    )
    followed_players: list[qt.Followed] = strawberry.field(
        resolver=qt.followed_players,
        description="The players you follow (REST `GET /api/follows/`).",
    )
    my_challenges: list[qt.Challenge] = strawberry.field(
        resolver=qt.my_challenges,
        description="Challenges you made or received (REST `GET /api/challenges/`).",
    )
    challenge: qt.Challenge | None = strawberry.field(
        resolver=qt.challenge,
        description="A challenge you made or received (REST `GET /api/challenges/{id}/`); any "
        "other is not found.",
    )
    rematch: qt.Rematch = strawberry.field(
        resolver=qt.rematch,
        description="The rematch of a finished match you played (REST `…/rematch/`).",
    )

    @strawberry.field(description="The complete record once the match has finished.")
    def replay(self, info: Info, match_id: MatchID) -> Replay | None:
        match = views.read_match(match_id, caller(info))
        return Replay.of(replays.read_replay(match))

    @strawberry.field(
        description="A finished match after step `n` of its record (0: the set-up), re-run by "
        "the engine from the revealed seed (REST `GET /api/matches/{id}/replay/steps/{n}/`)."
    )
    def replay_step(
        self,
        info: Info,
        match_id: MatchID,
        n: Annotated[
            int, strawberry.argument(description="The step: 0 (the set-up) to the last step.")
        ],
    ) -> ReplayStep | None:
        match = views.read_match(match_id, caller(info))
        return ReplayStep.of(replays.read_replay_step(match, replays.step_number(n)))

    @strawberry.field(description="Bluff statistics of a finished match (hidden until the end).")
    def match_stats(self, info: Info, match_id: MatchID) -> MatchStats | None:
        match = views.read_match(match_id, caller(info))
        return MatchStats.of(replays.read_stats(match))

    @strawberry.field(
        description="A page of a game's leaderboard, best first (REST "
        "`GET /api/leaderboards/{game}/`): `first` entries after the cursor `after`, or with "
        "`aroundMe: true` the page centred on the caller (who then appears in `me`)."
    )
    def leaderboard(
        self,
        info: Info,
        game: Game,
        board: Board = Board.RATING,
        first: int = leaderboards.PAGE_DEFAULT,
        after: str | None = None,
        around_me: bool = False,
        active_days: int | None = None,
    ) -> Leaderboard | None:
        query = inputs.leaderboard(board.value, first, after, active_days)
        user = caller(info) if around_me else None
        if around_me and user is None:
            raise NotAuthenticated("Log in to find yourself on a board (aroundMe).")
        return Leaderboard.of(
            leaderboards.leaderboard(
                game=game.value,
                board=query["board"],
                limit=query["limit"],
                offset=query["offset"],
                around=user.pk if user is not None else None,
                active_days=query.get("active_days"),
            )
        )

    @strawberry.field(
        description="A player's public profile (REST `GET /api/players/{id}/`); "
        "`stats(game)` for one game's statistics."
    )
    def player(self, info: Info, id: strawberry.ID) -> Player | None:
        return Player.of(leaderboards.player_profile(id))

    @strawberry.field(
        description="Your statistics in every game you have played, or in `game` (REST "
        "`GET /api/me/stats/`)."
    )
    def my_stats(self, info: Info, game: Game | None = None) -> list[PlayerGameStats] | None:
        body = leaderboards.my_stats(require_user(info), game=game.value if game else None)
        return [PlayerGameStats.of(g) for g in body["games"]]
