"""A WSGI application answering a constant body: what a gunicorn sync worker costs by itself
per request (``bench/costs.py --hello``)."""

from collections.abc import Callable, Iterable
from typing import Any

BODY = b'{"version": 1}'


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    start_response(
        "200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))]
    )
    return [BODY]
