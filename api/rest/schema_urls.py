"""The URL conf the OpenAPI schema is generated from: the served one (``api.urls``), derived
here, so a route served is a route documented. A served view that is no DRF view (the fast
lane's plain views, the async long-polls) names its DRF twin (``schema_twin``, set by
:func:`api.rest.twins.documented_by` or ``api.fast.answers.fast_or_full``), which stands in
for it here; views marked ``schema = None`` (the tournaments' old ``/api/events/…`` routes)
are left out by the generator. ``tests/api/test_openapi_routes.py`` holds every served route
to the document."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, URLResolver


def _documented(patterns: list[Any]) -> list[Any]:
    out: list[Any] = []
    for p in patterns:
        if isinstance(p, URLResolver):
            out.append(
                URLResolver(
                    p.pattern, _documented(list(p.url_patterns)), p.default_kwargs, p.app_name
                )
            )
        else:
            twin = getattr(p.callback, "schema_twin", None)
            callback = twin.as_view() if twin is not None else p.callback
            out.append(URLPattern(p.pattern, callback, p.default_args, p.name))
    return out


def _served() -> list[Any]:
    from api import urls

    return list(urls.urlpatterns)


urlpatterns = _documented(_served())
