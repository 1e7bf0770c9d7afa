"""Follow a match over GraphQL subscriptions (graphql-transport-ws), printing each message.

    uv run python docs/examples/subscribe.py ws://127.0.0.1:8000/graphql/ TOKEN MATCH_ID [AFTER]

Uses the ``websockets`` package (a dependency of this project: uvicorn serves websockets with
it). Stops when the server completes the subscription (the match is over) or after 60 s without
a message.
"""

from __future__ import annotations

import json
import sys

from websockets.sync.client import connect

QUERY = """
subscription Follow($id: ID!, $after: Int!) {
  matchEvents(matchId: $id, after: $after) { seq type byBot data }
}
"""


def main(url: str, token: str, match_id: str, after: int = 0) -> None:
    with connect(url, subprotocols=["graphql-transport-ws"]) as ws:  # type: ignore[list-item]
        ws.send(
            json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}})
        )
        print(ws.recv(timeout=10))
        variables = {"id": match_id, "after": after}
        ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": QUERY, "variables": variables},
                }
            )
        )
        while True:
            message = ws.recv(timeout=60)
            print(message)
            if json.loads(message)["type"] in ("complete", "error"):
                return


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
