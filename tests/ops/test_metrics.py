"""/metrics: behind the token, in the JSON error shape when refused, counting what happens, and
never naming a user or a match."""

from __future__ import annotations

import re

import orjson
import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from kernel.ops import metrics
from tests.api.helpers import Player
from tests.api.test_lean_move import legal, turn, two_player_match

TOKEN = "metrics-token-for-the-tests"

pytestmark = pytest.mark.django_db(transaction=True)  # counted on commit


@pytest.fixture
def token(settings):
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def assert_json_error(response, status: int, code: str) -> None:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert orjson.loads(response.content)["error"]["code"] == code


@pytest.mark.parametrize("path", ["/metrics", "/metrics/"])
def test_without_a_metrics_token_configured_there_is_no_endpoint(settings, path):
    settings.METRICS_TOKEN = None
    assert_json_error(Client().get(path), 404, "not_found")
    assert_json_error(Client().get(path, HTTP_AUTHORIZATION="Bearer x"), 404, "not_found")


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer wrong", f"Token {TOKEN}", f"Bearer {TOKEN}x", TOKEN],
)
def test_the_metrics_refuse_a_missing_or_wrong_token_in_the_json_shape(token, authorization):
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    response = Client().get("/metrics", **headers)
    assert_json_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="metrics"'


def test_the_metrics_answer_only_reads(token):
    response = Client().post("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert_json_error(response, 405, "method_not_allowed")


def test_the_metrics_do_not_depend_on_the_host(token):
    """Prometheus scrapes a replica by its address, which ALLOWED_HOSTS does not list."""
    response = Client(HTTP_HOST="10.1.2.3:8000").get(
        "/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}"
    )
    assert response.status_code == 200


def test_requests_moves_and_refusals_are_counted_by_route_game_and_code(token):
    a, b, match_id = two_player_match()
    before = scrape()
    mover, other, view = turn([a, b], match_id)
    assert mover.act(match_id, {**legal(view), "expected_version": view["version"]}).status_code
    refused = other.act(match_id, {**legal(view), "expected_version": view["version"]})
    assert refused.status_code in (403, 409)
    after = scrape()
    route = "api/matches/<str:match_id>/actions/"
    ok = value(after, "fibserver_http_requests_total", route=route, method="POST", status="200")
    assert (
        ok
        - value(before, "fibserver_http_requests_total", route=route, method="POST", status="200")
        == 1
    )
    moves = "fibserver_moves_applied_total"
    game = view["game"]
    assert (
        value(after, moves, game=game, by="player") - value(before, moves, game=game, by="player")
        == 1
    )
    code = refused.json()["error"]["code"]
    refusals = "fibserver_move_refusals_total"
    assert value(after, refusals, code=code) - value(before, refusals, code=code) == 1
    duration = "fibserver_http_request_duration_seconds_count"
    assert value(after, duration, route=route, method="POST") >= 2


def test_no_label_names_a_user_or_a_match(token):
    a, b, match_id = two_player_match()
    mover, _other, view = turn([a, b], match_id)
    mover.act(match_id, legal(view))
    Client().get(f"/api/matches/{match_id}/events/")
    text = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").content.decode()
    assert match_id not in text
    uuid = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    assert not uuid.search(text)
    allowed = {"route", "method", "status", "game", "by", "code", "source", "level", "reason"}
    allowed |= {"kind", "task", "outcome", "queue", "channel", "le"}
    for family in text_string_to_metric_families(text):
        if family.name.startswith("fibserver_"):
            for sample in family.samples:
                assert set(sample.labels) <= allowed, sample


def test_a_path_that_matches_no_route_is_counted_under_one_label(token):
    for n in range(3):
        Client().get(f"/api/no-such-thing-{n}/")
    samples = scrape()
    labels = {dict(labels).get("route") for (name, labels) in samples if "http" in name}
    assert metrics.UNROUTED in labels
    assert not any(label and "no-such-thing" in label for label in labels)


def test_notifications_have_a_metric_family_and_one_function(token):
    before = scrape()
    metrics.notification_delivered("webpush", "sent")
    metrics.notification_delivered("webhook", "retried")
    after = scrape()
    family = "fibserver_notification_deliveries_total"
    assert (
        value(after, family, channel="webpush", outcome="sent")
        - value(before, family, channel="webpush", outcome="sent")
        == 1
    )
    assert value(after, family, channel="webhook", outcome="retried") >= 1
    with pytest.raises(ValueError):
        metrics.notification_delivered("carrier-pigeon", "sent")
    with pytest.raises(ValueError):
        metrics.notification_delivered("email", "opened")


def test_bot_decisions_are_timed_per_level_and_bot_moves_counted(token):
    host = Player("Host")
    before = scrape()
    match = host.create(game="fabfib", seats=3, bots=["random", "basic"])
    assert match["status"] == "active"
    after = scrape()
    decided = "fibserver_bot_decision_seconds_count"
    total = sum(
        value(after, decided, game="fabfib", level=level)
        - value(before, decided, game="fabfib", level=level)
        for level in ("random", "basic")
    )
    bots = "fibserver_moves_applied_total"
    moved = value(after, bots, game="fabfib", by="bot") - value(
        before, bots, game="fabfib", by="bot"
    )
    assert total == moved  # every bot move was a timed decision (inline: all of them by now)
