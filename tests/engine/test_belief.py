"""Belief models of the expert bots (games/engine/<game>/belief.py).

Each weighs the hidden information by how likely the ``strong`` bot's policy (the opponents'
known code) makes the actions the table has seen. For each model:

* it reads the seat's view only: two states the seat cannot tell apart give the same belief
  (for the same random stream, where the model draws at all);
* it is reproducible: the same view and seed give the same result;
* it knows more than a uniform guess: the truthful hand (or roll) gets more weight than one
  that would have had to bluff, and along strong-bot matches its probabilities are better
  calibrated (a lower Brier score) than the strong bot's own estimates.
"""

from __future__ import annotations

import random

import pytest

from games.engine import registry
from games.engine.bots import make_bot
from games.engine.fabfib import belief as FB
from games.engine.fabfib import bots as FS
from games.engine.fabfib import cards as FC
from games.engine.fibber import belief as PB
from games.engine.fibber import bots as PS
from games.engine.fibber import cards as PC
from games.engine.fibbers_dice import belief as DB
from games.engine.fibbers_dice import bots as DS
from games.engine.fibbers_dice import scores as DSC
from games.engine.rng import seed_from_int


def strong_match(game: str, index: int):
    """(state, seat, view, the strong bot's action) along one 4-seat strong-bot match."""
    rules = registry.get(game)
    seed = seed_from_int(500 + index)
    bots = [make_bot(game, "strong", random.Random(f"{seed}:{s}")) for s in range(4)]
    state = rules.new_game(4, {}, seed).state
    scheduler = random.Random(index)
    while not rules.is_over(state):
        to_act = rules.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else scheduler.choice(to_act)
        view = rules.view(state, seat)
        action = bots[seat].choose(view)
        yield state, seat, view, action
        state = rules.apply(state, seat, action).state


def brier(rows: list[tuple[float, bool]]) -> float:
    return sum((p - truth) ** 2 for p, truth in rows) / len(rows)


# --- Fibber -----------------------------------------------------------------------------


def test_fibber_a_count_is_likelier_from_a_hand_that_holds_it_truthfully():
    """Three Ghosts played from a hand of three Ghosts and three others: the strong bot plays
    all its true cards. From a hand without a Ghost or a Wild, three cards are a rare fib."""
    rules = registry.get("fibber")
    state = rules.new_game(4, {}, seed_from_int(1)).state
    view = rules.view(state, 0)
    plays = [{"seat": 1, "count": 3, "rank": "ghost"}]
    view = {**view, "public": {**view["public"], "phase": "call", "pile_plays": plays}}
    ghost, bigfoot, witch = (PS.INDEX[n] for n in ("ghost", "bigfoot", "witch"))
    truthful = [0] * PS.KINDS
    truthful[ghost], truthful[bigfoot] = 3, 3
    bluffing = [0] * PS.KINDS
    bluffing[bigfoot], bluffing[witch] = 3, 3
    weights = {}
    for name, hand in (("truthful", truthful), ("bluffing", bluffing)):
        before = PB.view_before(view, plays, 0, hand)
        assert before["seat"] == 1 and before["public"]["silver_nose_rank"] == "ghost"
        weights[name] = PB.play_weights(before)[0][2]
    assert weights["truthful"] > 0.5
    assert weights["truthful"] > 10 * weights["bluffing"]


def test_fibber_posterior_reads_the_view_only_and_replays():
    rules = registry.get("fibber")
    checked = 0
    for state, seat, view, _ in strong_match("fibber", 0):
        if view["public"]["phase"] != "call" or checked >= 40:
            continue
        checked += 1
        twin = rules.hidden_variant(state, seat, random.Random(checked))
        p = PB.fib_posterior(view, random.Random(7), 24)
        assert p == PB.fib_posterior(rules.view(twin, seat), random.Random(7), 24)
        assert p == PB.fib_posterior(view, random.Random(7), 24)
        assert p is None or 0.0 <= p <= 1.0
    assert checked == 40


def test_fibber_posterior_is_better_calibrated_than_the_strong_estimate():
    rows_strong, rows_belief = [], []
    # Strong tables call, so a match ends in some hundred plays: windows of several matches.
    walks = (step for index in range(1, 40) for step in strong_match("fibber", index))
    for state, _, view, _ in walks:
        public = view["public"]
        if len(rows_belief) >= 300:
            break
        if public["phase"] != "call":
            continue
        play = public["last_play"]
        truth = PC.is_fib(state.pile[len(state.pile) - play["count"] :], PS.INDEX[play["rank"]])
        mind = PS.StandardMind(view, random.Random(0))
        before = public["hand_sizes"][play["seat"]] + play["count"]
        strong = mind.fib_chance(play["seat"], play["count"], PS.INDEX[play["rank"]], before)
        belief = PB.fib_posterior(view, random.Random(len(rows_belief)), 24)
        rows_strong.append((strong, truth))
        rows_belief.append((strong if belief is None else belief, truth))
    assert len(rows_belief) == 300
    # (the strong estimate counts fibs of any count since tables call; the belief still wins)
    assert brier(rows_belief) < 0.9 * brier(rows_strong)


# --- Fibber's Dice ----------------------------------------------------------------------


def test_dice_policy_and_posterior_are_distributions():
    tables = DS.tables_for((DS.DEFAULT_MODEL,) * 3)
    for roll in range(DB.N):
        policy = DB.announce_policy(roll, None, tables)
        assert abs(sum(policy.values()) - 1) < 1e-9
    post = DB.roll_posterior(DSC.rank("double 2s"), DSC.rank("63"), tables)
    assert abs(sum(post) - 1) < 1e-9 and min(post) >= 0


def test_dice_an_announcement_the_policy_makes_with_the_truth_is_believed_more():
    """For every standing score and announcement, the posterior moves mass towards the rolls
    from which the strong bot announces it; where it announces only with the roll itself (or
    higher), the posterior chance of a true announcement exceeds the prior's."""
    tables = DS.tables_for((DS.DEFAULT_MODEL,) * 3)
    raised = 0
    for announced in range(DB.N - 1):
        prior = sum(DS.P_EQ[announced:])
        truthful = sum(
            DS.P_EQ[r] * DB.announce_policy(r, None, tables).get(announced, 0.0)
            for r in range(announced, DB.N)
        )
        lying = sum(
            DS.P_EQ[r] * DB.announce_policy(r, None, tables).get(announced, 0.0)
            for r in range(announced)
        )
        if truthful > 0 and lying == 0:
            assert DB.chance_true(announced, None, tables) > prior
            raised += 1
    assert raised > 0


def test_dice_belief_reads_the_public_record_only_and_is_calibrated():
    rules = registry.get("fibbers_dice")
    rows_strong, rows_belief, rows_calls = [], [], []
    for index in range(12):
        # One observer per seat, watching that seat's views, as an expert in that seat would.
        observers = [DB.Observer(random.Random(0)) for _ in range(4)]
        strongs = [DS.StrongBot(random.Random(0)) for _ in range(4)]
        for state, seat, view, action in strong_match("fibbers_dice", index):
            observer, strong = observers[seat], strongs[seat]
            observer.watch(view)
            public = view["public"]
            if public["phase"] != "respond":
                continue
            twin = rules.hidden_variant(state, seat, random.Random(index))
            p = DB.standing_true(view, observer)
            assert p == DB.standing_true(rules.view(twin, seat), observer)
            dice = DB.sample_roll(view, observer, random.Random(3))
            assert dice == DB.sample_roll(rules.view(twin, seat), observer, random.Random(3))
            announced = DSC.rank(public["announcement"])
            truth = DSC.rank(DSC.read(state.rolls[public["announcer"]])) >= announced
            history = public["announcements"]
            previous = DSC.rank(history[-2]["score"]) if len(history) >= 2 else None
            strong.observe(view)
            _, models = strong.opponents(view)
            rows_strong.append((DS.chance_true(models[-1], announced, previous), truth))
            rows_belief.append((p, truth))
            chance = DB.next_call_chance(public, public["announcer"], announced, previous, observer)
            rows_calls.append((chance, action["type"] == "call"))
    assert len(rows_belief) > 100
    assert brier(rows_belief) < 0.6 * brier(rows_strong)
    assert brier(rows_calls) < 0.1  # the next seat's answer is predicted well


# --- Fab Fib ----------------------------------------------------------------------------


def test_fabfib_an_opening_claim_is_true_and_an_unexchanged_accepted_hand_is_its_reading():
    rules = registry.get("fabfib")
    state = rules.new_game(4, {}, seed_from_int(2)).state
    view = rules.view(state, 0)
    public = dict(view["public"])
    public["claims"] = [{"seat": 1, "exchanged": 0, "claim": "742"}]
    public["claim"] = "742"
    assert FB.hand_posterior({**view, "public": public}) == ({(7, 4, 2): 1.0}, 1.0)
    # The next claimant kept the cards (no exchange) and claimed higher: the strong bot only
    # does that with the truth, and the truth it received reads 742, not higher: a bluff.
    public["claims"] = [*public["claims"], {"seat": 2, "exchanged": 0, "claim": "851"}]
    public["claim"] = "851"
    result = FB.hand_posterior({**view, "public": public})
    assert result is None or result[1] < 0.01
    # With the exchange the strong bot makes from 742 the claim may well be true.
    size, _ = FB._exchange_of((7, 4, 2), FS.claim_index("742"), FS.pool_of([7, 4, 2]))
    public["claims"][-1] = {"seat": 2, "exchanged": size, "claim": "751"}
    public["claim"] = "751"
    result = FB.hand_posterior({**view, "public": public})
    assert result is not None
    dist, p_true = result
    assert 0.5 < p_true <= 1.0
    assert dist[(7, 5, 1)] == max(dist.values())
    assert abs(sum(dist.values()) - 1) < 1e-9


def test_fabfib_next_seat_answers_are_predicted_exactly_and_beliefs_read_the_view_only():
    rules = registry.get("fabfib")
    predicted = 0
    rows_strong, rows_belief = [], []
    pending: tuple[int, bool] | None = None
    for index in range(4):
        for state, seat, view, action in strong_match("fabfib", index):
            public = view["public"]
            if pending is not None and public["phase"] == "respond" and seat == pending[0]:
                assert (action["type"] == "call") == pending[1]
                predicted += 1
            pending = None
            if action["type"] == "claim" and public["claims"]:
                nxt = FB.next_alive(public, seat)
                if nxt not in {c["seat"] for c in FS.made_claims(public)}:
                    exchanged = public["claims"][-1].get("exchanged", 0)
                    pending = (nxt, FB.next_calls(view, action["value"], exchanged))
            if FS.can(view, "accept"):
                twin = rules.hidden_variant(state, seat, random.Random(index))
                result = FB.hand_posterior(view)
                assert result == FB.hand_posterior(rules.view(twin, seat))
                truth = FC.reading(state.hand) == state.claim
                mine = FS.my_memory(view)
                known = FS.revealed_in_discard(public) + (list(mine[0]) if mine else [])
                pool = FS.pool_of(known)
                claims = FS.made_claims(public)
                strong = FS.StrongBot(random.Random(0)).truth_chain(claims, pool, mine)[-1]
                rows_strong.append((strong, truth))
                rows_belief.append((strong if result is None else result[1], truth))
    assert predicted > 50
    assert brier(rows_belief) < 0.6 * brier(rows_strong)


# --- Robustness: does the public record fit the strong-bot model? --------------------------


def expert_match(game: str, field: str, index: int, **setup):
    """The expert (seat ``index % 4``) against three ``field`` bots; returns the expert."""
    rules = registry.get(game)
    seed = seed_from_int(700 + index)
    hero = index % 4
    levels = ["expert" if s == hero else field for s in range(4)]
    bots = [make_bot(game, level, random.Random(f"{seed}:{s}")) for s, level in enumerate(levels)]
    for name, value in setup.items():
        setattr(bots[hero], name, value)
    state = rules.new_game(4, {}, seed).state
    scheduler = random.Random(index)
    while not rules.is_over(state):
        to_act = rules.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else scheduler.choice(to_act)
        state = rules.apply(state, seat, bots[seat].choose(rules.view(state, seat))).state
    return bots[hero]


def test_fabfib_was_called_reads_the_answer_off_the_public_record():
    call = {"kind": "call", "round": 3, "claimant": 1, "claim": "653"}
    assert FB.was_called({"round": 4, "last_reveal": call}, 1, 3, "653")
    assert not FB.was_called({"round": 3, "last_reveal": None}, 1, 3, "653")  # round goes on
    assert not FB.was_called({"round": 4, "last_reveal": {**call, "claimant": 2}}, 1, 3, "653")
    assert not FB.was_called({"round": 4, "last_reveal": {**call, "claim": "752"}}, 1, 3, "653")
    thousand = {"kind": "thousand", "round": 3}
    assert not FB.was_called({"round": 4, "last_reveal": thousand}, 1, 3, "653")


def test_fabfib_expert_sees_no_misfit_among_strong_bots_and_falls_back_among_basic_ones():
    # The next seat's answer is predicted exactly for a strong bot: no misfit, ever.
    assert all(expert_match("fabfib", "strong", i).misfits == 0 for i in range(8))
    # Basic bots answer otherwise: the expert notices in most matches.
    assert sum(expert_match("fabfib", "basic", i).misfits > 0 for i in range(8)) >= 5


def test_dice_fit_scores_favour_the_model_that_predicted_the_observation():
    assert DB.fit_step(0.9, True) > 0 > DB.fit_step(0.9, False)
    assert DB.fit_step(0.5, True) == 0.0
    assert DB.fit_step(1.0, False) == DB.fit_step(0.9, False)  # clipped, never -inf
    tables = DS.tables_for((DS.DEFAULT_MODEL,) * 3)
    previous = DSC.rank("63")
    low = previous + 1
    # Under the strong policy, summed over the rolls, its announcements score above a uniform
    # announcer, and the ones it makes least often score below.
    marginal = {
        b: sum(
            DS.P_EQ[r] * DB.announce_policy(r, previous, tables).get(b, 0.0) for r in range(DB.N)
        )
        for b in range(low, DB.N)
    }
    made = max(marginal, key=marginal.__getitem__)
    least = min(marginal, key=marginal.__getitem__)
    assert (
        DB.announcement_fit(made, previous, tables)
        > 0
        > DB.announcement_fit(least, previous, tables)
    )
    # Expected over the strong policy's own announcements, the score is positive (a KL divergence).
    expected = sum(p * DB.announcement_fit(b, previous, tables) for b, p in marginal.items())
    assert expected > 0


def test_dice_was_called_and_the_fit_separates_strong_from_basic_tables():
    reveal = {"kind": "call", "sequence": 5, "seat": 2, "score": "54"}
    assert DB.was_called({"last_reveal": reveal}, 2, 5, "54")
    assert not DB.was_called({"last_reveal": None}, 2, 5, "54")
    assert not DB.was_called({"last_reveal": {**reveal, "sequence": 6}}, 2, 5, "54")
    assert not DB.was_called({"last_reveal": {**reveal, "kind": "max"}}, 2, 5, "54")
    off = float("inf")  # never fall back: the fit over the whole match
    strong = [expert_match("fibbers_dice", "strong", i, misfit=off).fit for i in range(8)]
    basic = [expert_match("fibbers_dice", "basic", i, misfit=off).fit for i in range(8)]
    assert sum(f > 0 for f in strong) >= 6
    assert sum(f < 0 for f in basic) >= 6


def test_fabfib_strong_claims_fit_the_model_better_than_a_uniform_holder():
    for index in range(3):
        weighed: dict[tuple[int, int], float] = {}
        for _, _, view, _ in strong_match("fabfib", index):
            if not FS.can(view, "accept"):
                continue
            out = FB.hand_posterior_fit(view)
            if out is None:  # the claims fit no hand the (pruned) model allows
                assert FB.hand_posterior(view) is None
                continue
            dist, p_true, fits = out
            assert (dist, p_true) == FB.hand_posterior(view)
            for i, fit in fits.items():
                weighed.setdefault((view["public"]["round"], i), fit)
        assert weighed and sum(weighed.values()) > 5.0


@pytest.mark.slow  # plays whole bot matches: CI runs it, the quick loop does not
def test_fibber_strong_counts_fit_the_policy_and_basic_counts_fit_the_basic_rules():
    # Along a strong-bot match the windows' counts are likelier under the strong policy than
    # under a uniform chooser, on average; against basic bots the expert's running fit of the
    # strong policy against the basic rules goes below its threshold (it falls back), and
    # against strong bots it does not.
    fits = []
    for _, _, view, _ in strong_match("fibber", 2):
        if view["public"]["phase"] != "call" or len(fits) >= 40:
            continue
        out = PB.fib_posterior_fit(view, random.Random(3), 24)
        assert (out is None) == (PB.fib_posterior(view, random.Random(3), 24) is None)
        if out is not None:
            assert out[0] == PB.fib_posterior(view, random.Random(3), 24)
            fits.append(out[1])
    assert len(fits) >= 20 and sum(fits) / len(fits) > 0
    off = float("inf")
    below = sum(
        sum(expert_match("fibber", "basic", i, misfit=off).basic_fits.values()) < -2
        for i in range(3)
    )
    assert below >= 2
    assert sum(expert_match("fibber", "strong", 0, misfit=off).basic_fits.values()) > -2
