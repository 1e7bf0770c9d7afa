"""The REST face's JSON parser: :func:`api.play.body.json_body` as a DRF parser."""

from __future__ import annotations

from typing import Any

from rest_framework.parsers import BaseParser

from api.play.body import json_body


class LimitedJSONParser(BaseParser):
    """Parses JSON with orjson and refuses bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE``.

    DRF parsers read the stream directly, so Django's own upload limit does not apply to them:
    the limit is enforced by :func:`~api.play.body.json_body`, on the declared length and on
    what is actually read."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        return json_body(stream, declared)
