"""JSON log lines with the request id (the proxy's X-Request-ID, or one made), the match id and
the user id; the text format carries the same context."""

from __future__ import annotations

import io
import logging
import re

import orjson
import pytest
from django.test import Client

from fibserver.settings.base import logging_config
from kernel.ops.logs import ContextFilter, JsonFormatter
from tests.api.test_lean_move import two_player_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_request_line_carries_the_proxys_request_id_the_match_and_the_user(settings):
    settings.LOG_REQUESTS = True
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(ContextFilter())
    logger = logging.getLogger("fibserver.request")
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        a, _b, match_id = two_player_match()
        a.client = type(a.client)()  # a new client: its handler reads LOG_REQUESTS now
        a.client.credentials(HTTP_AUTHORIZATION=f"Bearer {a.token}")
        response = a.get(f"/api/matches/{match_id}/", HTTP_X_REQUEST_ID="req-from-nginx-1")
        assert response.status_code == 200
        assert response["X-Request-ID"] == "req-from-nginx-1"
        made = Client().get("/livez/")
        assert "X-Request-ID" not in made  # an id made here is only logged
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
    records = [orjson.loads(line) for line in stream.getvalue().splitlines()]
    view = next(r for r in records if r.get("request_id") == "req-from-nginx-1")
    assert view["logger"] == "fibserver.request" and view["level"] == "INFO"
    assert view["match_id"] == match_id
    assert view["user_id"] == a.user.pk
    assert view["route"] == "api/matches/<str:match_id>/"
    assert view["status"] == 200 and view["method"] == "GET"
    assert isinstance(view["duration_ms"], float)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", view["time"])
    livez = next(r for r in records if r.get("route") == "livez/")
    assert re.fullmatch(r"[0-9a-f]{32}", livez["request_id"])
    assert "user_id" not in livez and "match_id" not in livez


def test_djangos_own_lines_about_a_request_carry_its_id(settings):
    """A refusal's ``django.request`` warning is written after the middleware returned."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(ContextFilter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        response = Client().get("/api/matches/nope/", HTTP_X_REQUEST_ID="req-404")
        assert response.status_code == 404
    finally:
        logger.removeHandler(handler)
    records = [orjson.loads(line) for line in stream.getvalue().splitlines()]
    assert any(r["request_id"] == "req-404" and r["level"] == "WARNING" for r in records)


@pytest.mark.parametrize("sent", ["has space", "x" * 200, "ünïcode", "-leading-dash", ""])
def test_a_request_id_we_do_not_take_is_replaced_and_not_echoed(sent):
    response = Client().get("/livez/", HTTP_X_REQUEST_ID=sent)
    assert response.status_code == 200
    assert "X-Request-ID" not in response


def test_the_json_formatter_writes_one_object_a_line_with_the_traceback():
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom %s", ("now",), None)
    try:
        raise RuntimeError("inner")
    except RuntimeError:
        import sys

        record.exc_info = sys.exc_info()
    ContextFilter().filter(record)
    line = JsonFormatter().format(record)
    assert "\n" not in line
    out = orjson.loads(line)
    assert out["message"] == "boom now" and out["level"] == "ERROR"
    assert "RuntimeError: inner" in out["exc"]
    assert "request_id" not in out  # outside a request: no context


def test_logging_is_configured_as_asked():
    assert logging_config("INFO", "json")["formatters"]["json"]["()"].endswith("JsonFormatter")
    assert "uvicorn.access" in logging_config("INFO", "json")["loggers"]
    assert "text" in logging_config("WARNING", "text")["formatters"]
    with pytest.raises(Exception, match="LOG_FORMAT"):
        logging_config("INFO", "xml")
