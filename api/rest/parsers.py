"""Request parsing: JSON only, size-limited, with clear errors."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, overload

import orjson
from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from fibserver.errors import Invalid, TooLarge

_DIGITS = re.compile(r"[0-9]{1,9}")
_SECONDS = re.compile(r"[0-9]{1,6}(\.[0-9]{1,3})?")


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
            raise TooLarge(f"The request body exceeds {limit} bytes.")
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise TooLarge(f"The request body exceeds {limit} bytes.")
        if not raw.strip():
            return {}
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            raise ParseError(f"The body is not valid JSON: {error}") from None


@overload
def int_param(
    params: Mapping[str, str], name: str, default: int, *, lo: int, hi: int | None = None
) -> int: ...
@overload
def int_param(
    params: Mapping[str, str], name: str, default: None, *, lo: int, hi: int | None = None
) -> int | None: ...
def int_param(
    params: Mapping[str, str], name: str, default: int | None, *, lo: int, hi: int | None = None
) -> int | None:
    """A whole-number query parameter, strictly: ASCII digits only (``²`` or ``1e3`` are not
    numbers here), within ``lo``..``hi``; ``default`` when absent."""
    raw = params.get(name)
    if raw is None:
        return default
    bounds = f"between {lo} and {hi}" if hi is not None else f"{lo} or more"
    if not _DIGITS.fullmatch(raw) or not lo <= int(raw) <= (hi if hi is not None else int(raw)):
        raise Invalid(f"'{name}' must be a whole number {bounds}.", field=name)
    return int(raw)


def seconds_param(params: Mapping[str, str], name: str, *, hi: float) -> float:
    """A number of seconds from 0 to ``hi``, such as ``20`` or ``1.5`` (0 when absent)."""
    raw = params.get(name)
    if raw is None:
        return 0.0
    if not _SECONDS.fullmatch(raw) or float(raw) > hi:
        raise Invalid(f"'{name}' must be a number of seconds from 0 to {hi:g}.", field=name)
    return float(raw)


def validated(serializer_class: type, data: Any) -> dict[str, Any]:
    """A request body checked by its input serializer: the validated fields, or a 400."""
    if not isinstance(data, dict):
        raise Invalid("The body must be a JSON object.")
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
