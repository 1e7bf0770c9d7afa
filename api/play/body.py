"""What a request may carry: a JSON body, size-limited, shallow and storable, with clear errors.

Every string a request carries must fit a PostgreSQL ``text`` value: no NUL character and no
lone surrogate (``\\ud800``-``\\udfff``). :func:`unstorable` is that one rule; :func:`json_body`
applies it to every key and value of a body, ``api.middleware`` to the path, the query string
and the headers."""

from __future__ import annotations

import re
from typing import Any

import orjson
from django.conf import settings

from kernel.errors import Invalid, MalformedRequest, TooLarge

#: The deepest a JSON body may nest (objects and arrays). No request needs more than a few
#: levels; serializers and engines recurse, so a body a thousand levels deep must stop here.
MAX_JSON_DEPTH = 32

#: Characters a PostgreSQL ``text`` (or ``jsonb``) value cannot hold.
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


def json_body(stream: Any, declared: str | None) -> Any:
    """The JSON body read from ``stream`` (``declared``: its ``Content-Length``, if any), at
    most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (413 beyond, on the declared length and on what
    is actually read), checked by :func:`check_tree`; ``{}`` for an empty body."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if declared and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"The request body exceeds {limit} bytes.")
    raw = stream.read(limit + 1) if stream is not None else b""
    if len(raw) > limit:
        raise TooLarge(f"The request body exceeds {limit} bytes.")
    if not raw.strip():
        return {}
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        if "surrogate in string" in str(error):  # e.g. "\\ud800" with no low surrogate
            raise Invalid(
                "Text must not contain lone surrogates (\\ud800-\\udfff): "
                f"line {error.lineno} column {error.colno}."
            ) from None
        raise MalformedRequest(f"The body is not valid JSON: {error}") from None
    check_tree(data)
    return data


def unstorable(text: str) -> bool:
    """Whether ``text`` holds a character no PostgreSQL text can store (NUL, lone surrogate)."""
    return _UNSTORABLE.search(text) is not None


def refuse_unstorable(text: str, what: str, field: str | None = None) -> None:
    """400 ``invalid`` if ``text`` (``what``, in the message) holds an unstorable character."""
    if unstorable(text):
        raise _unstorable_error(what, field)


def _unstorable_error(what: str, field: str | None) -> Invalid:
    # The name may hold the character itself (a bad key): never echo it.
    details = {"field": _UNSTORABLE.sub("\ufffd", field)} if field is not None else {}
    what = _UNSTORABLE.sub("\ufffd", what)
    return Invalid(f"{what} must not contain NUL characters or lone surrogates.", **details)


def _json_path(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def check_tree(data: Any) -> None:
    """Refuse a parsed JSON body that nests deeper than :data:`MAX_JSON_DEPTH` (400
    ``malformed_request``) or holds an unstorable string as a key or a value at any depth (400
    ``invalid``, the path to it in ``field``). Iterative, so nothing recurses on a deep body."""
    if isinstance(data, str):
        refuse_unstorable(data, "The body")
    if not isinstance(data, dict | list):
        return
    stack: list[tuple[dict[str, Any] | list[Any], tuple[str | int, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if len(path) >= MAX_JSON_DEPTH:
            raise MalformedRequest(f"The body nests deeper than {MAX_JSON_DEPTH} levels.")
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, item in items:
            if (isinstance(key, str) and unstorable(key)) or (
                isinstance(item, str) and unstorable(item)
            ):
                where = _json_path((*path, key))
                raise _unstorable_error(f"'{where}'", where)
            if isinstance(item, dict | list):
                stack.append((item, (*path, key)))
