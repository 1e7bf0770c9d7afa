"""The answer of ``/metrics``, shared by the Django view (:mod:`.views`: the API and the
follower) and a Celery worker's own metrics port (:mod:`.worker`).

``/metrics`` is behind a token: ``METRICS_TOKEN`` (at least 16 characters), sent as
``Authorization: Bearer <token>``. Without ``METRICS_TOKEN`` the endpoint does not exist
(404); a missing or wrong token gets 401. Both in the API's JSON error shape, never HTML.
"""

from __future__ import annotations

import hmac

import orjson
from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4

from . import metrics

Answer = tuple[int, list[tuple[str, str]], bytes]

_JSON = ("Content-Type", "application/json")


def _error(status: int, code: str, message: str, *headers: tuple[str, str]) -> Answer:
    body = orjson.dumps({"error": {"code": code, "message": message}})
    return status, [_JSON, *headers], body


def answer(method: str, authorization: str | None, token: str | None) -> Answer:
    """``(status, headers, body)`` of a request to ``/metrics``."""
    if not token:
        return _error(404, "not_found", "There is no endpoint at this path.")
    if method not in ("GET", "HEAD"):
        return _error(
            405, "method_not_allowed", f'Method "{method}" not allowed.', ("Allow", "GET, HEAD")
        )
    scheme, _, sent = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(sent.strip().encode(), token.encode()):
        return _error(
            401,
            "not_authenticated",
            "The metrics need the metrics token: Authorization: Bearer <METRICS_TOKEN>.",
            ("WWW-Authenticate", 'Bearer realm="metrics"'),
        )
    body = metrics.exposition()
    return 200, [("Content-Type", CONTENT_TYPE_PLAIN_0_0_4)], b"" if method == "HEAD" else body
