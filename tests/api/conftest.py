"""Shared fixtures for API tests.

- ``api_client``: an anonymous DRF ``APIClient``.
- ``guest``: ``(user, token)`` for a fresh guest, made through the service (no HTTP, no throttle).
- ``auth_client``: a factory, ``auth_client(token)`` -> an ``APIClient`` sending
  ``Authorization: Bearer <token>`` (``keyword="Token"`` for DRF's form).

The cache (which holds DRF's throttle history) is cleared around every test here, so tests
never see each other's requests (``clear_cache`` from ``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import guest_create


@pytest.fixture(autouse=True)
def _clear_cache(clear_cache: Callable[[], None]) -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def guest(db: None) -> tuple[User, str]:
    return guest_create()


@pytest.fixture
def auth_client() -> Callable[..., APIClient]:
    def make(token: str, keyword: str = "Bearer") -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"{keyword} {token}")
        return client

    return make
