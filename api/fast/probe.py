"""Django's judgement of a request the fast lane's follower serves outside Django's request
cycle: its host (``HttpRequest.get_host``), HTTPS and the redirect to it (``SecurityMiddleware``),
and the headers of the answer, added by the same middleware Django's answer passes through —
Django's own code, run on a :class:`Probe` of the request, never a copy of it.
``tests/api/test_follow_lean.py`` holds every header to Django's answer."""

from __future__ import annotations

from typing import Any

from corsheaders.middleware import CorsMiddleware
from django.core.exceptions import DisallowedHost
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware

from . import HandOver


class Probe(HttpRequest):
    """The request as Django's handler would see it (its path, headers, server and scheme),
    for Django's own host, HTTPS and answer-header logic; it has no body and is never
    routed."""

    def __init__(self, scope: dict[str, Any], headers: dict[str, str]) -> None:
        super().__init__()
        self.method = "GET"
        self.path = self.path_info = scope.get("path", "")
        self.scope_scheme = scope.get("scheme") or "http"
        server = scope.get("server") or ("unknown", "0")
        self.META = {
            "SERVER_NAME": server[0],
            "SERVER_PORT": str(server[1]),
            **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()},
        }

    def _get_scheme(self) -> str:
        return str(self.scope_scheme)


def _answer_of(_request: HttpRequest) -> HttpResponse:
    raise AssertionError("the probe is never routed")


class _Middleware:
    """The middleware Django's answer passes through, made once per process as Django's
    handler makes its own (they read the settings when made), and again after a setting
    changes (tests)."""

    made: tuple[SecurityMiddleware, CorsMiddleware, XFrameOptionsMiddleware] | None = None

    @classmethod
    def get(cls) -> tuple[SecurityMiddleware, CorsMiddleware, XFrameOptionsMiddleware]:
        if cls.made is None:
            cls.made = (
                SecurityMiddleware(_answer_of),
                CorsMiddleware(_answer_of),
                XFrameOptionsMiddleware(_answer_of),
            )
        return cls.made

    @classmethod
    def forget(cls, **_kwargs: Any) -> None:
        cls.made = None


setting_changed.connect(_Middleware.forget, dispatch_uid="fast-follower-middleware")


def middleware() -> tuple[SecurityMiddleware, CorsMiddleware, XFrameOptionsMiddleware]:
    """The middleware whose judgement and answer headers the fast lane takes (made once)."""
    return _Middleware.get()


def check(probe: Probe) -> None:
    """What Django would refuse, redirect or treat apart is handed over: a host it does not
    serve, a redirect to HTTPS."""
    try:
        probe.get_host()
    except DisallowedHost:
        raise HandOver from None
    if _Middleware.get()[0].process_request(probe) is not None:
        raise HandOver  # the redirect to HTTPS


def response_headers(probe: Probe, length: int) -> list[tuple[bytes, bytes]]:
    """The headers of this view's 200, added by the middleware Django's answer passes
    through, innermost first (``settings.MIDDLEWARE``'s order, reversed)."""
    security, cors, frames = _Middleware.get()
    response = HttpResponse(content_type="application/json")
    frames.process_response(probe, response)  # each adds its headers to it
    cors.add_response_headers(probe, response)
    security.process_response(probe, response)
    out = [(b"content-type", b"application/json"), (b"content-length", str(length).encode())]
    for name, value in response.items():
        if name.lower() != "content-type":
            out.append((name.lower().encode("latin-1"), value.encode("latin-1")))
    return out
