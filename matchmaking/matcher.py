"""The matcher: waiting tickets in, tables out. Pure Python (no Django, no I/O, no clock).

A table is formed from tickets of one pool (same game, time control and ``rated``: a rated
ticket never sits with an unrated one) whose players

- all accept its seat count (the intersection of their ranges),
- are pairwise within each other's rating window (:func:`window`: it widens with waiting time,
  so ``|a - b| <= min(window(a), window(b))``),
- never block one another (either way), and are distinct players.

A table of humans only is preferred. A ticket that allows bots and has waited past its own
limit (``bots_after``) may also sit with bots of its level filling the free seats, with other
such tickets it is compatible with.

Tickets are taken oldest first; for each, a depth-first search finds a table around it among
the tickets not yet seated (then widened to as many compatible players as the seats allow).
The search is exhaustive up to :data:`SEARCH_BUDGET` steps per ticket, so when no ticket hits
the budget a pass leaves no table that could still be formed: a ticket that found none could
not find one later in the pass either (the candidates only shrink).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: The rating window right after queueing, how fast it widens, and its widest (rating points).
BASE_WINDOW = 100.0
WIDEN_PER_SECOND = 10.0
MAX_WINDOW = 600.0
#: Steps of the search around one ticket before it gives up (a bound on a pass's time).
SEARCH_BUDGET = 2_000


@dataclass(frozen=True, slots=True)
class Ticket:
    id: int
    player: int
    game: str
    time_control: str
    seats_min: int
    seats_max: int
    rating: float
    #: Seconds waited so far.
    waited: float
    #: Bots may fill the free seats after ``bots_after`` seconds (None: never).
    bots_after: float | None = None
    bot_level: str = ""
    #: A rated table (the default) or an unrated one.
    rated: bool = True

    @property
    def pool(self) -> tuple[str, str, bool]:
        return (self.game, self.time_control, self.rated)

    @property
    def bot_ready(self) -> bool:
        return self.bots_after is not None and self.waited >= self.bots_after


@dataclass(frozen=True, slots=True)
class Table:
    game: str
    time_control: str
    seats: int
    #: The tickets seated, oldest first (their players take seats 0, 1, … in this order).
    tickets: tuple[int, ...]
    #: The bot levels of the remaining seats.
    bots: tuple[str, ...] = ()
    #: Every ticket at the table asked for a rated match (or every one for an unrated one).
    rated: bool = True


def window(ticket: Ticket) -> float:
    """How far from its own rating a ticket accepts a partner, after its wait."""
    return min(MAX_WINDOW, BASE_WINDOW + WIDEN_PER_SECOND * max(0.0, ticket.waited))


def blocked_pair(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def compatible(
    a: Ticket, b: Ticket, blocks: frozenset[frozenset[int]] | set[frozenset[int]]
) -> bool:
    """Whether two tickets may sit at one table (seat counts aside)."""
    return (
        a.player != b.player
        and a.pool == b.pool
        and abs(a.rating - b.rating) <= min(window(a), window(b))
        and blocked_pair(a.player, b.player) not in blocks
    )


class _Search:
    def __init__(self, blocks: frozenset[frozenset[int]] | set[frozenset[int]]) -> None:
        self.blocks = blocks
        self.steps = 0
        self.exhausted = False  # some ticket hit the budget: the pass may have missed a table

    def fits(self, members: list[Ticket], c: Ticket) -> bool:
        return all(compatible(m, c, self.blocks) for m in members)

    def find(
        self,
        members: list[Ticket],
        lo: int,
        hi: int,
        cands: Sequence[Ticket],
        start: int,
        need: int,
    ) -> list[Ticket] | None:
        """A set of at least ``need`` (and ``lo``) members, pairwise compatible, fitting the
        seats, extending ``members`` with candidates from ``start`` on."""
        if len(members) >= max(lo, need):
            return members
        for i in range(start, len(cands)):
            self.steps += 1
            if self.steps > SEARCH_BUDGET:
                self.exhausted = True
                return None
            c = cands[i]
            new_lo, new_hi = max(lo, c.seats_min), min(hi, c.seats_max)
            if len(members) + 1 > new_hi or new_lo > new_hi or not self.fits(members, c):
                continue
            found = self.find([*members, c], new_lo, new_hi, cands, i + 1, need)
            if found is not None:
                return found
        return None


def _widen(
    members: list[Ticket], cands: Sequence[Ticket], search: _Search, *, humans_only: bool
) -> list[Ticket]:
    """``members`` with as many more compatible candidates as the seats allow (a table of
    humans only also keeps every member's lowest seat count reached)."""
    lo = max(m.seats_min for m in members)
    hi = min(m.seats_max for m in members)
    for c in cands:
        new_lo, new_hi = max(lo, c.seats_min), min(hi, c.seats_max)
        if len(members) >= hi:
            break
        if c in members or len(members) + 1 > new_hi or new_lo > new_hi:
            continue
        if humans_only and len(members) + 1 < new_lo:
            continue
        if search.fits(members, c):
            members = [*members, c]
            lo, hi = new_lo, new_hi
    return members


def _order(t: Ticket) -> tuple[float, int]:
    return (-t.waited, t.id)


def match_pass(
    tickets: Iterable[Ticket], blocks: Iterable[tuple[int, int]] = ()
) -> tuple[list[Table], bool]:
    """The tables to form now, and whether the pass was complete (no search hit its budget)."""
    blocked = {blocked_pair(a, b) for a, b in blocks}
    pools: dict[tuple[str, str, bool], list[Ticket]] = defaultdict(list)
    for t in tickets:
        if 1 <= t.seats_min <= t.seats_max:
            pools[t.pool].append(t)
    tables: list[Table] = []
    complete = True
    for pool in pools.values():
        found, done = _match_pool(pool, blocked)
        tables.extend(found)
        complete = complete and done
    return tables, complete


def _match_pool(pool: list[Ticket], blocked: set[frozenset[int]]) -> tuple[list[Table], bool]:
    by_rating = sorted(pool, key=lambda t: (t.rating, t.id))
    ratings = [t.rating for t in by_rating]
    seated: set[int] = set()
    tables: list[Table] = []
    complete = True
    for anchor in sorted(pool, key=_order):
        if anchor.id in seated:
            continue
        reach = window(anchor)
        lo_i = bisect.bisect_left(ratings, anchor.rating - reach)
        hi_i = bisect.bisect_right(ratings, anchor.rating + reach)
        cands = sorted(
            (t for t in by_rating[lo_i:hi_i] if t.id not in seated and t.id != anchor.id),
            key=_order,
        )
        search = _Search(blocked)
        members = search.find([anchor], anchor.seats_min, anchor.seats_max, cands, 0, 2)
        bots: tuple[str, ...] = ()
        if members is None and anchor.bot_ready:
            ready = [c for c in cands if c.bot_ready]
            members = _widen([anchor], ready, search, humans_only=False)
            seats = max(len(members), *(m.seats_min for m in members))
            bots = (anchor.bot_level,) * (seats - len(members))
        elif members is not None:
            members = _widen(members, cands, search, humans_only=True)
        complete = complete and not search.exhausted
        if members is None:
            continue
        members.sort(key=_order)
        seated.update(m.id for m in members)
        tables.append(
            Table(
                game=anchor.game,
                time_control=anchor.time_control,
                seats=len(members) + len(bots),
                tickets=tuple(m.id for m in members),
                bots=bots,
                rated=anchor.rated,
            )
        )
    return tables, complete
