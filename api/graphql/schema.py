"""The GraphQL schema: thin resolvers over ``games.selectors`` (readers) and ``games.services`` /
``accounts.services`` (writers), as REST's views are. Arguments are checked by REST's own
validators (:mod:`.inputs`), throttled in REST's scopes (:func:`.context.throttle`), and errors
carry REST's codes (:mod:`.errors`). The committed SDL is ``api/graphql/schema.graphql``
(``manage.py graphql_schema`` writes it; a test fails when it drifts from this code).
"""

from __future__ import annotations

import base64
from collections.abc import AsyncGenerator, Callable
from datetime import datetime
from typing import Annotated, Any

import strawberry
from django.conf import settings
from django.db.models import Q, QuerySet
from graphql import GraphQLError
from strawberry.scalars import JSON
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext, Info

from accounts import services as accounts
from fibserver.errors import Invalid, NotAuthenticated
from games import leaderboards, selectors, services
from games.models import Match

from . import event_types as ev
from . import inputs
from .context import caller, context_of, require_user, throttle
from .errors import ErrorCodes, is_expected
from .limits import extensions as limit_extensions
from .stats_types import Board, Leaderboard, Player, PlayerGameStats
from .subscriptions import first_page, follow
from .types import (
    AuthPayload,
    EventsPage,
    Game,
    MatchConnection,
    MatchEdge,
    MatchEvent,
    MatchStats,
    MatchStatus,
    MatchSummary,
    MatchView,
    PageInfo,
    Replay,
    ReplayStep,
    TimeControl,
    Turn,
    User,
    Visibility,
)

MatchID = Annotated[strawberry.ID, strawberry.argument(description="The match's id (a UUID).")]
SeatArg = Annotated[
    int | None,
    strawberry.argument(
        description="Which of your seats (Skull two_tribes); by default the one that must act."
    ),
]


def _view(match_id: Any, user: Any) -> MatchView:
    return MatchView.of(selectors.match_read(match_id, user))


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
        selectors.match_pk(pk)
    except Exception:  # not base64, not text, no separator, not a date or not a UUID
        raise Invalid("'after' is not a cursor this server gave.", field="after") from None
    return qs.filter(Q(created_at__lt=created) | Q(created_at=created, pk__lt=pk))


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
        return MatchView.of(
            selectors.match_read(id, caller(info), inputs.whole_number("seat", seat))
        )

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
            qs = selectors.my_matches(user=user, status=status)
            if game:
                qs = qs.filter(game=game)
        else:  # as REST: the open list holds lobby matches only, so another status finds none
            qs = selectors.open_matches(game=game)
            if status is not None:
                qs = qs.filter(status=status)
        qs = qs.prefetch_related("seats__user").order_by("-created_at", "-pk")
        if after is not None:
            qs = _after(qs, after)
        page = list(qs[: first + 1])
        edges = [
            MatchEdge(
                cursor=_cursor(m),
                node=MatchSummary.of(selectors.match_summary(m), selectors.seat_entries(m)),
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
        return [Turn.of(t) for t in selectors.my_turns(user=require_user(info))]

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
        page = selectors.events_page(
            match_id,
            caller(info),
            inputs.whole_number("after", after) or 0,
            inputs.whole_number("seat", seat),
        )
        return EventsPage.of(page)

    @strawberry.field(description="A Fibber's Dice event (REST `GET /api/events/{id}/`).")
    def dice_event(self, info: Info, id: strawberry.ID) -> ev.DiceEvent | None:
        return ev.detail(id, caller(info))

    @strawberry.field(
        description="Public events, open and running by default (REST `GET /api/events/`): "
        "summary fields only (the detail fields are null)."
    )
    def dice_events(
        self, info: Info, status: ev.EventStatus | None = None, first: int = 50
    ) -> list[ev.DiceEvent]:
        if not 1 <= first <= 200:
            raise Invalid("'first' must be a whole number between 1 and 200.", field="first")
        return ev.listed(status, first)

    @strawberry.field(description="Your match in an event now (REST `…/my-match/`).")
    def my_event_match(self, info: Info, id: strawberry.ID) -> ev.EventMyMatch | None:
        return ev.my_match(id, require_user(info))

    @strawberry.field(description="The complete record once the match has finished.")
    def replay(self, info: Info, match_id: MatchID) -> Replay | None:
        match = selectors.match_get(match_id, user=caller(info))
        return Replay.of(selectors.match_replay(match))

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
        match = selectors.match_get(match_id, user=caller(info))
        return ReplayStep.of(selectors.match_replay_step(match, selectors.replay_step_number(n)))

    @strawberry.field(description="Bluff statistics of a finished match (hidden until the end).")
    def match_stats(self, info: Info, match_id: MatchID) -> MatchStats | None:
        match = selectors.match_get(match_id, user=caller(info))
        return MatchStats.of(selectors.match_stats(match))

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


# --- Mutations -------------------------------------------------------------------------------


def _signed_in(user: Any, token: str) -> AuthPayload:
    return AuthPayload(token=token, user=User.of(user))


@strawberry.input(description="A new match (REST `POST /api/matches/`).")
class CreateMatchInput:
    game: Game
    seats: int
    options: JSON | None = strawberry.field(
        default=None, description="The game's options, as in REST (docs/rules.md)."
    )
    visibility: Visibility | None = None
    time_control: TimeControl | None = None
    decision_seconds: int | None = None
    bots: list[str] | None = strawberry.field(
        default=None, description="A bot level per bot seat: random, basic, strong or expert."
    )
    join: bool | None = strawberry.field(
        default=None, description="false: you host a bot exhibition without a seat."
    )


def _event_command(
    info: Info, id: strawberry.ID, command: Callable[..., object]
) -> ev.DiceEvent | None:
    """Run one of an event's commands as the caller, then answer with the event as they see it."""
    user = require_user(info)
    command(event_id=id, user=user)
    return ev.detail(id, user)


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Create a guest account: a token, no password.")
    def guest(self, info: Info, display_name: str | None = None) -> AuthPayload | None:
        throttle(info, "guest")
        data = inputs.guest(inputs.given(display_name=display_name))
        return _signed_in(*accounts.guest_create(display_name=data.get("display_name")))

    @strawberry.mutation(description="Register a full account.")
    def register(
        self, info: Info, username: str, password: str, display_name: str | None = None
    ) -> AuthPayload | None:
        throttle(info, "register")
        data = inputs.register(
            inputs.given(username=username, password=password, display_name=display_name)
        )
        user = accounts.user_register(**data)
        return _signed_in(user, accounts.token_issue(user=user))

    @strawberry.mutation(description="Log in: the user's token (the same on every device).")
    def login(self, info: Info, username: str, password: str) -> AuthPayload | None:
        throttle(info, "login")
        data = inputs.login(inputs.given(username=username, password=password))
        return _signed_in(*accounts.user_login(**data, request=context_of(info).request))

    @strawberry.mutation(
        description="Upgrade the calling guest to a full account, keeping its id and history."
    )
    def upgrade(
        self, info: Info, username: str, password: str, display_name: str | None = None
    ) -> AuthPayload | None:
        user = require_user(info)
        throttle(info, "register", user)
        data = inputs.upgrade(
            inputs.given(username=username, password=password, display_name=display_name)
        )
        user = accounts.guest_upgrade(user=user, **data)
        return _signed_in(user, accounts.token_issue(user=user))

    @strawberry.mutation(description="Revoke the token, signing out every device that uses it.")
    def logout(self, info: Info) -> bool | None:
        accounts.token_revoke(user=require_user(info))
        return True

    @strawberry.mutation(description="Create a match; it starts at once when every seat is full.")
    def create_match(self, info: Info, input: CreateMatchInput) -> MatchView | None:
        user = require_user(info)
        data = inputs.match_create(
            inputs.given(
                game=input.game.value,
                seats=input.seats,
                options=input.options,
                visibility=input.visibility.value if input.visibility else None,
                time_control=input.time_control.value if input.time_control else None,
                decision_seconds=input.decision_seconds,
                bots=input.bots,
                join=input.join,
            )
        )
        match = services.match_create(user=user, **data)
        return _view(match.pk, user)

    @strawberry.mutation(
        description="Take a free seat: by `matchId` (a private one needs its `inviteCode` too), "
        "or by `inviteCode` alone."
    )
    def join_match(
        self, info: Info, match_id: strawberry.ID | None = None, invite_code: str | None = None
    ) -> MatchView | None:
        user = require_user(info)
        if match_id is not None:
            data = inputs.join(inputs.given(invite_code=invite_code))
            match = services.match_join(
                match_id=match_id, user=user, invite_code=data.get("invite_code")
            )
        elif invite_code is not None:
            data = inputs.join_by_code({"invite_code": invite_code})
            match = services.match_join_by_code(invite_code=data["invite_code"], user=user)
        else:
            raise Invalid("Give matchId, inviteCode or both.", field="matchId")
        return _view(match.pk, user)

    @strawberry.mutation(description="Give up your place before the start.")
    def leave_match(self, info: Info, match_id: MatchID) -> MatchView | None:
        user = require_user(info)
        return _view(services.match_leave(match_id=match_id, user=user).pk, user)

    @strawberry.mutation(description="Fill free places with bots; starts the match when full.")
    def add_bots(
        self,
        info: Info,
        match_id: MatchID,
        level: str | None = None,
        count: int | None = None,
    ) -> MatchView | None:
        user = require_user(info)
        data = inputs.bots(inputs.given(level=level, count=count))
        match = services.match_add_bots(
            match_id=match_id, user=user, level=data["level"], count=data["count"]
        )
        return _view(match.pk, user)

    @strawberry.mutation(description="Create a Fibber's Dice event; you are its host.")
    def create_dice_event(self, info: Info, input: ev.CreateEventInput) -> ev.DiceEvent | None:
        user = require_user(info)
        event = services.event_create(user=user, **input.validated())
        return ev.detail(event.pk, user)

    @strawberry.mutation(description="Register (a late entrant may join the running match).")
    def register_for_event(self, info: Info, id: strawberry.ID) -> ev.DiceEvent | None:
        return _event_command(info, id, services.event_register)

    @strawberry.mutation(description="Withdraw before the event starts.")
    def unregister_from_event(self, info: Info, id: strawberry.ID) -> ev.DiceEvent | None:
        return _event_command(info, id, services.event_unregister)

    @strawberry.mutation(description="The host starts the event.")
    def start_event(self, info: Info, id: strawberry.ID) -> ev.DiceEvent | None:
        return _event_command(info, id, services.event_start)

    @strawberry.mutation(description="The host starts the next round once the last has ended.")
    def start_next_round(self, info: Info, id: strawberry.ID) -> ev.DiceEvent | None:
        return _event_command(info, id, services.event_next_round)

    @strawberry.mutation(description="The host switches to the short format before round 3.")
    def switch_event_to_short_format(self, info: Info, id: strawberry.ID) -> ev.DiceEvent | None:
        return _event_command(info, id, services.event_switch_short)

    @strawberry.mutation(description="The host starts with the places filled so far.")
    def start_match(self, info: Info, match_id: MatchID) -> MatchView | None:
        user = require_user(info)
        return _view(services.match_start(match_id=match_id, user=user).pk, user)

    @strawberry.mutation(
        description="Take an action: one of your `legalActions` filled in, "
        '`{"type": ..., "<param>": value}`. A stale `expectedVersion` is refused '
        "(`stale_version`); a retry with the same `idempotencyKey` returns the stored answer "
        "and applies nothing (the key is shared with REST's `Idempotency-Key`)."
    )
    def act(
        self,
        info: Info,
        match_id: MatchID,
        action: Annotated[
            JSON, strawberry.argument(description='`{"type": ..., "<param>": value, ...}`')
        ],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        seat: SeatArg = None,
    ) -> MatchView | None:
        user = require_user(info)
        throttle(info, "actions", user)
        body, expected, key = inputs.action(action, expected_version, idempotency_key)
        _status, payload = services.action_submit_optimistic(
            match_id=match_id,
            user=user,
            action=body,
            expected_version=expected,
            seat=inputs.whole_number("seat", seat),
            idempotency_key=key,
            render=lambda match, position, seats: selectors.match_view(
                match, user, position, seats
            ),
            render_stored=lambda match, position, seats, events, state: selectors.match_view_stored(
                match, user, position, seats, events, state
            ),
        )
        return MatchView.of(payload)


# --- Subscriptions ---------------------------------------------------------------------------


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="Your redacted events as they are committed, after the sequence number "
        "`after` (reconnect with the last `seq` you saw: nothing is missed or repeated). "
        "Completes when a finished match has sent its last event. Websocket only "
        "(graphql-transport-ws); authenticate in `connection_init`'s payload."
    )
    async def match_events(
        self,
        info: Info,
        match_id: MatchID,
        after: int = 0,
        seat: SeatArg = None,
    ) -> AsyncGenerator[MatchEvent, None]:
        user = context_of(info).authenticate()
        since = inputs.whole_number("after", after) or 0
        position = inputs.whole_number("seat", seat)
        page = await first_page(user, match_id, since, position)
        return follow(user, match_id, since, position, page)


# --- The schema ------------------------------------------------------------------------------


class FibSchema(strawberry.Schema):
    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        """Log only the unexpected: a refused request is an answer, not an incident."""
        unexpected = [e for e in errors if not is_expected(e)]
        if unexpected:
            super().process_errors(unexpected, execution_context)


schema = FibSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[*limit_extensions(), ErrorCodes],
    config=StrawberryConfig(batching_config=None),
)
