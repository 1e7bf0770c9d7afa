"""The OpenAPI schema and its two readers, Swagger UI (``/api/docs/``) and ReDoc
(``/api/redoc/``), served with everything they need from this server (drf-spectacular-sidecar
assets, no CDN, no web fonts), so they work offline and behind a strict firewall."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.utils import translation
from drf_spectacular.renderers import OpenApiYamlRenderer
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response


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
        self.as_text(renderer_context)
        return body

    @staticmethod
    def as_text(renderer_context: dict[str, Any] | None) -> None:
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "text/plain; charset=utf-8"


#: Rendered schemas: (id of a built schema, renderer, media type) -> bytes.
_RENDERED: dict[tuple[int, type, str | None], bytes] = {}


def _rendered_once(renderer: type[BaseRenderer]) -> type[BaseRenderer]:
    """``renderer``, remembering what it made of a built schema (YAML of the whole schema takes
    about 0.1 s); anything else (an error body) is rendered as usual."""

    def render(
        self: BaseRenderer,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> Any:
        if not any(data is built for built in SchemaView._built.values()):
            return renderer.render(self, data, accepted_media_type, renderer_context)
        key = (id(data), renderer, accepted_media_type)
        if key not in _RENDERED:
            _RENDERED[key] = renderer.render(self, data, accepted_media_type, renderer_context)
        elif isinstance(self, BrowserYamlRenderer):
            self.as_text(renderer_context)
        return _RENDERED[key]

    return type(renderer.__name__, (renderer,), {"render": render, "__doc__": renderer.__doc__})


class SchemaView(SpectacularAPIView):
    """YAML (``application/vnd.oai.openapi``, the default) or JSON (``application/json``,
    ``application/vnd.oai.openapi+json``); a browser asking for HTML gets the YAML as text
    rather than a 406."""

    renderer_classes = [
        _rendered_once(r) for r in [*SpectacularAPIView.renderer_classes, BrowserYamlRenderer]
    ]
    #: The generated schema, per URL configuration, API version and language: it depends on
    #: the code only (the schema is public, the same for every caller), and generating it
    #: walks every view and serializer (about 0.3 s), so a process builds it once.
    _built: ClassVar[dict[tuple[Any, ...], Any]] = {}

    def _get_schema_response(self, request: Any) -> Any:
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (settings.ROOT_URLCONF, id(self.urlconf), version, translation.get_language())
        if key not in self._built:
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            self._built[key] = generator.get_schema(request=request, public=self.serve_public)
        return Response(
            data=self._built[key],
            headers={
                "Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'
            },
        )


class RedocView(SpectacularRedocView):
    """drf-spectacular's ReDoc page without its Google Fonts links."""

    template_name = "api/redoc.html"
