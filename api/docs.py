"""The OpenAPI schema and its two readers, Swagger UI (``/api/docs/``) and ReDoc
(``/api/redoc/``), served with everything they need from this server (drf-spectacular-sidecar
assets, no CDN, no web fonts), so they work offline and behind a strict firewall."""

from __future__ import annotations

from typing import Any

from drf_spectacular.renderers import OpenApiYamlRenderer
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView


class BrowserYamlRenderer(OpenApiYamlRenderer):
    """The YAML schema for a browser (``Accept: text/html``), shown as plain text."""

    media_type = "text/html"
    format = "yaml"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        body: bytes = super().render(data, accepted_media_type, renderer_context)
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "text/plain; charset=utf-8"
        return body


class SchemaView(SpectacularAPIView):
    """YAML (``application/vnd.oai.openapi``, the default) or JSON (``application/json``,
    ``application/vnd.oai.openapi+json``); a browser asking for HTML gets the YAML as text
    rather than a 406."""

    renderer_classes = [*SpectacularAPIView.renderer_classes, BrowserYamlRenderer]


class RedocView(SpectacularRedocView):
    """drf-spectacular's ReDoc page without its Google Fonts links."""

    template_name = "api/redoc.html"
