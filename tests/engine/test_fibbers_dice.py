"""Fibber's Dice, rule by rule (docs/rules/fibbers_dice.md).

Each test is named after the rule or **D** decision it pins down. Dice and the first starter
are scripted by replacing ``Rng.randbelow`` for the duration of a test, so every situation is
set up exactly; everything else runs through the public engine contract.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import registry
from games.engine.core import IllegalAction, InvalidOptions
from games.engine.fibbers_dice import scores as S
from games.engine.fibbers_dice.rules import FibbersDice, default_points
from games.engine.rng import Rng, seed_from_int

RULES = registry.get("fibbers_dice")
ANNOUNCE = {"type": "announce"}
BELIEVE = {"type": "believe"}
CALL = {"type": "call"}


def announce(score):
    return {"type": "announce", "score": score}


class Script:
    """Scripted chance: queued dice (faces 1–6) and the first starter."""

    def __init__(self) -> None:
        self.faces: list[int] = []
        self.starter: int | None = None

    def roll(self, *pairs: tuple[int, int]) -> None:
        for pair in pairs:
            self.faces.extend(pair)


@pytest.fixture
def script(monkeypatch):
    script = Script()
    original = Rng.randbelow

    def scripted(self, n, kind="below"):
        if kind == "die" and script.faces:
            result = script.faces.pop(0) - 1
        elif kind == "first_starter" and script.starter is not None:
            result = script.starter
        else:
            return original(self, n, kind)
        self.trace.append([kind, n, result])
        return result

    monkeypatch.setattr(Rng, "randbelow", scripted)
    return script


class Table:
    """A match driven through the engine, remembering the events of the last step."""

    def __init__(self, script, seats=3, points=None, starter=0, first=(3, 1)):
        self.script = script
        script.starter = starter
        script.roll(first)
        options = {} if points is None else {"points": points}
        step = RULES.new_game(seats, options, seed_from_int(4))
        self.state = step.state
        self.events = step.events

    def act(self, seat, action):
        step = RULES.apply(self.state, seat, action)
        self.state, self.events = step.state, step.events
        return step

    def announce(self, seat, score):
        return self.act(seat, announce(score))

    def believe(self, seat, dice):
        self.script.roll(dice)
        return self.act(seat, BELIEVE)

    def call(self, seat, next_roll=(3, 1)):
        self.script.roll(next_roll)
        return self.act(seat, CALL)

    def refused(self, seat, action) -> str:
        before = RULES.state_digest(self.state)
        with pytest.raises(IllegalAction) as error:
            RULES.apply(self.state, seat, action)
        assert RULES.state_digest(self.state) == before
        return error.value.reason

    def view(self, seat):
        return RULES.view(self.state, seat)

    @property
    def points(self):
        return self.state.points

    def stats(self, seat):
        return RULES.stats(self.state)[seat]

    def event(self, kind):
        return next(e for e in self.events if e.type == kind)


def scores_offered(table, seat):
    [spec] = RULES.legal_actions(table.state, seat)
    assert spec["type"] == "announce"
    return spec["params"]["score"]["one_of"]


# --- Score order ----------------------------------------------------------------------


def test_score_order_has_exactly_21_scores_from_31_up_to_max():
    expected = (
        *("31", "32", "41", "42", "43", "51", "52", "53", "54", "61", "62", "63", "64", "65"),
        *("double 1s", "double 2s", "double 3s", "double 4s", "double 5s", "double 6s"),
        "max",
    )
    assert expected == S.SCORES
    assert [S.rank(s) for s in S.SCORES] == list(range(21))


def test_doubles_are_not_numbers_and_beat_every_non_double():
    assert not S.is_score("33") and not S.is_score("11")
    assert S.rank("double 1s") > S.rank("65")
    assert S.rank("max") > S.rank("double 6s")


def test_a_roll_is_read_high_die_first_and_2_plus_1_is_max():
    assert S.read([2, 6]) == S.read([6, 2]) == "62"
    assert S.read([3, 3]) == "double 3s"
    assert S.read([1, 2]) == "max"
    every_roll = {S.read([a, b]) for a in range(1, 7) for b in range(1, 7)}
    assert every_roll == set(S.SCORES)  # every roll is a score, every score can be rolled


# --- Players, points and options --------------------------------------------------------


def test_two_to_ten_players():
    for seats in (2, 10):
        assert RULES.new_game(seats, {}, seed_from_int(1)).state.seats == seats
    for seats in (1, 11):
        with pytest.raises(InvalidOptions):
            RULES.new_game(seats, {}, seed_from_int(1))


def test_default_points_are_3_up_to_5_players_2_for_6_or_7_and_1_for_8_or_more():
    expected = {2: 3, 3: 3, 4: 3, 5: 3, 6: 2, 7: 2, 8: 1, 9: 1, 10: 1}
    for seats, points in expected.items():
        assert default_points(seats) == points
        state = RULES.new_game(seats, {}, seed_from_int(1)).state
        assert state.points == [points] * seats
        assert state.options == {"points": points}


def test_points_option_overrides_the_default_from_1_to_10():
    assert RULES.new_game(8, {"points": 5}, seed_from_int(1)).state.points == [5] * 8
    assert RULES.new_game(3, {"points": 1}, seed_from_int(1)).state.points == [1] * 3
    for bad in (0, 11, "3", 2.0, True, None):
        with pytest.raises(InvalidOptions, match="points"):
            RULES.new_game(3, {"points": bad}, seed_from_int(1))


def test_unknown_options_are_refused():
    with pytest.raises(InvalidOptions, match="life"):
        RULES.new_game(3, {"life": 3}, seed_from_int(1))


# --- First starter, hidden rolls, views -----------------------------------------------


def test_first_starter_is_chosen_at_random_and_rolls_at_once():
    starters = set()
    for n in range(60):
        step = RULES.new_game(4, {}, seed_from_int(n))
        started = step.events[0]
        assert started.type == "match_started"
        starters.add(started.public["starter"])
        assert step.state.current == step.state.starter == started.public["starter"]
        assert step.state.rolls[step.state.starter] is not None
        assert ["first_starter", 4, started.public["starter"]] in step.chance
    assert starters == {0, 1, 2, 3}


def test_rolls_are_hidden_a_seat_sees_only_its_own_current_roll(script):
    table = Table(script, seats=3, starter=0, first=(6, 2))
    table.announce(0, "62")
    table.believe(1, (5, 5))
    assert table.view(0)["private"]["roll"] == {"dice": [6, 2], "score": "62"}
    assert table.view(1)["private"]["roll"] == {"dice": [5, 5], "score": "double 5s"}
    assert table.view(2)["private"]["roll"] is None
    for seat in (None, 2):
        view = table.view(seat)
        assert '"dice"' not in json.dumps(view)
        assert view["private"] is None or view["private"]["roll"] is None


def test_a_roll_reaches_only_the_roller_through_events(script):
    table = Table(script, seats=3, starter=0, first=(6, 2))
    table.announce(0, "62")
    table.believe(1, (4, 1))
    believe = table.event("believe")
    assert believe.for_seat(1)["private"] == {"dice": [4, 1], "score": "41"}
    for seat in (None, 0, 2):
        assert "private" not in believe.for_seat(seat)
        assert "41" not in json.dumps(believe.for_seat(seat))


def test_views_show_every_announcement_and_the_points_of_all(script):
    table = Table(script, seats=3, starter=1, first=(4, 3))
    table.announce(1, "43")
    table.believe(2, (5, 1))
    table.announce(2, "52")
    public = table.view(None)["public"]
    assert public["announcements"] == [{"seat": 1, "score": "43"}, {"seat": 2, "score": "52"}]
    assert public["announcement"] == "52" and public["announcer"] == 2
    assert public["points"] == [3, 3, 3]
    assert public["score_order"] == list(S.SCORES)


def test_dice_shown_by_a_call_are_public(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "61")
    table.call(1)
    reveal = table.view(None)["public"]["last_reveal"]
    assert reveal["kind"] == "call" and reveal["dice"] == [5, 3] and reveal["shown"] == "53"
    assert table.event("call").for_seat(None)["dice"] == [5, 3]


# --- A sequence -------------------------------------------------------------------------


def test_the_starter_may_announce_any_score_truth_higher_or_lower(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    assert scores_offered(table, 0) == list(S.SCORES)
    for score in ("31", "53", "double 6s"):
        twin = Table(script, seats=3, starter=0, first=(5, 3))
        twin.announce(0, score)
        assert twin.state.announcement == score


def test_next_player_decides_before_rolling_to_believe_or_call(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "53")
    assert table.state.rolls[1] is None
    assert [a["type"] for a in RULES.legal_actions(table.state, 1)] == ["believe", "call"]
    reason = table.refused(1, announce("54"))
    assert "before rolling" in reason


def test_believe_rolls_then_announce_strictly_higher_true_or_a_fib(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "53")
    table.believe(1, (3, 2))
    assert table.state.rolls[1] == [3, 2]
    assert scores_offered(table, 1) == list(S.SCORES[S.rank("53") + 1 :])
    table.announce(1, "54")  # a fib: 32 was rolled
    assert table.state.current == 2 and table.state.announcement == "54"


def test_after_double_6s_only_max_is_left(script):
    table = Table(script, seats=2, starter=0, first=(6, 6))
    table.announce(0, "double 6s")
    table.believe(1, (4, 2))
    assert scores_offered(table, 1) == ["max"]


def test_next_means_the_next_seat_clockwise_still_in_the_game(script):
    table = Table(script, seats=4, points=1, starter=1, first=(3, 1))
    table.announce(1, "41")  # a fib
    table.call(2, next_roll=(3, 2))  # seat 1 is out; seat 2 made them lose and starts
    table.announce(2, "32")
    table.believe(3, (4, 1))
    table.announce(3, "41")
    table.believe(0, (5, 1))
    table.announce(0, "51")
    assert table.state.current == 2  # seat 1 is skipped
    assert RULES.legal_actions(table.state, 1) == []


# --- Calls --------------------------------------------------------------------------------


def test_call_is_lost_by_caller_when_dice_equal_the_announcement(script):
    table = Table(script, seats=3, starter=0, first=(6, 2))
    table.announce(0, "62")
    table.call(1)
    assert table.points == [3, 2, 3]
    assert table.state.last_reveal["true"] is True and table.state.last_reveal["loser"] == 1


def test_call_is_lost_by_caller_when_dice_beat_the_announcement(script):
    table = Table(script, seats=3, starter=0, first=(4, 4))
    table.announce(0, "62")  # lower than the roll: allowed, and not a fib
    table.call(1)
    assert table.points == [3, 2, 3]


def test_call_is_lost_by_announcer_when_dice_are_below_the_announcement(script):
    table = Table(script, seats=3, starter=0, first=(6, 1))
    table.announce(0, "62")
    table.call(1)
    assert table.points == [2, 3, 3]
    assert table.state.last_reveal["true"] is False and table.state.last_reveal["loser"] == 0


def test_a_call_judges_the_announcers_dice_not_the_callers_or_earlier_ones(script):
    table = Table(script, seats=3, starter=0, first=(6, 6))
    table.announce(0, "double 6s")
    table.believe(1, (3, 1))
    table.announce(1, "max")  # a false Max, shown at once: seat 1 loses
    assert table.points == [3, 2, 3]
    table = Table(script, seats=3, starter=0, first=(6, 6))
    table.announce(0, "31")
    table.believe(1, (3, 1))
    table.announce(1, "32")
    table.call(2)
    assert table.points == [3, 2, 3]  # seat 1 showed 31 < 32, whatever seat 0 held


# --- Max ----------------------------------------------------------------------------------


def test_true_max_is_shown_at_once_and_the_next_player_loses_a_point(script):
    table = Table(script, seats=3, starter=0, first=(2, 1))
    table.announce(0, "max")
    assert table.points == [3, 2, 3]
    reveal = table.view(2)["public"]["last_reveal"]
    assert reveal["kind"] == "max" and reveal["dice"] == [2, 1] and reveal["true"] is True
    assert [e.type for e in table.events] == ["announce", "max", "sequence_started"]


def test_false_max_is_shown_at_once_and_the_announcer_loses_a_point_D(script):
    table = Table(script, seats=3, starter=0, first=(6, 6))
    table.announce(0, "max")
    assert table.points == [2, 3, 3]
    reveal = table.view(1)["public"]["last_reveal"]
    assert reveal["dice"] == [6, 6] and reveal["true"] is False and reveal["loser"] == 0


def test_max_announced_after_believing_is_shown_at_once_too(script):
    table = Table(script, seats=3, starter=0, first=(4, 3))
    table.announce(0, "43")
    table.believe(1, (1, 2))
    table.announce(1, "max")
    assert table.points == [3, 3, 2]
    assert table.state.starter == 2


# --- Illegal announcements (D: refused, never penalised) ----------------------------------


def test_same_or_lower_announcement_is_refused_naming_the_legal_scores_D(script):
    table = Table(script, seats=3, starter=0, first=(4, 3))
    table.announce(0, "63")
    table.believe(1, (5, 2))
    for score in ("63", "52", "31"):
        reason = table.refused(1, announce(score))
        assert "strictly higher than 63" in reason
        assert "Legal scores: 64, 65, double 1s" in reason and reason.endswith("max.")
    assert table.points == [3, 3, 3]


def test_reversed_number_26_is_answered_did_you_mean_62_D(script):
    table = Table(script, seats=3, starter=0, first=(4, 3))
    reason = table.refused(0, announce("26"))
    assert "There is no 26 in this game" in reason and "did you mean 62?" in reason
    table.announce(0, "63")
    table.believe(1, (5, 2))
    reason = table.refused(1, announce("26"))
    assert "did you mean 62?" in reason and "not be enough" in reason
    assert "Legal scores: 64" in reason


def test_a_number_that_is_not_a_score_is_refused_with_a_hint_D(script):
    table = Table(script, seats=3, starter=0, first=(4, 3))
    assert "did you mean double 3s?" in table.refused(0, announce("33"))
    assert "doubles are not numbers" in table.refused(0, announce("33"))
    assert "did you mean max?" in table.refused(0, announce("12"))
    assert "did you mean max?" in table.refused(0, announce("21"))
    assert 'did you mean "max"?' in table.refused(0, announce("Max"))
    for nonsense in ("77", "70", "xyz", "", "6 2"):
        reason = table.refused(0, announce(nonsense))
        assert "in this game" in reason and "Legal scores: 31" in reason


def test_a_score_sent_as_a_number_is_refused_asking_for_a_string(script):
    table = Table(script, seats=3, starter=0, first=(4, 3))
    assert 'Send the score as a string: "62"' in table.refused(0, announce(62))
    reason = table.refused(0, announce(26))
    assert "did you mean 62?" in reason and "strings" in reason
    for odd in (None, True, 6.2, ["62"], {"score": "62"}):
        assert 'A score is a string such as "62"' in table.refused(0, announce(odd))


def test_illegal_actions_are_rejected_never_penalised_D(script):
    table = Table(script, seats=2, points=1, starter=0, first=(4, 3))
    table.announce(0, "63")
    table.believe(1, (5, 2))
    stats_before = RULES.stats(table.state)
    for bad in (announce("62"), announce("26"), CALL, BELIEVE, ANNOUNCE, {"type": "fold"}):
        table.refused(1, bad)
    assert table.points == [1, 1] and not RULES.is_over(table.state)
    assert RULES.stats(table.state) == stats_before


def test_the_starter_has_nothing_to_call_or_believe(script):
    table = Table(script, seats=3, starter=0, first=(4, 3))
    assert "nothing to call" in table.refused(0, CALL)
    assert "nothing to call" in table.refused(0, BELIEVE)


# --- Who starts after a point is lost ---------------------------------------------------


def test_the_player_who_lost_a_point_starts_the_next_sequence(script):
    table = Table(script, seats=4, starter=0, first=(6, 2))
    table.announce(0, "62")
    table.call(1, next_roll=(5, 4))
    assert table.state.starter == table.state.current == 1
    assert table.state.rolls[1] == [5, 4] and table.state.announcements == []
    table.announce(1, "double 2s")
    table.call(2, next_roll=(3, 2))
    assert table.state.starter == 1  # seat 1 fibbed and lost again


def test_a_caller_knocked_out_lets_the_announcer_who_made_them_lose_start(script):
    table = Table(script, seats=4, points=1, starter=0, first=(6, 2))
    table.announce(0, "62")
    table.call(1)
    assert table.state.eliminated == [1]
    assert table.state.starter == 0


def test_an_announcer_knocked_out_by_a_call_lets_the_caller_start(script):
    table = Table(script, seats=4, points=1, starter=0, first=(4, 2))
    table.announce(0, "62")
    table.call(1)
    assert table.state.eliminated == [0]
    assert table.state.starter == 1


def test_a_true_max_that_knocks_out_the_next_player_lets_the_announcer_start(script):
    table = Table(script, seats=4, points=1, starter=2, first=(2, 1))
    table.announce(2, "max")
    assert table.state.eliminated == [3]
    assert table.state.starter == 2


def test_a_false_max_that_knocks_out_the_announcer_lets_the_next_player_start(script):
    table = Table(script, seats=4, points=1, starter=3, first=(5, 5))
    table.announce(3, "max")
    assert table.state.eliminated == [3]
    assert table.state.starter == 0  # the next player clockwise


# --- Elimination, end and placement -----------------------------------------------------


def test_a_player_with_no_points_is_out(script):
    table = Table(script, seats=3, points=2, starter=0, first=(3, 1))
    table.announce(0, "32")
    table.call(1, next_roll=(3, 1))  # seat 0: 1 point left
    table.announce(0, "32")
    table.call(1)
    assert table.points == [0, 2, 2]
    assert table.view(None)["public"]["out"] == [True, False, False]
    assert table.state.eliminated == [0]
    assert RULES.to_act(table.state) == [1]


def test_last_player_with_points_wins_placed_in_reverse_order_of_elimination(script):
    table = Table(script, seats=3, points=1, starter=0, first=(3, 1))
    table.announce(0, "32")
    table.call(1, next_roll=(3, 1))  # seat 0 out first; seat 1 starts
    table.announce(1, "32")
    table.call(2)  # seat 1 out second
    assert RULES.is_over(table.state)
    assert RULES.placements(table.state) == [3, 2, 1]
    assert table.event("match_over").public == {"placements": [3, 2, 1]}
    assert RULES.to_act(table.state) == [] and RULES.legal_actions(table.state, 2) == []


def test_seed_004_one_point_table_ends_at_the_first_lost_point_for_two_players(script):
    table = Table(script, seats=2, points=1, starter=1, first=(6, 5))
    table.announce(1, "65")
    table.call(0)
    assert RULES.is_over(table.state) and RULES.placements(table.state) == [2, 1]


def test_eight_or_more_players_play_at_one_point_each(script):
    table = Table(script, seats=8, starter=0, first=(2, 1))
    table.announce(0, "max")
    assert table.points == [1, 0, 1, 1, 1, 1, 1, 1]
    assert table.state.eliminated == [1] and table.state.starter == 0


# --- Bluff statistics -------------------------------------------------------------------


def test_stats_count_announcements_and_fibs_above_the_roll(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "54")  # fib
    table.believe(1, (6, 1))
    table.announce(1, "61")  # true
    assert table.stats(0)["announcements"] == 1 and table.stats(0)["fibs"] == 1
    assert table.stats(1)["announcements"] == 1 and table.stats(1)["fibs"] == 0


def test_an_announcement_below_the_roll_is_not_a_fib(script):
    table = Table(script, seats=3, starter=0, first=(6, 6))
    table.announce(0, "31")
    assert table.stats(0)["fibs"] == 0
    table.call(1)
    assert table.points == [3, 2, 3] and table.stats(1)["calls_right"] == 0


def test_fibs_called_and_calls_right(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "61")
    table.call(1, next_roll=(4, 1))
    assert table.stats(0)["fibs_called"] == 1 and table.stats(0)["fibs_passed"] == 0
    assert table.stats(1)["calls"] == 1 and table.stats(1)["calls_right"] == 1
    table.announce(0, "41")  # true; seat 0 starts again after losing
    table.call(1)
    assert table.stats(1)["calls"] == 2 and table.stats(1)["calls_right"] == 1
    assert table.stats(0)["fibs_called"] == 1


def test_fibs_passed_when_the_next_player_believes(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "61")
    table.believe(1, (6, 2))
    assert table.stats(0)["fibs_passed"] == 1
    table.announce(1, "62")  # true: believing it passes no fib
    table.believe(2, (3, 1))
    assert table.stats(1)["fibs_passed"] == 0


def test_a_false_max_is_a_fib_neither_called_nor_passed(script):
    table = Table(script, seats=3, starter=0, first=(6, 5))
    table.announce(0, "max")
    assert table.stats(0)["fibs"] == 1
    assert table.stats(0)["fibs_called"] == 0 and table.stats(0)["fibs_passed"] == 0
    assert table.stats(1)["calls"] == 0


def test_a_true_max_is_not_a_fib(script):
    table = Table(script, seats=3, starter=0, first=(2, 1))
    table.announce(0, "max")
    assert table.stats(0)["fibs"] == 0 and table.stats(0)["max_rolls"] == 1


def test_max_rolls_count_every_roll_showing_2_plus_1_announced_or_not(script):
    table = Table(script, seats=3, starter=0, first=(1, 2))
    assert table.stats(0)["max_rolls"] == 1
    table.announce(0, "31")  # a Max rolled, not announced
    table.believe(1, (2, 1))
    table.announce(1, "32")
    assert table.stats(0)["max_rolls"] == 1 and table.stats(1)["max_rolls"] == 1


def test_points_lost_are_counted(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "61")
    table.call(1, next_roll=(2, 1))
    table.announce(0, "max")
    assert table.stats(0)["points_lost"] == 1 and table.stats(1)["points_lost"] == 1


def test_bluff_statistics_use_the_names_of_rules_md_and_are_not_in_any_view(script):
    assert set(RULES.stats(Table(script).state)[0]) == {
        "announcements",
        "fibs",
        "fibs_called",
        "fibs_passed",
        "calls",
        "calls_right",
        "points_lost",
        "max_rolls",
    }
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "61")
    for seat in (None, 0, 1, 2):
        text = json.dumps(table.view(seat))
        assert "fibs" not in text and "max_rolls" not in text


def test_hidden_variant_redraws_others_rolls_but_keeps_the_seats_own(script):
    table = Table(script, seats=3, starter=0, first=(5, 3))
    table.announce(0, "61")
    table.believe(1, (6, 6))
    rules = FibbersDice()
    seen = {
        tuple(rules.hidden_variant(table.state, 1, random.Random(n)).rolls[0]) for n in range(40)
    }
    assert len(seen) > 1
    for n in range(10):
        twin = rules.hidden_variant(table.state, 1, random.Random(n))
        assert twin.rolls[1] == [6, 6] and twin.seed != table.state.seed
