"""The quick-play queue and blocks (docs/matchmaking.md): thin views over
``matchmaking.services`` and ``matchmaking.reads``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.play.fields import validate
from api.play.queue import BlockIn, ChallengeCreateIn, TicketCreateIn
from kernel.errors import NotFound
from matchmaking import challenges, reads, services

from .base import MatchBase
from .openapi import queue as _components  # noqa: F401  (defines the components)
from .openapi import responses as r
from .openapi.extensions import component

TICKET_ID = OpenApiParameter(
    "ticket_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="One of your tickets."
)
PLAYER_ID = OpenApiParameter(
    "player_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="A player's id."
)


def _id(name: str, value: str) -> int:
    """A path id: a positive whole number (anything else names nothing: 404)."""
    if not (value.isascii() and value.isdigit() and len(value) <= 18 and int(value) > 0):
        raise NotFound(
            {"ticket_id": "No such ticket.", "challenge_id": "No such challenge."}.get(
                name, "No such player."
            )
        )
    return int(value)


class QueueView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="queue_list",
        summary="Your tickets in the quick-play queue: place in line, time waited, estimate",
        responses=r.answers({200: component("TicketListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response(
            {"tickets": [reads.render_ticket(t) for t in reads.my_tickets(request.user)]}
        )

    @extend_schema(
        operation_id="queue_create",
        summary="Queue for a table (quick play)",
        description="The matcher seats you with compatible players (same game and time "
        "control, a seat count all accept, ratings within a window that widens as you wait, "
        "nobody either of you blocks); the ticket then shows the started `match`.",
        request=TicketCreateIn,
        responses=r.answers(
            {201: component("TicketOut")},
            400,
            401,
            409,
            413,
            415,
            422,
            e409="You are already waiting in the queue.",
            e422="Seat counts or a bot level the game does not have.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(TicketCreateIn, request.data)
        if data["seats_max"] is None:
            data["seats_max"] = data["seats_min"]
        ticket = services.ticket_create(user=request.user, **data)
        return Response(reads.render_ticket(ticket), status=status.HTTP_201_CREATED)


class TicketView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="queue_read",
        summary="One of your tickets",
        parameters=[TICKET_ID],
        responses=r.answers({200: component("TicketOut")}, 401, 404),
    )
    def get(self, request: Request, ticket_id: str) -> Response:
        ticket = reads.read_ticket(request.user, _id("ticket_id", ticket_id))
        if ticket is None:
            raise NotFound("No such ticket.")
        return Response(reads.render_ticket(ticket))

    @extend_schema(
        operation_id="queue_cancel",
        summary="Leave the queue (at once)",
        parameters=[TICKET_ID],
        responses=r.answers(
            {200: component("TicketOut")},
            401,
            404,
            409,
            e409="The ticket is no longer waiting (matched, cancelled or expired).",
        ),
    )
    def delete(self, request: Request, ticket_id: str) -> Response:
        ticket = services.ticket_cancel(user=request.user, ticket_id=_id("ticket_id", ticket_id))
        return Response(reads.render_ticket(ticket))


class BlockListView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="blocks_list",
        summary="The players you block",
        responses=r.answers({200: component("BlockListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response({"players": reads.blocked_players(request.user)})

    @extend_schema(
        operation_id="blocks_create",
        summary="Block a player: never seated with you by the queue",
        request=BlockIn,
        responses=r.answers(
            {201: component("BlockListOut")},
            400,
            401,
            404,
            413,
            415,
            422,
            e422="You cannot block yourself.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(BlockIn, request.data)
        services.block_create(user=request.user, player_id=data["player"])
        return Response(
            {"players": reads.blocked_players(request.user)}, status=status.HTTP_201_CREATED
        )


class BlockView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="blocks_delete",
        summary="Unblock a player",
        parameters=[PLAYER_ID],
        responses=r.answers({200: component("BlockListOut")}, 401, 404),
    )
    def delete(self, request: Request, player_id: str) -> Response:
        services.block_delete(user=request.user, player_id=_id("player_id", player_id))
        return Response({"players": reads.blocked_players(request.user)})


class RematchView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_rematch_read",
        summary="The rematch of a finished match: who accepted, whom it waits for",
        parameters=[r.MATCH_ID],
        responses=r.answers(
            {200: component("RematchOut")},
            401,
            403,
            404,
            409,
            e403="You did not play in this match.",
            e409="The match has not finished.",
        ),
    )
    def get(self, request: Request, match_id: str) -> Response:
        offer, humans = challenges.rematch_read(user=request.user, match_id=match_id)
        return Response(reads.render_rematch(offer, humans))

    @extend_schema(
        operation_id="matches_rematch_accept",
        summary="Offer a rematch, or accept the offer (starts when every human has accepted)",
        description="The same seats (bots at their levels) and options. Live offers expire "
        "after 10 minutes, async ones after 7 days.",
        parameters=[r.MATCH_ID],
        request=None,
        responses=r.answers(
            {200: component("RematchOut")},
            401,
            403,
            404,
            409,
            413,
            415,
            e403="You did not play in this match.",
            e409="The match has not finished, you accepted already, or the offer is over.",
        ),
    )
    def post(self, request: Request, match_id: str) -> Response:
        challenges.rematch_accept(user=request.user, match_id=match_id)
        offer, humans = challenges.rematch_read(user=request.user, match_id=match_id)
        return Response(reads.render_rematch(offer, humans))

    @extend_schema(
        operation_id="matches_rematch_decline",
        summary="Decline (or withdraw) the rematch: the offer is over for everyone",
        parameters=[r.MATCH_ID],
        responses=r.answers(
            {200: component("RematchOut")},
            401,
            403,
            404,
            409,
            e403="You did not play in this match.",
            e404="No such match, or nobody offered a rematch.",
            e409="The match has not finished, or the offer is over.",
        ),
    )
    def delete(self, request: Request, match_id: str) -> Response:
        challenges.rematch_decline(user=request.user, match_id=match_id)
        offer, humans = challenges.rematch_read(user=request.user, match_id=match_id)
        return Response(reads.render_rematch(offer, humans))


CHALLENGE_ID = OpenApiParameter(
    "challenge_id",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="A challenge you made or received.",
)


class ChallengeListView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="challenges_list",
        summary="Challenges you made or received",
        responses=r.answers({200: component("ChallengeListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        found = reads.my_challenges(request.user)
        return Response({"challenges": [reads.render_challenge(c) for c in found]})

    @extend_schema(
        operation_id="challenges_create",
        summary="Challenge players to a match (it starts when all of them accept)",
        description="Seats: you, the players in the order named, then the bots. The match is "
        "private.",
        request=ChallengeCreateIn,
        responses=r.answers(
            {201: component("ChallengeOut")},
            400,
            401,
            403,
            404,
            413,
            415,
            422,
            e403="A player blocks you, or you block them.",
            e404="No such player.",
            e422="Yourself or a player twice among the players; options, seats, bots or seconds "
            "the game does not allow.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(ChallengeCreateIn, request.data)
        challenge = challenges.challenge_create(user=request.user, **data)
        found = reads.read_challenge(request.user, challenge.pk)
        assert found is not None
        return Response(reads.render_challenge(found), status=status.HTTP_201_CREATED)


class ChallengeView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="challenges_read",
        summary="A challenge you made or received",
        parameters=[CHALLENGE_ID],
        responses=r.answers({200: component("ChallengeOut")}, 401, 404),
    )
    def get(self, request: Request, challenge_id: str) -> Response:
        return Response(reads.render_challenge(_challenge(request, challenge_id)))


def _challenge(request: Request, challenge_id: str) -> Any:
    found = reads.read_challenge(request.user, _id("challenge_id", challenge_id))
    if found is None:
        raise NotFound("No such challenge.")
    return found


def _answer(operation_id: str, summary: str, e409: str) -> Any:
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        parameters=[CHALLENGE_ID],
        request=None,
        responses=r.answers({200: component("ChallengeOut")}, 401, 404, 409, 413, 415, e409=e409),
    )


class ChallengeAcceptView(MatchBase):
    permission_classes = [IsAuthenticated]

    @_answer(
        "challenges_accept",
        "Accept a challenge (the match starts when every challenged player has)",
        "The challenge is over, you accepted already, or it is yours.",
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        challenges.challenge_accept(
            user=request.user, challenge_id=_id("challenge_id", challenge_id)
        )
        return Response(reads.render_challenge(_challenge(request, challenge_id)))


class ChallengeDeclineView(MatchBase):
    permission_classes = [IsAuthenticated]

    @_answer(
        "challenges_decline",
        "Decline a challenge, or withdraw yours: over for everyone",
        "The challenge is over.",
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        challenges.challenge_decline(
            user=request.user, challenge_id=_id("challenge_id", challenge_id)
        )
        return Response(reads.render_challenge(_challenge(request, challenge_id)))


class FollowListView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="follows_list",
        summary="The players you follow: their public matches, whether they are queueing",
        responses=r.answers({200: component("FollowListOut")}, 401),
    )
    def get(self, request: Request) -> Response:
        return Response({"follows": reads.followed_players(request.user)})

    @extend_schema(
        operation_id="follows_create",
        summary="Follow a player",
        request=BlockIn,
        responses=r.answers(
            {201: component("FollowListOut")},
            400,
            401,
            403,
            404,
            413,
            415,
            422,
            e403="A block stands between you (either way).",
            e422="You cannot follow yourself.",
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate(BlockIn, request.data)
        services.follow_create(user=request.user, player_id=data["player"])
        return Response(
            {"follows": reads.followed_players(request.user)}, status=status.HTTP_201_CREATED
        )


class FollowView(MatchBase):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="follows_delete",
        summary="Stop following a player",
        parameters=[PLAYER_ID],
        responses=r.answers({200: component("FollowListOut")}, 401, 404),
    )
    def delete(self, request: Request, player_id: str) -> Response:
        services.follow_delete(user=request.user, player_id=_id("player_id", player_id))
        return Response({"follows": reads.followed_players(request.user)})
