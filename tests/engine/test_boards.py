"""Every game maps each bluff board it offers to statistics it really records."""

from __future__ import annotations

import pytest

from games.engine import registry
from games.engine.core import BLUFF_BOARDS


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
def test_bluff_boards_divide_statistics_the_game_records_in_every_variant(rules):
    assert set(rules.bluff_boards) <= set(BLUFF_BOARDS)
    assert {"detective", "boldest"} <= set(rules.bluff_boards), "every game has calls and bluffs"
    for options in rules.option_examples:
        lo = rules.seat_range(options)[0]
        seats = lo + lo % 2 if options.get("two_tribes") else lo  # two tribes: an even count
        state = rules.new_game(seats, dict(options), "ab" * 32).state
        keys = set(rules.stats(state)[0])
        for board, (numerator, denominator) in rules.bluff_boards.items():
            for spec in (numerator, denominator):
                named = {spec} if isinstance(spec, str) else set(spec)
                assert named <= keys, f"{rules.game_id} {board}: {named - keys} not recorded"


def test_skull_has_no_bluffer_board_because_no_statistic_says_a_bluff_stood():
    assert "bluffer" not in registry.get("skull").bluff_boards


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
def test_with_one_seat_each_person_placements_are_the_seat_placements(rules):
    seats = rules.min_seats
    assert rules.person_placements_of(seats, {}, [1, 2, 2, 4][:seats] + [5] * (seats - 4)) == (
        [1, 2, 2, 4][:seats] + [5] * (seats - 4)
    )
