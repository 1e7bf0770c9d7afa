"""The request's id, its metrics and its log line: the first middleware of the site (and of
the fast lane's short handler, which keeps it).

- **Request id**: a valid ``X-Request-ID`` from the proxy (nginx sends one with every request,
  docker-compose.yml) or the client is used, else one is made; it is in every log line written
  while the request is served (:mod:`.logs`) and passes to the Celery tasks the request starts
  (:mod:`.worker`). The response carries ``X-Request-ID`` when the request did (an id made
  here is only logged: the same request gets the same answer on every path).
- **Metrics**: ``fibserver_http_requests_total`` and ``fibserver_http_request_duration_seconds``
  by route (the URL pattern, never the path), method and status.
- **Log line**: with ``LOG_REQUESTS`` (off by default), one line per request: method, route,
  status and milliseconds, with the request id, the match id and the user id.
- **The operational endpoints** (``/livez/``, ``/readyz/``, ``/healthz/``, ``/metrics``,
  :mod:`.views`) are answered here, before any other middleware: probes and Prometheus reach
  a process by its address on the internal network, so these answers depend on no ``Host``
  (``ALLOWED_HOSTS``), no HTTPS redirect and no URL conf.

A request the fast lane's short handler hands over is counted once, by the full handler that
answers it, with the same request id (kept in its environ).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.signals import request_finished
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from . import context, metrics, views

log = logging.getLogger("fibserver.request")

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

#: The operational endpoints, by path, and the route their requests are counted under.
OPS: dict[str, tuple[Callable[[HttpRequest], HttpResponseBase], str]] = {
    "/livez/": (views.livez, "livez/"),
    "/readyz/": (views.readyz, "readyz/"),
    "/healthz/": (views.readyz, "healthz/"),
    "/metrics": (views.metrics, "metrics"),
    "/metrics/": (views.metrics, "metrics"),
}


def method_label(method: str | None) -> str:
    return method if method in METHODS else "other"


def route_of(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return str(match.route)
    ops = OPS.get(request.path_info)
    return ops[1] if ops is not None else metrics.UNROUTED


def _request_finished(**_: Any) -> None:
    """The response is closed: nothing more is logged about this request."""
    context.request_id.set(None)
    context.request.set(None)
    context.match_id.set(None)


request_finished.connect(_request_finished, dispatch_uid="kernel.ops.request_finished")


class OpsMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.log_requests = bool(getattr(settings, "LOG_REQUESTS", False))
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        started = time.perf_counter()
        sent = self.begin(request)
        ops = OPS.get(request.path_info)
        response = ops[0](request) if ops is not None else self.get_response(request)
        return self.finish(request, response, sent, started)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        sent = self.begin(request)
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        ops = OPS.get(request.path_info)
        if ops is not None:
            response = await sync_to_async(ops[0])(request)
        else:
            response = await get_response(request)
        return self.finish(request, response, sent, started)

    def begin(self, request: HttpRequest) -> str | None:
        """Bind the request's context (kept until the request is finished, so that Django's
        own lines about it, written after the middleware, carry it too)."""
        meta = request.META
        sent = context.valid_request_id(meta.get("HTTP_X_REQUEST_ID"))
        rid = sent or meta.get(context.ENVIRON_KEY)
        if rid is None:
            rid = meta[context.ENVIRON_KEY] = context.new_request_id()
        context.request_id.set(rid)
        context.request.set(request)
        context.match_id.set(None)
        return sent

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        found = kwargs.get("match_id")
        if found is not None:
            context.match_id.set(str(found))

    def finish(
        self,
        request: HttpRequest,
        response: HttpResponseBase,
        sent: str | None,
        started: float,
    ) -> HttpResponseBase:
        if getattr(response, "handed_over", False):
            return response  # the full handler answers (and counts) this request
        seconds = time.perf_counter() - started
        route = route_of(request)
        method = method_label(request.method)
        metrics.request_done(route, method, response.status_code, seconds)
        if sent is not None:
            response["X-Request-ID"] = sent
        if self.log_requests:
            log.info(
                "%s %s %d",
                method,
                route,
                response.status_code,
                extra={
                    "method": method,
                    "route": route,
                    "status": response.status_code,
                    "duration_ms": round(seconds * 1000, 2),
                },
            )
        return response
