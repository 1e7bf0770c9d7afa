"""``/livez/``, ``/readyz/`` (``/healthz/``) and ``/metrics``: outside the versioned API, no
authentication but the metrics token (:mod:`.health`, :mod:`.scrape`)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from . import health, scrape


@require_GET
def livez(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers (nothing else is read)."""
    return JsonResponse({"status": "ok"})


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: the database and (where configured) Redis answer."""
    ready, checks = health.readiness()
    body = {"status": "ok" if ready else "error", **checks}
    return JsonResponse(body, status=200 if ready else 503)


@csrf_exempt  # token only, no cookies; every other method gets a JSON 405
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus metrics, behind ``METRICS_TOKEN`` (:mod:`.scrape`)."""
    status, headers, body = scrape.answer(
        request.method or "GET", request.headers.get("Authorization"), settings.METRICS_TOKEN
    )
    response = HttpResponse(body, status=status)
    for name, value in headers:
        response[name] = value
    return response
