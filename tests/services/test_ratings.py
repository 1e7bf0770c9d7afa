"""Ratings from the end-of-match work: known placements give openskill's numbers (ties, bots,
two_tribes, takeovers), exactly once per match, and nothing is lost by a crash."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from games import rating, services
from games.engine import registry
from games.models import Career, Match, RatingPoint, RecordedMatch
from games.reads import leaderboards

from .finished import BOT, finished_match, people

pytestmark = pytest.mark.django_db

MODEL = PlackettLuce()


def expected(ranks: list[float], before: list[tuple[float, float]] | None = None) -> list[tuple]:
    """What openskill itself says, straight from the library."""
    before = before or [(MODEL.mu, MODEL.sigma)] * len(ranks)
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=ranks)]


def career(user, game="fabfib") -> Career:
    return Career.objects.get(user=user, game=game)


def test_the_winner_of_a_two_player_match_goes_up_and_the_loser_down_as_openskill_says():
    a, b = people(2)
    match = finished_match("fibbers_dice", [a, b], [2, 1])
    assert services.match_record_results(match_id=match.pk)
    (mu_a, sigma_a), (mu_b, sigma_b) = expected([2, 1])
    ca, cb = career(a, "fibbers_dice"), career(b, "fibbers_dice")
    assert (ca.mu, ca.sigma, cb.mu, cb.sigma) == (mu_a, sigma_a, mu_b, sigma_b)
    assert ca.rating == pytest.approx(mu_a - 3 * sigma_a) and ca.rating < cb.rating
    assert (ca.rated_matches, ca.wins, cb.wins) == (1, 0, 1)
    points = {p.user_id: p for p in RatingPoint.objects.filter(match=match)}
    assert points[a.pk].rating == ca.rating and points[b.pk].place == 1


def test_players_sharing_a_place_get_the_same_update():
    a, b, c = people(3)
    match = finished_match("fabfib", [a, b, c], [1, 2, 2])
    assert services.match_record_results(match_id=match.pk)
    new = expected([1, 2, 2])
    assert [(career(u).mu, career(u).sigma) for u in (a, b, c)] == new
    assert career(b).rating == career(c).rating < career(a).rating
    assert career(b).places == career(c).places == {"2": 1}


def test_bots_are_not_rated_and_the_humans_are_rated_by_their_order_among_themselves():
    a, b = people(2)
    # the bots came first and third; of the humans, a (3rd) beat b (4th)
    match = finished_match("fabfib", [a, BOT, b, BOT], [3, 1, 4, 2])
    assert services.match_record_results(match_id=match.pk)
    (mu_a, sigma_a), (mu_b, sigma_b) = expected([1, 2])
    assert (career(a).mu, career(a).sigma) == (mu_a, sigma_a)
    assert (career(b).mu, career(b).sigma) == (mu_b, sigma_b)
    assert Career.objects.count() == 2, "bot seats have no career"
    assert (career(a).place_sum, career(b).place_sum) == (3, 4), "places at the whole table"
    assert RecordedMatch.objects.get(match=match).rated


def test_a_solo_match_against_bots_counts_but_is_not_rated():
    (a,) = people(1)
    match = finished_match("skull", [a, BOT, BOT], [1, 2, 3])
    assert services.match_record_results(match_id=match.pk)
    mine = career(a, "skull")
    assert (mine.matches, mine.wins, mine.rated_matches) == (1, 1, 0)
    assert (mine.mu, mine.sigma, mine.rating) == (rating.MU, rating.SIGMA, rating.START)
    assert not RatingPoint.objects.exists()
    assert not RecordedMatch.objects.get(match=match).rated


def test_a_person_with_two_tribes_is_rated_once_from_the_engines_person_placement():
    a, b, c = people(3)
    # person p holds seats p and p + 3. a: places (2, 5); b: (2, 3); c: (1, 6).
    placements = [2, 2, 1, 5, 3, 6]
    stats = [{"bids": n} for n in range(6)]
    match = finished_match(
        "skull", [a, b, c, a, b, c], placements, stats=stats, options={"two_tribes": True}
    )
    rules = registry.get("skull")
    person = rules.person_placements_of(6, match.options, placements)
    assert person == [3, 2, 1], "ranked by the better tribe, then the other"
    assert services.match_record_results(match_id=match.pk)
    new = expected([3, 2, 1])
    assert [(career(u, "skull").mu, career(u, "skull").sigma) for u in (a, b, c)] == new
    assert [career(u, "skull").place_sum for u in (a, b, c)] == [3, 2, 1]
    assert career(a, "skull").stats == {"bids": 0 + 3}, "both seats' statistics, summed"
    assert RatingPoint.objects.filter(match=match).count() == 3, "one point per person"


def test_a_match_the_bots_mostly_played_for_a_winner_does_not_raise_their_rating():
    a, b = people(2)
    # a took 1 decision, bots took 3 for a after deadlines; a still won
    match = finished_match("fibber", [a, b], [1, 2], decisions={0: (1, 3), 1: (4, 0)})
    assert services.match_record_results(match_id=match.pk)
    ca, cb = career(a, "fibber"), career(b, "fibber")
    assert (ca.mu, ca.sigma, ca.rating, ca.rated_matches) == (
        rating.MU,
        rating.SIGMA,
        rating.START,
        0,
    )
    assert not RatingPoint.objects.filter(user=a).exists()
    assert (ca.matches, ca.wins, ca.assisted, ca.assisted_wins) == (1, 1, 1, 1)
    assert (cb.mu, cb.sigma) == expected([1, 2])[1], "b is rated against a as usual"


def test_a_match_the_bots_mostly_played_for_a_loser_still_lowers_their_rating():
    a, b = people(2)
    rate_up = finished_match("fibber", [a, b], [1, 2])
    assert services.match_record_results(match_id=rate_up.pk)
    before = [(career(u, "fibber").mu, career(u, "fibber").sigma) for u in (a, b)]
    lost = finished_match("fibber", [a, b], [2, 1], decisions={0: (0, 5), 1: (5, 0)})
    assert services.match_record_results(match_id=lost.pk)
    ca = career(a, "fibber")
    assert (ca.mu, ca.sigma) == expected([2, 1], before)[0]
    assert ca.rating < before[0][0] - 3 * before[0][1]
    assert (ca.rated_matches, ca.assisted, ca.assisted_wins) == (2, 1, 0)


def test_half_the_decisions_by_bots_is_not_most_of_them():
    a, b = people(2)
    match = finished_match("fibber", [a, b], [1, 2], decisions={0: (2, 2)})
    assert services.match_record_results(match_id=match.pk)
    assert career(a, "fibber").rated_matches == 1 and career(a, "fibber").assisted == 0


def test_the_end_of_match_work_runs_once_however_often_it_is_queued():
    a, b, c = people(3)
    match = finished_match("fabfib", [a, b, c], [1, 2, 3])
    assert services.match_record_results(match_id=match.pk) is True
    snapshot = [(c.user_id, c.mu, c.sigma, c.matches) for c in Career.objects.order_by("user")]
    for _ in range(3):  # a duplicated delivery, a re-queue by the sweep ...
        assert services.match_record_results(match_id=match.pk) is False
    assert [(c.user_id, c.mu, c.sigma, c.matches) for c in Career.objects.order_by("user")] == (
        snapshot
    )
    assert RatingPoint.objects.filter(match=match).count() == 3
    with pytest.raises(IntegrityError), transaction.atomic():
        RecordedMatch.objects.create(match=match, game="fabfib")  # the database refuses too


def test_a_crash_after_the_rating_write_loses_nothing_and_the_retry_gives_the_same_numbers(
    monkeypatch,
):
    a, b, c = people(3)
    match = finished_match("fabfib", [a, b, c], [2, 1, 3])
    real = Match.save

    def crash(self, *args, **kwargs):  # dies after ratings and history were written
        if kwargs.get("update_fields") == ["results_recorded"]:
            raise RuntimeError("worker killed")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Match, "save", crash)
    with pytest.raises(RuntimeError):
        services.match_record_results(match_id=match.pk)
    assert not Career.objects.exists() and not RatingPoint.objects.exists()
    assert not RecordedMatch.objects.exists()
    assert not Match.objects.get(pk=match.pk).results_recorded, "the sweep will queue it again"
    monkeypatch.setattr(Match, "save", real)
    assert services.match_record_results(match_id=match.pk)
    assert [(career(u).mu, career(u).sigma) for u in (a, b, c)] == expected([2, 1, 3])


def test_unfinished_and_aborted_matches_never_count():
    a, b = people(2)
    active = finished_match("fabfib", [a, b, BOT], [1, 2, 3], status="active")
    aborted = finished_match("fabfib", [a, b, BOT], [1, 2, 3], status="aborted")
    assert not services.match_record_results(match_id=active.pk)
    assert not services.match_record_results(match_id=aborted.pk)
    assert not Career.objects.exists() and not RecordedMatch.objects.exists()


def test_ratings_follow_the_order_matches_were_recorded_in():
    a, b = people(2)
    first = finished_match("fabfib", [a, b, BOT], [1, 2, 3])
    second = finished_match("fabfib", [a, b, BOT], [2, 1, 3])
    assert services.match_record_results(match_id=second.pk)
    assert services.match_record_results(match_id=first.pk)
    after_second = expected([2, 1])
    assert (career(a).mu, career(a).sigma) == expected([1, 2], after_second)[0]
    records = list(RecordedMatch.objects.order_by("pk").values_list("match_id", flat=True))
    assert records == [second.pk, first.pk]


def test_ratings_apply_in_the_order_the_work_ran_which_the_history_shows_not_the_end_order():
    """docs/ratings.md "Order": two matches of the same players ending a millisecond apart,
    their end-of-match work run in the other order (as two workers may). The ratings follow the
    work; each player's rating history lists the matches in that order, so recomputing in the
    history's order gives the server's numbers to the bit, and in end order it does not."""
    a, b = people(2)
    ended = services.db_now() - timedelta(seconds=5)
    early = finished_match("fibbers_dice", [a, b], [1, 2], finished_at=ended)
    late = finished_match("fibbers_dice", [a, b], [2, 1], finished_at=ended + timedelta(0, 0, 1000))
    assert services.match_record_results(match_id=late.pk)  # the later one's work runs first
    assert services.match_record_results(match_id=early.pk)
    history = leaderboards.player_stats(a.pk, game="fibbers_dice")["history"]
    assert [h["match"] for h in history] == [str(late.pk), str(early.pk)]
    assert history[0]["played_at"] > history[1]["played_at"]  # not in end order
    places = {str(early.pk): [1, 2], str(late.pk): [2, 1]}

    def recompute(order: list[str]) -> list[tuple[float, float]]:
        now = [(MODEL.mu, MODEL.sigma)] * 2
        for match in order:
            now = expected([float(p) for p in places[match]], now)
        return now

    server = [(career(u, "fibbers_dice").mu, career(u, "fibbers_dice").sigma) for u in (a, b)]
    assert recompute([h["match"] for h in history]) == server  # to the last bit
    assert history[-1]["mu"] == server[0][0] and history[-1]["sigma"] == server[0][1]
    assert recompute([str(early.pk), str(late.pk)]) != server  # the end order gives others


@pytest.mark.parametrize("humans", [20, 64])
def test_an_event_round_of_up_to_64_humans_is_rated_as_openskill_says(humans):
    """docs/ratings.md: a rated match has 2 or more participants; an event round seats up to
    64, every one of them rated in one update."""
    players = people(humans)
    places = list(range(humans, 0, -1))
    match = finished_match(
        "fibbers_dice", list(players), places, options={"tournament": "round", "points": 1}
    )
    assert services.match_record_results(match_id=match.pk)
    want = expected([float(p) for p in places])
    got = [(career(u, "fibbers_dice").mu, career(u, "fibbers_dice").sigma) for u in players]
    assert got == want
    assert RatingPoint.objects.filter(match=match).count() == humans


def test_a_finished_match_without_a_result_is_marked_done_and_counts_for_nobody():
    a, b = people(2)
    match = finished_match("fabfib", [a, b, BOT], [1, 2, 3])
    Match.objects.filter(pk=match.pk).update(placements=None)
    assert services.match_record_results(match_id=match.pk) is False
    assert Match.objects.get(pk=match.pk).results_recorded, "the sweep stops queueing it"
    assert not Career.objects.exists()
