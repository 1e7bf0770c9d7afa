"""A small graphql-transport-ws client over the ``websockets`` package (a real websocket)."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import ClientConnection, connect

SUBSCRIBE = (
    "subscription Follow($id: ID!, $after: Int!, $seat: Int) { "
    "matchEvents(matchId: $id, after: $after, seat: $seat) { seq version type byBot data } }"
)


class Subscriber:
    def __init__(self, base: str, token: str | None = None, payload: Any = None) -> None:
        self._connect = connect(
            f"ws://{base}/graphql/",
            subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
            open_timeout=5,
        )
        self.ws: ClientConnection = self._connect.__enter__()
        if payload is None:
            payload = {"Authorization": f"Bearer {token}"} if token else {}
        self.send({"type": "connection_init", "payload": payload})
        self.ack = self.receive(5)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = 5) -> dict[str, Any]:
        return json.loads(self.ws.recv(timeout=timeout))

    def subscribe(
        self, match_id: str, after: int = 0, seat: int | None = None, op: str = "1"
    ) -> None:
        variables = {"id": match_id, "after": after, "seat": seat}
        self.send(
            {"id": op, "type": "subscribe", "payload": {"query": SUBSCRIBE, "variables": variables}}
        )

    def events(self, count: int, timeout: float = 5) -> list[dict[str, Any]]:
        """The next ``count`` events (``next`` messages), as REST's event objects."""
        out: list[dict[str, Any]] = []
        while len(out) < count:
            message = self.receive(timeout)
            assert message["type"] == "next", message
            assert "errors" not in message["payload"], message
            out.append(message["payload"]["data"]["matchEvents"]["data"])
        return out

    def close(self) -> None:
        self._connect.__exit__(None, None, None)
