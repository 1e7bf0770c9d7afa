"""Following the inbox: ``GET /api/me/notifications/events/?after=N&wait=S`` as an async view.

The same wait loop as a match's long-poll (:func:`api.play.wait.pages`, the process's one Redis
subscription, with the user's key ``user-<id>`` in place of a match id): registered before each
read, a re-read of the inbox on every wake-up and every few seconds anyway, so a lost message
only delays it. Under WSGI it answers at once, as the match feed does
(:func:`api.longpoll.may_wait`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import APIException

from api.authentication import token_user
from api.errors import method_not_allowed_json
from api.longpoll import _error_response, may_wait
from api.play.fields import validate
from api.play.hub import use_redis
from api.play.notifications import InboxFollowQuery
from api.play.wait import Page, pages
from kernel.errors import AppError, NotAuthenticated
from notifications import reads
from notifications.wake import user_key


async def inbox_pages(
    user: Any,
    after: int,
    *,
    hubbed: bool,
    until: float | None = None,
    read_page: Callable[..., Awaitable[dict[str, Any]]] | None = None,
) -> AsyncIterator[Page]:
    """Pages of the inbox after ``after`` (see :func:`api.play.wait.pages`), each with its body
    under ``"body"``; ``read_page(user=, after=)`` reads one (``reads.follow_page`` in a
    thread by default)."""
    reader = read_page or sync_to_async(reads.follow_page)

    async def read(since: int) -> Page:
        body = await reader(user=user, after=since)
        return {
            "events": [{"seq": n["id"]} for n in body["notifications"]],
            "more": body["more"],
            "status": "active",
            "body": body,
        }

    async for page in pages(read, user_key(user.pk), after, hubbed=hubbed, until=until):
        yield page


@csrf_exempt  # token authentication only: no cookie session, so no CSRF to guard against
async def inbox_events(request: HttpRequest) -> JsonResponse:
    if request.method not in ("GET", "HEAD"):
        return method_not_allowed_json(["GET", "HEAD"])
    try:
        query = validate(InboxFollowQuery, request.GET)
        user = await sync_to_async(token_user)(request)
        if user is None:
            raise NotAuthenticated("Authentication credentials were not provided.")
    except (APIException, AppError) as error:
        return _error_response(error)
    after = query.get("after", 0)
    wait = query.get("wait", 0.0) if may_wait(request) else 0.0
    until = asyncio.get_running_loop().time() + wait
    hubbed = use_redis() and isinstance(request, ASGIRequest)
    body = None
    async for page in inbox_pages(user, after, hubbed=hubbed, until=until):
        body = page["body"]
        if page["events"]:
            break
    assert body is not None, "the first page is always read"
    return JsonResponse(body)
