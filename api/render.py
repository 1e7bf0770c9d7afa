"""JSON as every face writes it: orjson, with the output of DRF's ``JSONRenderer`` defaults
(compact, UTF-8, no ASCII escapes); values orjson does not know natively (lazy translations,
decimals, ...) go through DRF's own encoder."""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework.utils.encoders import JSONEncoder

_encoder = JSONEncoder()


def json_bytes(data: Any, *, indent: bool = False) -> bytes:
    """``data`` as JSON (``b""`` for ``None``: an empty answer), indented by two spaces if
    asked."""
    if data is None:
        return b""
    option = orjson.OPT_NON_STR_KEYS
    if indent:
        option |= orjson.OPT_INDENT_2
    return orjson.dumps(data, default=_encoder.default, option=option)
