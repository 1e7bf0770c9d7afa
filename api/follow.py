"""Following a match: the long-poll events endpoint as an async view.

In production this runs in its own ASGI process (uvicorn, ``fibserver.asgi``): a waiting client
holds no thread and no worker, only a future. Each process keeps **one** Redis subscription
(:mod:`api.hub`, shared with the GraphQL subscriptions) and fans the "match changed" messages out
to its waiters in-process. Waiters always re-read the events table (never trust a message for
content), and re-check it every few seconds anyway, so a lost message or a Redis outage only
delays a follower; no event is ever missed.

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
from fibserver.errors import AppError
from games import selectors

from .hub import POLL_SECONDS, RECHECK_SECONDS, hub, use_redis, wait_for_event
from .rest.matches import events_params, seat_param


def may_wait(request: HttpRequest) -> bool:
    """Whether this server may hold the request: under ASGI, or the development server."""
    return isinstance(request, ASGIRequest) or bool(settings.FIBSERVER["WSGI_LONG_POLL"])


@csrf_exempt  # token authentication only: no cookie session, so no CSRF to guard against
async def match_events(request: HttpRequest, match_id: str) -> JsonResponse:
    """``GET /api/matches/{id}/events/?after=N&wait=S`` (see the OpenAPI schema)."""
    if request.method not in ("GET", "HEAD"):
        return method_not_allowed_json(["GET", "HEAD"])
    try:
        after, wait = events_params(request)
        seat = seat_param(request)
        user = await sync_to_async(token_user)(request)
        key = str(selectors.match_pk(match_id))
    except (APIException, AppError) as error:
        return _error_response(error)
    if not may_wait(request):
        wait = 0.0
    use_hub = use_redis() and isinstance(request, ASGIRequest)  # ASGI with Redis
    if use_hub:
        hub.ensure_running()
    loop = asyncio.get_running_loop()
    give_up = loop.time() + wait
    # Listen before the first read: a change committed in between still wakes this follower.
    with hub.listening(key) as changed:
        try:
            body = await sync_to_async(selectors.events_page)(match_id, user, after, seat)
        except (APIException, AppError) as error:
            return _error_response(error)
        while (
            not body["events"]
            and body["status"] not in ("finished", "aborted")
            and (remaining := give_up - loop.time()) > 0
        ):
            if use_hub and hub.connected:
                await wait_for_event(changed, min(remaining, RECHECK_SECONDS))
            else:
                await asyncio.sleep(min(remaining, POLL_SECONDS))
            body = await sync_to_async(selectors.events_page)(match_id, user, after, seat)
    return JsonResponse(body)


def _error_response(error: APIException | AppError) -> JsonResponse:
    response = exception_handler(error, {})  # the one error shape of the whole API
    assert response is not None, "API and application errors always map to a response"
    return JsonResponse(response.data, status=response.status_code)
