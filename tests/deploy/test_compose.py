"""The production shape in docker-compose.yml: one public entry point (nginx) in front of the
API (``web``) and the follower (``follow``), with the app trusting exactly that one proxy."""

from __future__ import annotations

import re
import uuid

import pytest
import yaml
from django.conf import settings
from django.urls import reverse

from .helpers import ROOT

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def locations() -> dict[str, str]:
    """``location`` blocks of the nginx config: their match (``~ regex`` or a prefix) -> body."""
    found = {}
    for match in re.finditer(r"location\s+([^{]+?)\s*\{(.*?)\n\s*\}", NGINX, re.S):
        found[match.group(1).strip()] = match.group(2)
    return found


def events_location() -> tuple[str, str]:
    (pattern, body), *others = [
        (where[1:].strip(), body) for where, body in locations().items() if where.startswith("~")
    ]
    assert not others, "one regex location: the events feed"
    return pattern, body


def seconds(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([smh]?)", value).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "s": 1, "m": 60, "h": 3600}[unit]


def test_only_the_proxy_publishes_a_port():
    """Besides the optional monitoring profile (Prometheus, Grafana), whose ports are its own."""
    published = {
        name
        for name, service in SERVICES.items()
        if service.get("ports") and "monitoring" not in service.get("profiles", ())
    }
    assert published == {"proxy"}


def test_the_proxy_is_nginx_with_the_committed_config_mounted_read_only():
    proxy = SERVICES["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert any(
        volume.startswith("./deploy/nginx.conf:") and volume.endswith(":ro")
        for volume in proxy["volumes"]
    )


@pytest.mark.parametrize("name", ["web", "follow", "worker", "beat", "migrate"])
def test_the_app_runs_the_production_settings_with_the_secret_key_from_the_environment(name):
    """No default key in the file: unset, it is empty and the production settings refuse to
    start (tests/deploy/test_settings.py); `docker-compose config` still checks the file."""
    env = SERVICES[name]["environment"]
    assert env["DJANGO_SETTINGS_MODULE"] == "fibserver.settings.production"
    assert env["SECRET_KEY"] == "${SECRET_KEY:-}"


@pytest.mark.parametrize("name", ["web", "follow"])
def test_web_and_follow_trust_exactly_one_proxy(name):
    assert str(SERVICES[name]["environment"]["NUM_PROXIES"]) == "1"


def test_the_events_feed_goes_to_the_follower_and_nothing_else_does():
    pattern, body = events_location()
    assert "proxy_pass http://follow" in body
    match_id = uuid.uuid4()
    assert re.search(pattern, reverse("match-events", args=[match_id]))
    for other in ("match-detail", "match-actions", "match-join", "match-replay"):
        assert not re.search(pattern, reverse(other, args=[match_id])), other
    assert not re.search(pattern, "/api/matches/join/")
    assert not re.search(pattern, reverse("match-replay-step", args=[match_id, 3]))


def test_the_proxy_waits_longer_than_the_longest_long_poll():
    _, body = events_location()
    longest = settings.FIBSERVER["MAX_WAIT_SECONDS"]
    for directive in ("proxy_read_timeout", "proxy_send_timeout"):
        value = re.search(rf"{directive}\s+(\w+);", body)
        assert value, directive
        assert seconds(value.group(1)) > longest + 5, directive


def test_graphql_websocket_upgrades_go_to_the_follower_and_the_rest_to_web():
    graphql = locations()["/graphql/"]
    assert "proxy_pass http://$graphql_upstream" in graphql
    upgrade_map = re.search(r"map \$http_upgrade \$graphql_upstream \{(.*?)\}", NGINX, re.S)
    assert upgrade_map
    assert re.search(r"default\s+web;", upgrade_map.group(1))
    assert re.search(r"websocket\S*\s+follow;", upgrade_map.group(1))
    assert "proxy_pass http://web" in locations()["/"]


def test_the_proxy_passes_the_client_address_scheme_and_upgrades_everywhere():
    for header in (
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "proxy_set_header Host $http_host;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
    ):
        assert header in NGINX
    # nginx drops every inherited proxy_set_header of a block that sets one of its own.
    for where, body in locations().items():
        assert "proxy_set_header" not in body, where
