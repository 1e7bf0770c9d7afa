"""The matcher's promises, checked on any tickets hypothesis can draw: no ticket at two tables,
no blocked pair seated together, rating windows and seat counts respected, and no table left
that could still be formed."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from matchmaking.matcher import Table, Ticket, compatible, match_pass, window

GAMES = ["fabfib", "fibbers_dice"]


@st.composite
def tickets_and_blocks(draw: st.DrawFn) -> tuple[list[Ticket], list[tuple[int, int]]]:
    count = draw(st.integers(0, 9))
    tickets = []
    for i in range(count):
        lo = draw(st.integers(2, 4))
        hi = draw(st.integers(lo, 5))
        bots = draw(st.sampled_from([None, 0.0, 30.0]))
        tickets.append(
            Ticket(
                id=i + 1,
                player=draw(st.integers(1, 8)),
                game=draw(st.sampled_from(GAMES)),  # two games: most tickets share a pool
                time_control=draw(st.sampled_from(["live", "async"])),
                seats_min=lo,
                seats_max=hi,
                rating=draw(st.sampled_from([1000.0, 1080.0, 1200.0, 1500.0, 1900.0])),
                waited=draw(st.sampled_from([0.0, 5.0, 20.0, 60.0])),
                bots_after=bots,
                bot_level="easy",
                rated=draw(st.booleans()),
            )
        )
    players = sorted({t.player for t in tickets}) or [1]
    pairs = st.tuples(st.sampled_from(players), st.sampled_from(players))
    blocks = draw(st.lists(pairs, max_size=6))
    return tickets, blocks


def _blocked(blocks: list[tuple[int, int]]) -> set[frozenset[int]]:
    return {frozenset(b) for b in blocks}


def _human_table_possible(group: tuple[Ticket, ...], blocked: set[frozenset[int]]) -> bool:
    lo = max(t.seats_min for t in group)
    hi = min(t.seats_max for t in group)
    return lo <= len(group) <= hi and all(
        compatible(a, b, blocked) for a, b in combinations(group, 2)
    )


def _check_table(table: Table, by_id: dict[int, Ticket], blocked: set[frozenset[int]]) -> None:
    members = [by_id[i] for i in table.tickets]
    assert members
    assert table.seats == len(members) + len(table.bots)
    for m in members:
        assert m.game == table.game and m.time_control == table.time_control
        assert m.rated == table.rated, "a rated and an unrated ticket at one table"
        assert m.seats_min <= table.seats <= m.seats_max
    for a, b in combinations(members, 2):
        assert a.player != b.player
        assert frozenset((a.player, b.player)) not in blocked
        assert abs(a.rating - b.rating) <= min(window(a), window(b))
    if table.bots:
        assert all(m.bot_ready for m in members)
    else:
        assert len(members) >= 2


@settings(max_examples=150)  # pure: more examples than the profile, so a broken promise shows
@given(tickets_and_blocks())
def test_every_table_keeps_the_promises_and_none_is_left(
    drawn: tuple[list[Ticket], list[tuple[int, int]]],
) -> None:
    tickets, blocks = drawn
    blocked = _blocked(blocks)
    by_id = {t.id: t for t in tickets}
    tables, complete = match_pass(tickets, blocks)
    assert complete
    seated = [i for table in tables for i in table.tickets]
    assert len(seated) == len(set(seated)), "a ticket at two tables"
    for table in tables:
        _check_table(table, by_id, blocked)
    left = [t for t in tickets if t.id not in set(seated)]
    assert not any(t.bot_ready for t in left), "a ticket ready for bots left waiting"
    for size in range(2, len(left) + 1):
        for group in combinations(left, size):
            assert not _human_table_possible(group, blocked), f"table left unformed: {group}"


def test_a_window_widens_with_waiting() -> None:
    early = Ticket(1, 1, "fabfib", "live", 2, 2, 1000.0, 0.0)
    late = Ticket(2, 2, "fabfib", "live", 2, 2, 1300.0, 0.0)
    assert match_pass([early, late])[0] == []
    waited = [
        Ticket(1, 1, "fabfib", "live", 2, 2, 1000.0, 30.0),
        Ticket(2, 2, "fabfib", "live", 2, 2, 1300.0, 30.0),
    ]
    assert [t.tickets for t in match_pass(waited)[0]] == [(1, 2)]


def test_blocked_players_are_never_seated_together() -> None:
    pair = [
        Ticket(1, 1, "skull", "live", 2, 2, 1000.0, 0.0),
        Ticket(2, 2, "skull", "live", 2, 2, 1000.0, 0.0),
    ]
    assert match_pass(pair, [(2, 1)])[0] == []
    assert len(match_pass(pair)[0]) == 1


def test_bots_fill_after_the_players_own_limit() -> None:
    alone = Ticket(1, 1, "fibber", "live", 3, 4, 1000.0, 10.0, bots_after=15.0, bot_level="easy")
    assert match_pass([alone])[0] == []
    later = Ticket(1, 1, "fibber", "live", 3, 4, 1000.0, 20.0, bots_after=15.0, bot_level="easy")
    (table,) = match_pass([later])[0]
    assert table.seats == 3 and table.tickets == (1,) and table.bots == ("easy", "easy")


def test_a_rated_and_an_unrated_ticket_are_never_seated_together() -> None:
    rated = Ticket(1, 1, "fabfib", "live", 2, 2, 1000.0, 60.0)
    unrated = Ticket(2, 2, "fabfib", "live", 2, 2, 1000.0, 60.0, rated=False)
    assert not compatible(rated, unrated, set())
    assert match_pass([rated, unrated])[0] == []
    also_unrated = Ticket(3, 3, "fabfib", "live", 2, 2, 1000.0, 0.0, rated=False)
    (table,) = match_pass([rated, unrated, also_unrated])[0]
    assert table.tickets == (2, 3) and table.rated is False
