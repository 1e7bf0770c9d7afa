"""Request parsing: JSON only, size-limited, with clear errors."""

from __future__ import annotations

from typing import Any

import orjson
from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from api.errors import ApiError


class LimitedJSONParser(BaseParser):
    """Parses JSON with orjson and refuses bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE``.

    DRF parsers read the stream directly, so Django's own upload limit does not apply to them:
    the limit is enforced here, on the declared length and on what is actually read."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise ApiError(413, "payload_too_large", f"The request body exceeds {limit} bytes.")
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise ApiError(413, "payload_too_large", f"The request body exceeds {limit} bytes.")
        if not raw.strip():
            return {}
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            raise ParseError(f"The body is not valid JSON: {error}") from None


def validated(serializer_class: type, data: Any) -> dict[str, Any]:
    """A request body checked by its input serializer: the validated fields, or a 400."""
    if not isinstance(data, dict):
        raise ApiError(400, "invalid", "The body must be a JSON object.")
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
