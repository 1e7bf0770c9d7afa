"""Following a match: the long-poll events endpoint as an async view.

In production this runs in its own ASGI process (uvicorn, ``fibserver.asgi``): a waiting client
holds no thread and no worker, only a future. It waits in the one wait loop of every follower
(:func:`api.play.wait.pages`: the process's one Redis subscription, a re-read of the events
table on every wake-up), so a lost message or a Redis outage only delays a follower; no event
is ever missed. In production the fast lane's follower (:mod:`api.fast.follower`) answers most
of these requests before they reach Django, and hands this view the rest.

``wait`` is honoured only where waiting is cheap: under ASGI (the follower, and ``scripts/serve``,
which runs the ASGI app on uvicorn). Under WSGI (gunicorn) the view answers at once with what
there is: a gunicorn sync worker that waited would serve nobody else meanwhile (5 waiting
clients made ``/healthz/`` take 19 s). ``FIBSERVER["WSGI_LONG_POLL"]`` (on in
``fibserver.settings.dev``) lets Django's threaded ``runserver`` wait too, a thread per waiter.
In production the proxy (deploy/nginx.conf) sends ``/api/matches/<id>/events/`` to the
follower, so clients of the one base URL always get the wait.
"""

from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import APIException

from api.authentication import token_user
from api.errors import exception_handler, method_not_allowed_json
from api.play.hub import use_redis
from api.play.queries import feed_of
from api.play.wait import Page, has_news, pages
from games.access import match_pk
from games.reads import feeds
from kernel.errors import AppError
from kernel.ops import metrics


def may_wait(request: HttpRequest) -> bool:
    """Whether this server may hold the request: under ASGI, or the development server."""
    return isinstance(request, ASGIRequest) or bool(settings.FIBSERVER["WSGI_LONG_POLL"])


@csrf_exempt  # token authentication only: no cookie session, so no CSRF to guard against
async def match_events(request: HttpRequest, match_id: str) -> JsonResponse:
    """``GET /api/matches/{id}/events/?after=N&wait=S`` (see the OpenAPI schema)."""
    if request.method not in ("GET", "HEAD"):
        return method_not_allowed_json(["GET", "HEAD"])
    try:
        after, wait, seat = feed_of(request.GET)
        user = await sync_to_async(token_user)(request)
        key = str(match_pk(match_id))
    except (APIException, AppError) as error:
        return _error_response(error)
    if not may_wait(request):
        wait = 0.0
    read_feed = sync_to_async(feeds.read_feed)

    async def read(since: int) -> Page:
        return await read_feed(match_id, user, since, seat)

    until = asyncio.get_running_loop().time() + wait
    hubbed = use_redis() and isinstance(request, ASGIRequest)  # ASGI with Redis
    body: Page | None = None
    try:
        with metrics.following("longpoll"):
            async for body in pages(read, key, after, hubbed=hubbed, until=until):
                if has_news(body):
                    break
    except (APIException, AppError) as error:
        return _error_response(error)
    assert body is not None, "the first page is always read"
    if body["events"]:
        metrics.delivered("longpoll", len(body["events"]))
    return JsonResponse(body)


def _error_response(error: APIException | AppError) -> JsonResponse:
    response = exception_handler(error, {})  # the one error shape of the whole API
    assert response is not None, "API and application errors always map to a response"
    return JsonResponse(response.data, status=response.status_code)
