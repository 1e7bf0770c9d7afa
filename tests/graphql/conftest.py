"""Fixtures of the GraphQL tests: the throttle history cleared around every test (as in
tests/api), and a real uvicorn server running ``fibserver.asgi`` (the follower) in a thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest


@pytest.fixture(autouse=True)
def _clear_cache(clear_cache: Callable[[], None]) -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def follower(transactional_db) -> Iterator[str]:
    """The base URL (``127.0.0.1:<port>``) of a uvicorn server running ``fibserver.asgi``."""
    import uvicorn
    from django.db import connections

    from fibserver.asgi import application

    # As in production (DB_CONN_MAX_AGE=0 for the follower): no connection outlives its use,
    # so none is left open in the server's threads when the test database is dropped.
    connections.settings["default"]["CONN_MAX_AGE"] = 0
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
