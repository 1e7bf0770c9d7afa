"""GraphQL at ``/graphql/`` (Strawberry): the same capabilities as REST through the same services
and readers (docs/graphql.md). Queries and mutations are served over HTTP by the API (WSGI);
subscriptions over websockets (``graphql-transport-ws``) by the ASGI follower."""
