"""GraphQL mutations: the writers (``games.services``, ``accounts.services``) through the same
play layer as REST (:mod:`api.play`), answering the caller's view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from accounts import deletion, sessions
from accounts import services as accounts
from api.authentication import token_key
from api.play.matches import options_summary
from api.play.moves import THROTTLE_SCOPE, submit_move
from games import services
from kernel.errors import Invalid
from tournaments import services as tournament_services

from . import inputs
from . import queue_types as qt
from . import tournament_types as ev
from .args import MatchID, SeatArg, view_of
from .context import context_of, meta_request, require_user, throttle
from .types import (
    AuthPayload,
    Game,
    MatchView,
    TimeControl,
    User,
    Visibility,
)

# --- Mutations -------------------------------------------------------------------------------


def _calling_token(info: Info) -> str | None:
    """The token the call was made with (``Authorization: Bearer <token>`` or ``Token``)."""
    return token_key(str(context_of(info).meta.get("HTTP_AUTHORIZATION", "")))


def _signing_in(info: Info, device: str | None) -> dict[str, Any]:
    """The new session's name and client address (as REST's sign-in views)."""
    context = context_of(info)
    request = context.request or meta_request(context.meta)
    return {
        "label": sessions.label_of(context.request, device),
        "address": sessions.address_of(request),
    }


def _signed_in(user: Any, token: str) -> AuthPayload:
    return AuthPayload(token=token, user=User.of(user))


@strawberry.input(description="A new match (REST `POST /api/matches/`).")
class CreateMatchInput:
    game: Game
    seats: int
    options: JSON | None = strawberry.field(
        default=None,
        description="The game's options as a JSON object, as in REST (docs/rules.md): "
        + options_summary(),
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
    rated: bool | None = strawberry.field(
        default=None,
        description="Whether the match changes ratings (null: whenever it can be; true for a "
        "solo or all-bots match is refused), as REST's `rated`.",
    )


def _tournament_command(
    info: Info, id: strawberry.ID, command: Callable[..., object]
) -> ev.TournamentType | None:
    """Run one of a tournament's commands as the caller, then answer with the tournament as they
    see it."""
    user = require_user(info)
    command(tournament_id=id, user=user)
    return ev.detail(id, user)


def _create(info: Info, input: ev.CreateTournamentInput) -> ev.TournamentType | None:
    user = require_user(info)
    tournament = tournament_services.tournament_create(user=user, **input.validated())
    return ev.detail(tournament.pk, user)


def _register(info: Info, id: strawberry.ID) -> ev.TournamentType | None:
    return _tournament_command(info, id, tournament_services.tournament_register)


def _unregister(info: Info, id: strawberry.ID) -> ev.TournamentType | None:
    return _tournament_command(info, id, tournament_services.tournament_unregister)


def _start(info: Info, id: strawberry.ID) -> ev.TournamentType | None:
    return _tournament_command(info, id, tournament_services.tournament_start)


def _next_round(info: Info, id: strawberry.ID) -> ev.TournamentType | None:
    return _tournament_command(info, id, tournament_services.tournament_next_round)


def _short_format(info: Info, id: strawberry.ID) -> ev.TournamentType | None:
    return _tournament_command(info, id, tournament_services.tournament_switch_short)


@strawberry.type
class Mutation:
    @strawberry.mutation(
        description="Create a guest account: a token (its first session, named `device`), no "
        "password."
    )
    def guest(
        self, info: Info, display_name: str | None = None, device: str | None = None
    ) -> AuthPayload | None:
        throttle(info, "guest")
        data = inputs.guest(inputs.given(display_name=display_name, device=device))
        return _signed_in(
            *accounts.guest_create(
                display_name=data.get("display_name"),
                **_signing_in(info, data.get("device")),
            )
        )

    @strawberry.mutation(description="Register a full account (its first session: `device`).")
    def register(
        self,
        info: Info,
        username: str,
        password: str,
        display_name: str | None = None,
        device: str | None = None,
    ) -> AuthPayload | None:
        throttle(info, "register")
        data = inputs.register(
            inputs.given(
                username=username, password=password, display_name=display_name, device=device
            )
        )
        device = data.pop("device", None)
        user = accounts.user_register(**data)
        return _signed_in(user, accounts.token_issue(user=user, **_signing_in(info, device)))

    @strawberry.mutation(
        description="Log in: a new session (named `device`, else the User-Agent) and its token."
    )
    def login(
        self, info: Info, username: str, password: str, device: str | None = None
    ) -> AuthPayload | None:
        throttle(info, "login")
        data = inputs.login(inputs.given(username=username, password=password, device=device))
        label = _signing_in(info, data.pop("device", None))["label"]
        return _signed_in(
            *accounts.user_login(**data, request=context_of(info).request, label=label)
        )

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
        token = _calling_token(info) if context_of(info).session else None
        return _signed_in(user, token or accounts.token_issue(user=user))

    @strawberry.mutation(
        description="Log out: sign the calling session out (the account's others stay)."
    )
    def logout(self, info: Info) -> bool | None:
        user = require_user(info)
        session = context_of(info).session
        if session is not None:
            accounts.token_revoke(user=user, session=session)
        return True

    @strawberry.mutation(
        description="Delete the calling account (REST `DELETE /api/me/`): a registered "
        "account confirms with its `password`, a guest with its own `token`. See "
        "docs/accounts.md for what is deleted and what is kept."
    )
    def delete_account(
        self, info: Info, password: str | None = None, token: str | None = None
    ) -> bool | None:
        user = require_user(info)
        throttle(info, "login", user)
        data = inputs.delete_me(inputs.given(password=password, token=token))
        deletion.confirm(user=user, password=data.get("password"), token=data.get("token"))
        deletion.account_delete(user=user)
        return True

    @strawberry.mutation(
        description="Change the calling account's password (REST `POST /api/me/password/`): "
        "every other session is signed out; this one stays, its token comes back."
    )
    def change_password(
        self, info: Info, current_password: str, new_password: str
    ) -> AuthPayload | None:
        user = require_user(info)
        throttle(info, "login", user)
        data = inputs.password_change(
            inputs.given(current_password=current_password, new_password=new_password)
        )
        session = context_of(info).session
        user = accounts.password_change(user=user, keep=session, **data)
        token = _calling_token(info) if session else None
        return _signed_in(user, token or accounts.token_issue(user=user))

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
                rated=input.rated,
            )
        )
        match = services.match_create(user=user, **data)
        return view_of(match.pk, user)

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
        return view_of(match.pk, user)

    @strawberry.mutation(description="Give up your place before the start.")
    def leave_match(self, info: Info, match_id: MatchID) -> MatchView | None:
        user = require_user(info)
        return view_of(services.match_leave(match_id=match_id, user=user).pk, user)

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
        return view_of(match.pk, user)

    create_tournament: ev.TournamentType | None = strawberry.mutation(
        resolver=_create, description="Create a Fibber's Dice tournament; you are its host."
    )
    register_for_tournament: ev.TournamentType | None = strawberry.mutation(
        resolver=_register, description="Register (a late entrant may join the running match)."
    )
    unregister_from_tournament: ev.TournamentType | None = strawberry.mutation(
        resolver=_unregister, description="Withdraw before the tournament starts."
    )
    start_tournament: ev.TournamentType | None = strawberry.mutation(
        resolver=_start, description="The host starts the tournament."
    )
    start_next_round: ev.TournamentType | None = strawberry.mutation(
        resolver=_next_round, description="The host starts the next round once the last has ended."
    )
    switch_tournament_to_short_format: ev.TournamentType | None = strawberry.mutation(
        resolver=_short_format,
        description="The host switches to the short format before round 3.",
    )
    # The tournaments' earlier names, kept for clients written then.
    create_dice_event: ev.TournamentType | None = strawberry.mutation(
        resolver=_create, deprecation_reason="Use `createTournament`."
    )
    register_for_event: ev.TournamentType | None = strawberry.mutation(
        resolver=_register, deprecation_reason="Use `registerForTournament`."
    )
    unregister_from_event: ev.TournamentType | None = strawberry.mutation(
        resolver=_unregister, deprecation_reason="Use `unregisterFromTournament`."
    )
    start_event: ev.TournamentType | None = strawberry.mutation(
        resolver=_start, deprecation_reason="Use `startTournament`."
    )
    switch_event_to_short_format: ev.TournamentType | None = strawberry.mutation(
        resolver=_short_format, deprecation_reason="Use `switchTournamentToShortFormat`."
    )
    queue: qt.Ticket = strawberry.mutation(
        resolver=qt.queue, description="Queue for a table (quick play; REST `POST /api/queue/`)."
    )
    cancel_ticket: qt.Ticket = strawberry.mutation(
        resolver=qt.cancel_ticket, description="Leave the queue at once."
    )
    block_player: list[int] = strawberry.mutation(
        resolver=qt.block_player,
        description="Block a player (never seated with you); answers the players you block.",
    )
    unblock_player: list[int] = strawberry.mutation(
        resolver=qt.unblock_player, description="Unblock a player; answers the players you block."
    )
    follow_player: list[qt.Followed] = strawberry.mutation(
        resolver=qt.follow_player, description="Follow a player; answers the players you follow."
    )
    unfollow_player: list[qt.Followed] = strawberry.mutation(
        resolver=qt.unfollow_player,
        description="Stop following a player; answers the players you follow.",
    )
    challenge_players: qt.Challenge = strawberry.mutation(
        resolver=qt.challenge_players,
        description="Challenge players to a match; it starts when all of them accept.",
    )
    accept_challenge: qt.Challenge = strawberry.mutation(
        resolver=qt.accept_challenge, description="Accept a challenge you received."
    )
    decline_challenge: qt.Challenge = strawberry.mutation(
        resolver=qt.decline_challenge,
        description="Decline a challenge, or withdraw yours: over for everyone.",
    )
    accept_rematch: qt.Rematch = strawberry.mutation(
        resolver=qt.accept_rematch,
        description="Offer a rematch of a finished match, or accept the offer: the same seats "
        "and options, started when every human has accepted.",
    )
    decline_rematch: qt.Rematch = strawberry.mutation(
        resolver=qt.decline_rematch, description="Decline the rematch: it is over for everyone."
    )

    @strawberry.mutation(description="The host starts with the places filled so far.")
    def start_match(self, info: Info, match_id: MatchID) -> MatchView | None:
        user = require_user(info)
        return view_of(services.match_start(match_id=match_id, user=user).pk, user)

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
        throttle(info, THROTTLE_SCOPE, user)
        _status, payload = submit_move(
            user=user,
            match_id=match_id,
            body=inputs.action_body(action, expected_version),
            key=idempotency_key,
            params=inputs.seat_params(seat),
        )
        return MatchView.of(payload)
