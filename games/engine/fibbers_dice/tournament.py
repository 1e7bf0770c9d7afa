"""Fibber's Dice tournaments, the pure rules (docs/tournaments.md; the original rules call them
"events").

No database and no clock: players are plain ids (the server's user ids), a round is what its
match produced. The server (``games.services.tournaments``) stores a tournament and calls these
functions to decide what comes next; tests run them on their own.

- **Single round** (7 or fewer registered at the start): one match of all of them, points 3
  (up to 5) or 2 (6–7) unless the host announced an override; late entrants join it.
- **Several rounds** (8 or more): every round one match of all eligible players at one point
  (or the override). Standard format: the winners of rounds 1–4 play the final (round 5);
  short format: rounds 1–3, the final being the winners of rounds 1 and 2 and the first 2 of
  round 3. A qualified player sits out the remaining qualifying rounds (D); a qualifying round
  with fewer than 2 eligible players is skipped and the eligible one, if any, qualifies (D).
- **Seats**: a round seats its players in registration order, the final in qualification order.
- **Prizes**: the final's elimination order gives the picks (last standing picks first).
- **Door prizes**: a commit–reveal raffle among everyone registered (:func:`raffle`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence

from ..rng import Rng, new_seed, seed_commitment
from .rules import default_points

STANDARD, SHORT = "standard", "short"
FORMATS = (STANDARD, SHORT)
#: The most registered players that still make a single-round tournament.
SINGLE_ROUND_MAX = 7
#: Qualifying rounds before the final, by format.
QUALIFYING_ROUNDS = {STANDARD: 4, SHORT: 3}
#: The round before which the host may still switch to the short format.
SHORT_SWITCH_BEFORE = 3


def is_single_round(registered: int) -> bool:
    """7 or fewer registered when the tournament starts: one round."""
    return registered <= SINGLE_ROUND_MAX


def single_round_points(players: int, override: int | None = None) -> int:
    """Starting points of a single-round tournament: 3 up to 5 players, 2 for 6–7, or the host's
    override (late entrants do not change it)."""
    return override if override is not None else default_points(min(players, 7))


def round_points(override: int | None = None) -> int:
    """Every round of a multi-round tournament is played at one point, unless overridden."""
    return override if override is not None else 1


def final_round(fmt: str) -> int:
    """The number of the final: 5 in the standard format, 4 in the short one."""
    return QUALIFYING_ROUNDS[fmt] + 1


def may_switch_to_short(fmt: str, rounds_begun: int) -> str | None:
    """Why the host may not switch to the short format now (``None``: they may). The switch is
    allowed before round 3 starts (skipped rounds count as begun)."""
    if fmt == SHORT:
        return "The tournament already plays the short format."
    if rounds_begun >= SHORT_SWITCH_BEFORE:
        return "The short format can only be chosen before round 3 starts."
    return None


def round_qualifiers(fmt: str, number: int, placements: dict[int, int]) -> list[int]:
    """Who qualifies for the final from qualifying round ``number`` given each player's place
    (1 = last standing): its winner; in the short format's round 3, its first 2."""
    if number > QUALIFYING_ROUNDS[fmt]:
        raise ValueError(f"round {number} is not a qualifying round of the {fmt} format")
    places = 2 if fmt == SHORT and number == QUALIFYING_ROUNDS[SHORT] else 1
    ranked = sorted(placements, key=lambda player: (placements[player], player))
    return [p for p in ranked if placements[p] <= places][:places]


@dataclasses.dataclass(frozen=True)
class Round:
    """A round as far as the rules need it: its number, who played it (none if skipped),
    their places once it has ended, and who qualified from it."""

    number: int
    players: tuple[int, ...]
    placements: dict[int, int] | None = None
    qualified: tuple[int, ...] = ()
    skipped: bool = False

    @property
    def over(self) -> bool:
        return self.skipped or self.placements is not None


@dataclasses.dataclass(frozen=True)
class Next:
    """What the tournament does next: ``play`` round ``number`` with ``players``; ``skip`` it (fewer
    than 2 eligible: ``players`` qualify without playing); or ``done``."""

    kind: str
    number: int = 0
    players: tuple[int, ...] = ()
    final: bool = False


def qualified(rounds: Sequence[Round]) -> list[int]:
    """The finalists so far, in the order they qualified."""
    return [p for r in rounds for p in r.qualified]


def next_round(fmt: str, registered: Sequence[int], rounds: Sequence[Round]) -> Next:
    """The next step of a multi-round tournament: ``registered`` in registration order (late
    entrants included), ``rounds`` the rounds so far (the last may be running: then the tournament
    waits for it, which is :class:`Next` ``wait``). ``players`` is in seat order: registration
    order for a qualifying round, qualification order for the final (round 1's winner first;
    in the short format round 3's winner before its second)."""
    if rounds and not rounds[-1].over:
        return Next("wait", rounds[-1].number)
    number = len(rounds) + 1
    final = final_round(fmt)
    if number > final:
        return Next("done")
    if number == final:
        return Next("play", number, tuple(qualified(rounds)), final=True)
    done = set(qualified(rounds))
    eligible = tuple(p for p in registered if p not in done)  # D: the qualified sit out
    if len(eligible) < 2:
        return Next("skip", number, eligible)
    return Next("play", number, eligible)


def prize_picks(placements: dict[int, int]) -> list[int]:
    """The main prizes' pick order from the final: the last one standing picks first, the one
    who lost first picks last (by place, then by id for a shared place)."""
    return sorted(placements, key=lambda player: (placements[player], player))


# --- Door prizes: a commit–reveal raffle ---------------------------------------------------


def raffle_seed() -> tuple[str, str]:
    """A fresh secret raffle seed and its commitment (SHA-256 of the seed's bytes), published
    when registration opens."""
    seed = new_seed()
    return seed, seed_commitment(seed)


def raffle(seed: str, entrants: Sequence[int], prizes: int) -> list[int]:
    """The door-prize winners, prize 1 first: anyone can recompute them from the revealed
    ``seed`` and the entrants. D: a player wins at most one prize.

    The entrants are sorted by id; then for ``i`` in ``0 … k-1`` (``k`` = the fewer of
    ``prizes`` and entrants) ``j = i + below(n - i)`` and entrants ``i`` and ``j`` swap (a
    partial Fisher–Yates shuffle); the winners are the first ``k``. ``below(m)`` reads 8-byte
    blocks ``BLAKE2b(key=seed's 32 bytes, data=counter as 8 bytes big-endian,
    digest_size=8)``, one counter from 0 for the whole draw (it never restarts), as big-endian
    integers, and returns the first ``v < 2^64 - 2^64 mod m`` as ``v mod m`` (rejection
    sampling: exactly uniform). docs/tournaments.md has a worked example, tested against this."""
    pool = sorted(set(entrants))
    if len(pool) != len(entrants):
        raise ValueError("an entrant is listed twice")
    rng = Rng(seed)
    winners = min(max(prizes, 0), len(pool))
    for i in range(winners):
        j = i + rng.randbelow(len(pool) - i, "raffle")
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:winners]


def entrants_digest(entrants: Sequence[int]) -> str:
    """SHA-256 of the sorted entrant ids as text (``"3,7,12"``): published with the draw."""
    text = ",".join(str(p) for p in sorted(entrants))
    return hashlib.sha256(text.encode()).hexdigest()
