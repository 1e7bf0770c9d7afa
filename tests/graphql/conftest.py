"""Fixtures of the GraphQL tests: the throttle history cleared around every test (as in
tests/api), and a real uvicorn server running ``fibserver.asgi`` (the follower) in a thread."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.servers import follower_in_a_thread


@pytest.fixture(autouse=True)
def _clear_cache(clear_cache: Callable[[], None]) -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def follower(transactional_db) -> Iterator[str]:
    """The base URL (``127.0.0.1:<port>``) of a uvicorn server running ``fibserver.asgi``."""
    with follower_in_a_thread() as address:
        yield address
