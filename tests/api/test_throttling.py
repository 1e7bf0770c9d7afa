"""Rate limits that hold: one budget per client address, shared by every process.

DRF keeps the throttle history in the default cache and finds the client's address in
``X-Forwarded-For`` only as far as ``NUM_PROXIES`` trusted proxies vouch for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_guest_an_hour(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"guest": "1/hour"})


def guest(client: APIClient, **headers: str) -> int:
    return client.post("/api/auth/guest/", **headers).status_code


def test_a_forged_x_forwarded_for_does_not_give_a_fresh_budget(one_guest_an_hour):
    client = APIClient(REMOTE_ADDR="10.0.0.1")
    assert guest(client, HTTP_X_FORWARDED_FOR="203.0.113.1") == 201
    # Without a trusted proxy the header is the client's own claim: it changes nothing.
    assert guest(client, HTTP_X_FORWARDED_FOR="203.0.113.2") == 429
    assert guest(client) == 429


def test_behind_one_proxy_the_address_it_appended_is_the_client(one_guest_an_hour, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = APIClient(REMOTE_ADDR="172.18.0.5")  # every request comes from the proxy
    # The proxy appends the address it saw; anything before it is what the client sent.
    assert guest(proxy, HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.1") == 201
    assert guest(proxy, HTTP_X_FORWARDED_FOR="198.51.100.8, 203.0.113.1") == 429
    assert guest(proxy, HTTP_X_FORWARDED_FOR="203.0.113.1") == 429
    assert guest(proxy, HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.2") == 201


def test_a_throttled_answer_is_429_in_the_error_shape_with_retry_after(one_guest_an_hour):
    client = APIClient(REMOTE_ADDR="10.0.0.3")
    assert guest(client) == 201
    response = client.post("/api/auth/guest/")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 3600
    assert response.json()["error"]["retry_after"] == int(response["Retry-After"])


# Another process (a second gunicorn worker, or another container) spends the budget of one
# address through the throttle the guest view uses, with the project's own cache settings.
SPEND_BUDGET = """
import json, sys
import django
from django.conf import settings
settings.CACHES["default"]["KEY_PREFIX"] = sys.argv[1]  # this test run's namespace
django.setup()
from django.core.cache import cache
from django.test import RequestFactory
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle
from api.rest.auth import GuestCreateView

ScopedRateThrottle.THROTTLE_RATES = {"guest": "3/hour"}
request = Request(RequestFactory().post("/api/auth/guest/", REMOTE_ADDR="10.9.8.7"))
allowed = [ScopedRateThrottle().allow_request(request, GuestCreateView()) for _ in range(3)]
print(json.dumps({"backend": settings.CACHES["default"]["BACKEND"], "allowed": allowed}))
"""


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis (CI sets REDIS_URL)")
def test_with_redis_the_throttle_is_shared_between_processes(monkeypatch, cache_namespace):
    done = subprocess.run(
        [sys.executable, "-c", SPEND_BUDGET, cache_namespace],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "fibserver.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    other = json.loads(done.stdout)
    assert other == {
        "backend": "django.core.cache.backends.redis.RedisCache",
        "allowed": [True, True, True],
    }
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"guest": "3/hour"})
    # This process has never seen 10.9.8.7, yet its budget is spent.
    assert guest(APIClient(REMOTE_ADDR="10.9.8.7")) == 429
    assert guest(APIClient(REMOTE_ADDR="10.9.8.8")) == 201
