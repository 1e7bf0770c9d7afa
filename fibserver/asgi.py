"""ASGI entry point: the follower server (uvicorn) — and the embedded default's one server.

- ``GET /api/matches/<id>/events/`` (the long-poll) goes to the lean handler
  (:mod:`api.fast.follower`), which hands Django whatever it does not answer itself;
- other HTTP requests go to Django (in the embedded default
  ``scripts/serve`` everything else too: REST, GraphQL over HTTP, docs, admin);
- websocket requests on ``/graphql/`` go to the GraphQL subscriptions (``graphql-transport-ws``,
  :mod:`api.graphql.ws`); any other websocket is refused;
- ``lifespan``: with ``FIBSERVER_EMBEDDED_RUNNER=1`` (``scripts/serve``) and embedded tasks, the
  runner thread that plays bots and enforces deadlines starts with the server.
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

from kernel.ops import tracing

tracing.setup("follow")  # only with OTEL_* set; before the handler loads its middleware

django_application = get_asgi_application()

from api.fast.follower import serve_events  # noqa: E402  (needs the apps loaded)
from api.graphql.ws import websocket_app  # noqa: E402
from fibserver.asgiguard import bounded_bodies, json_errors  # noqa: E402

GRAPHQL_PATHS = ("/graphql/", "/graphql")

graphql_websocket = websocket_app()


def _start_embedded_runner() -> None:
    from django.conf import settings

    if (
        os.environ.get("FIBSERVER_EMBEDDED_RUNNER") == "1"
        and settings.FIBSERVER["TASKS"] == "embedded"
    ):
        from fibserver import runner

        runner.start()


def _settle_memory() -> None:
    """Garbage-collection pauses make the followers' latency tail: everything loaded at
    start-up (Django, the URLconf, the schema) is moved out of the collector's sight
    (``gc.freeze``), and collections of the youngest generation run less often."""
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (import every view now, not at the first request)
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


async def _lifespan(receive: Any, send: Any) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            _start_embedded_runner()
            _settle_memory()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def _application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        if scope.get("path") in GRAPHQL_PATHS:
            await graphql_websocket(scope, receive, send)
        else:
            await send({"type": "websocket.close", "code": 4404})
    elif scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope.get("path", "").endswith("/events/") and scope.get("method") == "GET":
        await serve_events(scope, receive, send, django_application)  # the long-poll, fast lane
    else:
        await django_application(scope, receive, send)


#: What uvicorn serves: request bodies bounded in size and time, and every HTTP failure
#: answered in the one JSON error shape (503 ``unavailable`` with ``Retry-After`` for an
#: outage), :mod:`fibserver.asgiguard`.
application = bounded_bodies(json_errors(_application))
