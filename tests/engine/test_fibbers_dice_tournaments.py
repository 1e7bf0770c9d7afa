"""The rules of Fibber's Dice tournaments, without the database (docs/tournaments.md),
each test named after the rule or **D** decision it pins down."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import math
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from games.engine.fibbers_dice import tournament as E
from games.engine.rng import Rng, seed_commitment, seed_from_int

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_seven_or_fewer_registered_play_a_single_round_more_play_several():
    assert E.is_single_round(2) and E.is_single_round(7)
    assert not E.is_single_round(8)


@pytest.mark.parametrize(("players", "points"), [(2, 3), (5, 3), (6, 2), (7, 2)])
def test_single_round_points_are_3_up_to_5_players_and_2_for_6_to_7(players, points):
    assert E.single_round_points(players) == points


def test_the_hosts_points_override_wins_in_single_and_multi_round_events():
    assert E.single_round_points(4, 1) == 1
    assert E.round_points(2) == 2


def test_every_round_of_a_multi_round_event_is_played_at_one_point():
    assert E.round_points() == 1


def test_standard_format_has_4_qualifying_rounds_and_the_final_is_round_5():
    assert E.QUALIFYING_ROUNDS[E.STANDARD] == 4 and E.final_round(E.STANDARD) == 5


def test_short_format_has_3_qualifying_rounds_and_the_final_is_round_4():
    assert E.QUALIFYING_ROUNDS[E.SHORT] == 3 and E.final_round(E.SHORT) == 4


def test_the_winner_of_a_qualifying_round_qualifies():
    places = {10: 3, 11: 1, 12: 2}
    for number in (1, 2, 3, 4):
        assert E.round_qualifiers(E.STANDARD, number, places) == [11]
    assert E.round_qualifiers(E.SHORT, 1, places) == [11]
    assert E.round_qualifiers(E.SHORT, 2, places) == [11]


def test_short_format_the_first_two_of_round_3_its_last_two_standing_qualify():
    assert E.round_qualifiers(E.SHORT, 3, {10: 3, 11: 1, 12: 2, 13: 4}) == [11, 12]


def test_the_final_is_not_a_qualifying_round():
    with pytest.raises(ValueError):
        E.round_qualifiers(E.SHORT, 4, {1: 1, 2: 2})


def test_the_host_may_switch_to_the_short_format_only_before_round_3_starts():
    assert E.may_switch_to_short(E.STANDARD, 0) is None
    assert E.may_switch_to_short(E.STANDARD, 2) is None
    assert "before round 3" in E.may_switch_to_short(E.STANDARD, 3)
    assert "already" in E.may_switch_to_short(E.SHORT, 1)


def _run(fmt, registered, late=None):
    """Play a whole event with a fixed outcome: in each round the lowest id wins, then the
    next lowest, and so on; ``late`` adds entrants before a round number."""
    rounds: list[E.Round] = []
    late = late or {}
    registered = list(registered)
    while True:
        registered += late.pop(len(rounds) + 1, [])
        step = E.next_round(fmt, registered, rounds)
        if step.kind == "done":
            return rounds
        if step.kind == "skip":
            rounds.append(E.Round(step.number, (), None, step.players, skipped=True))
            continue
        places = {p: i + 1 for i, p in enumerate(sorted(step.players))}
        quals = () if step.final else tuple(E.round_qualifiers(fmt, step.number, places))
        rounds.append(E.Round(step.number, step.players, places, quals))


def test_standard_format_the_winners_of_rounds_1_to_4_play_the_final():
    rounds = _run(E.STANDARD, range(1, 11))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5]
    assert [r.qualified for r in rounds[:4]] == [(1,), (2,), (3,), (4,)]
    assert rounds[4].players == (1, 2, 3, 4)


def test_short_format_the_final_is_the_winners_of_rounds_1_and_2_and_the_first_2_of_round_3():
    rounds = _run(E.SHORT, range(1, 11))
    assert [r.number for r in rounds] == [1, 2, 3, 4]
    assert rounds[3].players == (1, 2, 3, 4)
    assert rounds[2].qualified == (3, 4)


def test_d_a_qualified_player_sits_out_the_remaining_qualifying_rounds():
    rounds = _run(E.STANDARD, range(1, 9))
    for r in rounds[:4]:
        earlier = {p for q in rounds[: r.number - 1] for p in q.qualified}
        assert not earlier & set(r.players)
    assert rounds[1].players == tuple(range(2, 9))
    finalists = rounds[4].players
    assert len(set(finalists)) == len(finalists) == 4


def test_d_a_qualifying_round_with_fewer_than_2_eligible_is_skipped_and_the_one_qualifies():
    # Only possible with a small field: three players, standard format.
    rounds = _run(E.STANDARD, [1, 2, 3])
    assert [r.skipped for r in rounds] == [False, False, True, True, False]
    assert rounds[2].qualified == (3,) and rounds[3].qualified == ()
    assert rounds[4].players == (1, 2, 3)


def test_seats_a_qualifying_round_in_registration_order_and_the_final_in_qualification_order():
    """The seats of a round are its ``players`` in order: a qualifying round seats the eligible
    in registration order, the final seats the finalists in the order they qualified (round
    1's winner at seat 0; in the short format round 3's winner before its second)."""
    registered = [50, 10, 40, 20, 30, 60, 70, 80]  # registration order, not id order
    winners = {1: 80, 2: 10, 3: 40, 4: 20}
    rounds: list[E.Round] = []
    for number in range(1, 5):
        step = E.next_round(E.STANDARD, registered, rounds)
        assert step.players == tuple(p for p in registered if p not in E.qualified(rounds))
        places = {p: 1 if p == winners[number] else 2 for p in step.players}
        rounds.append(E.Round(number, step.players, places, (winners[number],)))
    final = E.next_round(E.STANDARD, registered, rounds)
    assert final.final and final.players == (80, 10, 40, 20)  # not (10, 40, 20, 80)
    # short format: round 3's first two in their order there, after rounds 1 and 2's winners
    rounds = [
        E.Round(1, tuple(registered), {}, (70,)),
        E.Round(2, (), {}, (30,)),
        E.Round(3, (), {}, tuple(E.round_qualifiers(E.SHORT, 3, {60: 2, 50: 1, 10: 3}))),
    ]
    assert rounds[2].qualified == (50, 60)
    assert E.next_round(E.SHORT, registered, rounds).players == (70, 30, 50, 60)


def test_late_entrants_play_the_qualifying_rounds_still_to_come():
    rounds = _run(E.STANDARD, range(1, 9), late={3: [20, 21]})
    assert 20 not in rounds[1].players and 20 in rounds[2].players and 21 in rounds[3].players


def test_the_event_waits_while_a_round_is_running():
    running = [E.Round(1, (1, 2, 3))]
    assert E.next_round(E.STANDARD, [1, 2, 3], running).kind == "wait"


def test_final_prize_picks_last_standing_first_first_out_last():
    # the final's places by reverse elimination order: 7 was out first, 4 last standing
    assert E.prize_picks({7: 4, 4: 1, 9: 2, 5: 3}) == [4, 9, 5, 7]


# --- Door prizes -----------------------------------------------------------------------------


def test_d_the_raffle_commitment_is_the_sha256_of_the_seed_published_before_the_draw():
    seed, commitment = E.raffle_seed()
    assert commitment == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert commitment == seed_commitment(seed) and seed != commitment


def test_d_the_raffle_is_reproducible_from_the_revealed_seed():
    seed = seed_from_int(42)
    entrants = [15, 3, 99, 7, 21, 8]
    assert E.raffle(seed, entrants, 3) == E.raffle(seed, list(reversed(entrants)), 3)
    # an independent re-implementation from the documented algorithm gives the same draw
    assert _independent_raffle(seed, entrants, 3) == E.raffle(seed, entrants, 3)


def _independent_raffle(seed: str, entrants, prizes):
    key, counter = bytes.fromhex(seed), 0
    pool = sorted(entrants)

    def below(m):
        nonlocal counter
        while True:
            block = hashlib.blake2b(counter.to_bytes(8, "big"), key=key, digest_size=8)
            counter += 1
            v = int.from_bytes(block.digest(), "big")
            if v < (1 << 64) - ((1 << 64) % m):
                return v % m

    for i in range(min(prizes, len(pool))):
        j = i + below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[: min(prizes, len(pool))]


def test_d_a_player_wins_at_most_one_door_prize():
    for n in range(200):
        winners = E.raffle(seed_from_int(n), list(range(1, 8)), 5)
        assert len(winners) == len(set(winners)) == 5
    # more prizes than entrants: every entrant wins exactly one
    assert sorted(E.raffle(seed_from_int(1), [4, 5, 6], 10)) == [4, 5, 6]


def test_door_prizes_are_raffled_among_all_registered_players_uniformly_over_many_seeds():
    entrants, prizes, draws = list(range(100, 110)), 3, 6000
    wins: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    for n in range(draws):
        winners = E.raffle(seed_from_int(n), entrants, prizes)
        wins.update(winners)
        firsts[winners[0]] += 1
    # each entrant wins with probability 3/10 and the first prize with 1/10: within 5 sigma
    p = prizes / len(entrants)
    sigma = math.sqrt(draws * p * (1 - p))
    assert set(wins) == set(entrants)
    assert all(abs(wins[e] - draws * p) < 5 * sigma for e in entrants), wins
    sigma1 = math.sqrt(draws * 0.1 * 0.9)
    assert all(abs(firsts[e] - draws * 0.1) < 5 * sigma1 for e in entrants), firsts
    # a chi-square over the first prize: 9 degrees of freedom, far below the 0.1% tail (27.9)
    chi2 = sum((firsts[e] - draws / 10) ** 2 / (draws / 10) for e in entrants)
    assert chi2 < 27.9


def test_a_raffle_refuses_an_entrant_listed_twice():
    with pytest.raises(ValueError):
        E.raffle(seed_from_int(1), [1, 1, 2], 1)


def test_the_entrants_digest_is_over_the_sorted_ids():
    assert E.entrants_digest([3, 1, 2]) == hashlib.sha256(b"1,2,3").hexdigest()


# --- docs/tournaments.md "Verifying the raffle": the worked example is the server's draw ---------


def _raffle_section() -> tuple[str, str, str]:
    """The section, its Python snippet and the output the page shows for it."""
    text = (DOCS / "tournaments.md").read_text()
    section = text[text.index("## Verifying the raffle") :]
    section = section[: section.index("\n## ", 1)]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    output = re.search(r"```text\n(.*?)```", section, re.S)
    assert code and output
    return section, code.group(1), output.group(1)


def _run_snippet(code: str) -> tuple[dict, str]:
    namespace: dict = {"__name__": "docs_events_raffle"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/tournaments.md", "exec"), namespace)
    return namespace, printed.getvalue()


def test_the_raffle_example_in_the_docs_prints_what_the_page_shows_and_the_server_draws():
    _, code, output = _raffle_section()
    namespace, printed = _run_snippet(code)
    assert printed == output  # every intermediate number on the page is the snippet's
    seed, entrants, prizes = namespace["seed"], namespace["entrants"], namespace["prizes"]
    winners = E.raffle(seed, entrants, prizes)
    assert output.endswith(f"winners: {winners}\n")  # the server draws the same winners
    assert f"commitment: {seed_commitment(seed)}\n" in output
    # the server's generator: the same bounds give the same results, one counter throughout
    bounds = [int(m) for m in re.findall(r"below\((\d+)\)", output)]
    results = [int(r) for r in re.findall(r"kept, v mod \d+ = (\d+)", output)]
    rng = Rng(seed)
    assert [rng.randbelow(m, "raffle") for m in bounds] == results
    assert rng.counter == output.count("  block ")
    # a keyed BLAKE2b with an 8-byte output over the counter, as the page says
    first = re.search(r"block 0: BLAKE2b-64\(key, 0{16}\) = ([0-9a-f]{16})", output)
    key = bytes.fromhex(seed)
    assert first and hashlib.blake2b(bytes(8), key=key, digest_size=8).hexdigest() == first[1]


def test_the_docs_raffle_snippet_is_the_servers_draw_for_many_seeds_and_entrant_lists():
    _, code, _ = _raffle_section()
    draw = _run_snippet(code)[0]["draw"]
    spec = importlib.util.spec_from_file_location(
        "verify_raffle", DOCS / "examples/verify_raffle.py"
    )
    assert spec and spec.loader
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for n in range(300):
        pick = random.Random(n)
        entrants = pick.sample(range(1, 100_000), pick.randint(1, 64))
        prizes, seed = pick.randint(0, 70), seed_from_int(n)
        with contextlib.redirect_stdout(io.StringIO()):
            documented = draw(seed, entrants, prizes)
        assert (
            documented == E.raffle(seed, entrants, prizes) == example.draw(seed, entrants, prizes)
        )


def _misread_draw(
    seed, entrants, prizes, *, text_key=False, restart=False, truncate=False, text_sort=False
):
    key = seed.encode() if text_key else bytes.fromhex(seed)
    counter = 0

    def below(m):
        nonlocal counter
        if restart:
            counter = 0
        while True:
            message = counter.to_bytes(8, "big")
            if truncate:
                block = hashlib.blake2b(message, key=key).digest()[:8]
            else:
                block = hashlib.blake2b(message, key=key, digest_size=8).digest()
            counter += 1
            v = int.from_bytes(block, "big")
            if v < 2**64 - 2**64 % m:
                return v % m

    pool = sorted(entrants, key=str if text_sort else int)
    k = min(prizes, len(pool))
    for i in range(k):
        j = i + below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


@pytest.mark.parametrize(
    "reading, misreading",
    [
        ("keyed with the 64 characters of hex", {"text_key": True}),
        ("the counter restarting at 0 in every `below`", {"restart": True}),
        ("the first 8 bytes of a 64-byte BLAKE2b", {"truncate": True}),
        ("the ids sorted as text", {"text_sort": True}),
    ],
)
def test_the_misreadings_the_docs_list_give_the_winners_they_say(reading, misreading):
    section, code, _ = _raffle_section()
    namespace = _run_snippet(code)[0]
    seed, entrants, prizes = namespace["seed"], namespace["entrants"], namespace["prizes"]
    assert _misread_draw(seed, entrants, prizes) == E.raffle(seed, entrants, prizes)
    wrong = _misread_draw(seed, entrants, prizes, **misreading)
    assert wrong != E.raffle(seed, entrants, prizes)
    assert f"{reading}, `{wrong}`" in " ".join(section.split())  # line breaks aside
