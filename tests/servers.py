"""Real servers inside the test process, for tests that need a socket."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def follower_in_a_thread() -> Iterator[str]:
    """A uvicorn server running ``fibserver.asgi`` (the follower) in a thread of this process;
    yields its address, ``127.0.0.1:<port>``."""
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
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
