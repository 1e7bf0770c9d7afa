"""Recompute a tournament's door-prize draw from its published raffle (docs/tournaments.md).

    curl -s "$B/api/tournaments/$EV/raffle/" > raffle.json
    python3 docs/examples/verify_raffle.py raffle.json [COMMITMENT]

Standard library only: it trusts nothing of the server's code. It checks that the revealed seed
hashes to the commitment (the one published when registration opened, if given), then redraws
the winners from the seed and the sorted entrant ids.
"""

from __future__ import annotations

import hashlib
import json
import sys


def draw(seed: str, entrants: list[int], prizes: int) -> list[int]:
    key, counter = bytes.fromhex(seed), 0  # the seed's 32 bytes; one counter for the draw

    def below(m: int) -> int:  # uniform in [0, m): BLAKE2b(key=seed) over a counter
        nonlocal counter
        while True:
            block = hashlib.blake2b(counter.to_bytes(8, "big"), key=key, digest_size=8)
            counter += 1
            value = int.from_bytes(block.digest(), "big")
            if value < (1 << 64) - ((1 << 64) % m):  # rejection sampling: no bias
                return value % m

    pool = sorted(entrants)
    k = min(prizes, len(pool))
    for i in range(k):  # a partial Fisher–Yates shuffle
        j = i + below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def main() -> int:
    with open(sys.argv[1]) as f:
        raffle = json.load(f)
    commitment = sys.argv[2] if len(sys.argv) > 2 else raffle["commitment"]
    hashed = hashlib.sha256(bytes.fromhex(raffle["seed"])).hexdigest()
    print(f"sha256(seed) = {hashed}")
    print(f"commitment   = {commitment}  {'matches' if hashed == commitment else 'DIFFERS'}")
    winners = draw(raffle["seed"], raffle["entrants"], raffle["door_prizes"])
    print(f"recomputed winners {winners}; published {raffle['winners']}", end=": ")
    ok = hashed == commitment and winners == raffle["winners"]
    print("the draw checks out" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
