"""``/graphql/`` over a websocket (``graphql-transport-ws``): subscriptions, in the ASGI
follower (``fibserver.asgi`` routes websocket requests on ``/graphql/`` here).

The token goes in ``connection_init``'s payload, as the HTTP header would:
``{"type": "connection_init", "payload": {"Authorization": "Bearer <token>"}}``. No token: an
anonymous caller (who may follow public matches); a token that is not valid: the socket is
closed with 4403. Only subscriptions run here; queries and mutations go over HTTP (the API
workers), so the follower never runs a writer. Cross-origin pages may connect from the origins
in ``CORS_ALLOWED_ORIGINS`` (no cookie is ever used, but Strawberry checks anyway).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from rest_framework.exceptions import AuthenticationFailed
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types.unset import UNSET

from api.authentication import token_auth

from .context import Context, meta_request
from .schema import schema
from .subscriptions import db
from .views import decode_json


def websocket_meta(scope: dict[str, Any]) -> dict[str, Any]:
    """The ``META`` REST's throttles and authentication read, from an ASGI scope."""
    meta: dict[str, Any] = {}
    client = scope.get("client")
    if client:
        meta["REMOTE_ADDR"] = client[0]
    for name, value in scope.get("headers", []):
        key = name.decode("latin-1").upper().replace("-", "_")
        if key == "X_FORWARDED_FOR":
            meta["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
    return meta


class GraphQLWebSocket(GraphQL[Context, None]):
    def decode_json(self, data: str | bytes) -> object:
        return decode_json(data)  # bounded depth: a message too deep closes with 4400

    async def get_context(self, request: Any, response: Any) -> Context:
        return Context(meta=websocket_meta(request.scope), websocket=True)

    async def on_ws_connect(self, context: Context) -> Any:
        params = context.connection_params or {}
        header = params.get("Authorization", params.get("authorization"))
        if header is not None and not isinstance(header, str):
            raise ConnectionRejectionError()
        if header:
            context.meta["HTTP_AUTHORIZATION"] = header
        try:
            found = await db(token_auth, meta_request(context.meta))
            context.set_user(*(found or (None, None)))
        except AuthenticationFailed:
            raise ConnectionRejectionError() from None
        return UNSET


def websocket_app() -> GraphQLWebSocket:
    return GraphQLWebSocket(
        schema,
        graphql_ide=None,
        allow_queries_via_get=False,
        subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
        connection_init_wait_timeout=timedelta(seconds=10),
        max_subscriptions_per_connection=int(settings.GRAPHQL["MAX_SUBSCRIPTIONS"]),
        allowed_origins=list(getattr(settings, "CORS_ALLOWED_ORIGINS", [])),
    )
