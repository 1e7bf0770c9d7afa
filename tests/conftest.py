"""Test-wide configuration.

Hypothesis profiles: ``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) or ``dev`` (the default).

With ``REDIS_URL`` the default cache (DRF's throttle history) is Redis, shared by every test
process on the machine: each test process writes under a key prefix of its own
(``cache_namespace``) and ``clear_cache`` deletes only those keys, never the whole database
(Celery's queues live there too).
"""

import os
import uuid
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

hypothesis_settings.register_profile("ci", max_examples=100, deadline=None)
hypothesis_settings.register_profile("dev", max_examples=25, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _tasks_inline(settings):
    """Follow-up work runs right after the commit in tests; the tests with a real Celery worker
    or the embedded runner choose their own mode."""
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "inline"}


@pytest.fixture(scope="session", autouse=True)
def cache_namespace() -> Iterator[str]:
    """The key prefix of this test process in the shared cache."""
    prefix = f"fibserver-test-{uuid.uuid4().hex[:12]}"
    caches = {name: {**conf, "KEY_PREFIX": prefix} for name, conf in django_settings.CACHES.items()}
    with override_settings(CACHES=caches):
        yield prefix
    _delete_namespace(prefix)


def _delete_namespace(prefix: str) -> None:
    conf = django_settings.CACHES["default"]
    if conf["BACKEND"] != "django.core.cache.backends.redis.RedisCache":
        cache.clear()  # a local-memory cache belongs to this process alone
        return
    import redis

    client = redis.Redis.from_url(conf["LOCATION"])
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def clear_cache(cache_namespace: str) -> Callable[[], None]:
    """Forget this test process's cached keys (throttle history included) and the moves it
    holds leases on (api.leases)."""
    from api import leases

    def clear() -> None:
        _delete_namespace(cache_namespace)
        leases.LEASES.clear()

    return clear
