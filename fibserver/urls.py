"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerView

from api.docs import RedocView, SchemaView
from api.graphql.views import graphql_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SchemaView.as_view(urlconf="api.rest.schema_urls"), name="schema"),
    # GET only: DRF's OPTIONS answer cannot be rendered by the pages' template renderer (a 500).
    path(
        "api/docs/",
        SpectacularSwaggerView.as_view(url_name="schema", http_method_names=["get", "head"]),
        name="docs",
    ),
    path(
        "api/redoc/",
        RedocView.as_view(url_name="schema", http_method_names=["get", "head"]),
        name="redoc",
    ),
    # GraphQL over HTTP (websocket subscriptions on the same path: fibserver.asgi).
    path("graphql/", graphql_view, name="graphql"),
    # /livez/, /readyz/ (/healthz/) and /metrics are answered by the first middleware
    # (kernel.ops.middleware), before the host check and any URL conf.
    path("", include("api.urls")),
    # The reference web client: a page and static ES modules over the public API.
    path("", include("web.urls")),
]

# An unhandled exception answers in the one error shape (503 for an outage).
handler500 = "api.errors.server_error"
