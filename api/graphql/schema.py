"""The GraphQL schema: thin resolvers over ``games.reads`` (readers) and ``games.services`` /
``accounts.services`` (writers), as REST's views are, through the same play layer
(:mod:`api.play`): arguments are checked by the one declaration of each shape (:mod:`.inputs`),
a move is :func:`api.play.moves.submit_move`, throttled in REST's scopes
(:func:`.context.throttle`), and errors carry REST's codes (:mod:`.errors`). The committed SDL
is ``api/graphql/schema.graphql`` (``manage.py graphql_schema`` writes it; a test fails when it
drifts from this code).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from graphql import GraphQLError
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext, Info

from api.play.queries import whole_number

from .args import MatchID, SeatArg
from .context import context_of
from .device_types import DeviceMutation, DeviceQuery
from .errors import ErrorCodes, is_expected
from .export_types import ExportMutation, ExportQuery
from .limits import extensions as limit_extensions
from .mutations import Mutation
from .notification_types import NotificationMutation, NotificationQuery, NotificationSubscription
from .push_types import PushMutation, PushQuery
from .queries import Query
from .session_types import SessionMutation, SessionQuery
from .subscriptions import first_page, follow
from .types import MatchEvent
from .vacation_types import VacationMutation, VacationQuery

# --- Subscriptions ---------------------------------------------------------------------------


@strawberry.type
class Subscription(NotificationSubscription):
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
        since = whole_number("after", after) or 0
        position = whole_number("seat", seat)
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


@strawberry.type(name="Query")
class RootQuery(
    Query, NotificationQuery, PushQuery, DeviceQuery, VacationQuery, ExportQuery, SessionQuery
):
    """The queries, with the notification inbox's, Web Push's, mobile devices', the
    vacation's, the data export's and the sessions'."""


@strawberry.type(name="Mutation")
class RootMutation(
    Mutation,
    NotificationMutation,
    PushMutation,
    DeviceMutation,
    VacationMutation,
    ExportMutation,
    SessionMutation,
):
    """The mutations, with the notification inbox's, Web Push's, mobile devices', the
    vacation's, the data export's and the sessions'."""


schema = FibSchema(
    query=RootQuery,
    mutation=RootMutation,
    subscription=Subscription,
    extensions=[*limit_extensions(), ErrorCodes],
    config=StrawberryConfig(batching_config=None),
)
