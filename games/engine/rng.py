"""Deterministic, cryptographically strong randomness for one match.

Every random outcome of a match (shuffles, dice, first players, blind picks) comes from a
keyed BLAKE2b counter stream: output block ``i`` is ``BLAKE2b(key=seed, data=i)``. Given the
secret per-match seed the stream replays exactly; without it, nothing that was seen predicts
what comes next. Python's Mersenne Twister is never used for hidden information.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

SEED_BYTES = 32


def new_seed() -> str:
    """A fresh secret match seed, hex-encoded."""
    return secrets.token_bytes(SEED_BYTES).hex()


def seed_commitment(seed: str) -> str:
    """The public commitment to a seed: SHA-256 of its bytes, hex-encoded."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def seed_from_int(value: int) -> str:
    """A reproducible seed derived from a small integer (simulations and tests only)."""
    return hashlib.sha256(b"fibserver-seed:%d" % value).hexdigest()


class Rng:
    """A counter-mode generator over a keyed hash; its whole state is ``(seed, counter)``.

    Every outcome drawn is appended to ``trace`` as ``[kind, bound, result]`` so that the
    chance steps of a match can be recorded in its replay.
    """

    __slots__ = ("_key", "counter", "trace")

    def __init__(self, seed: str, counter: int = 0) -> None:
        self._key = bytes.fromhex(seed)
        if not 16 <= len(self._key) <= 64:
            raise ValueError("seed must be 16 to 64 bytes")
        self.counter = counter
        self.trace: list[list[Any]] = []

    def _block(self) -> int:
        digest = hashlib.blake2b(
            self.counter.to_bytes(8, "big"), key=self._key, digest_size=8
        ).digest()
        self.counter += 1
        return int.from_bytes(digest, "big")

    def _below(self, n: int) -> int:
        # Rejection sampling keeps every outcome exactly equally likely.
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._block()
            if value < limit:
                return value % n

    def randbelow(self, n: int, kind: str = "below") -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        result = self._below(n)
        self.trace.append([kind, n, result])
        return result

    def die(self, sides: int = 6) -> int:
        """One roll of a fair die, 1..sides."""
        return self.randbelow(sides, "die") + 1

    def choice(self, items: list[Any]) -> Any:
        return items[self.randbelow(len(items), "choice")]

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates shuffle in place; the resulting order is traced once."""
        for i in range(len(items) - 1, 0, -1):
            j = self._below(i + 1)
            items[i], items[j] = items[j], items[i]
        self.trace.append(["shuffle", len(items), list(items)])
