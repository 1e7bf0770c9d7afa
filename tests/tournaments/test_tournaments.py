"""Fibber's Dice events through the services (docs/tournaments.md): registration, late entry into
the running match, rounds, the short format, prizes and the raffle, and every misuse refused."""

from __future__ import annotations

import random

import pytest

from accounts.services import guest_create
from games import services
from games.engine import registry
from games.engine.bots import random_action
from games.engine.fibbers_dice import tournament as pure
from games.engine.replay import verify
from games.models import Event, Match, Seat
from games.reads.replays import read_replay
from kernel.errors import Conflict, Forbidden, InvalidOptions, NotFound
from tournaments import housekeeping
from tournaments import reads as sel
from tournaments import services as tournament_services
from tournaments.models import Round, Tournament

# Transactions commit for real: the end of a round is queued on commit, as in production.
pytestmark = pytest.mark.django_db(transaction=True)
RULES = registry.get("fibbers_dice")


def users(n):
    return [guest_create()[0] for _ in range(n)]


def event_with(n, **kwargs):
    host = users(1)[0]
    event = tournament_services.tournament_create(user=host, name="Friday dice", **kwargs)
    players = users(n)
    for p in players:
        tournament_services.tournament_register(tournament_id=event.pk, user=p)
    return host, event, players


def act_once(match_id, rng):
    """One random legal decision by the seat to act, through the player's own service."""
    match = Match.objects.get(pk=match_id)
    state = RULES.from_json(match.state)
    seat = RULES.to_act(state)[0]
    user = Seat.objects.get(match=match, position=seat).user
    action = random_action(RULES.legal_actions(state, seat), rng)
    services.action_submit(match_id=match_id, user=user, action=action)


def play_out(match_id, rng):
    while Match.objects.get(pk=match_id).status == Match.Status.ACTIVE:
        act_once(match_id, rng)


def current(event):
    return Round.objects.filter(tournament=event).order_by("-number").first()


def test_a_single_round_event_is_one_match_of_all_registered_at_3_points_up_to_5():
    host, event, players = event_with(4)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    rnd = current(event)
    match = rnd.match
    assert match.status == Match.Status.ACTIVE and match.seat_count == 4
    assert match.options == {"points": 3, "tournament": "single"}
    assert [s.user_id for s in match.seats.order_by("position")] == [p.pk for p in players]
    assert rnd.final and rnd.players == [p.pk for p in players]
    assert match.created_by_id == host.pk


def test_a_single_round_event_of_6_starts_at_2_points_and_the_override_wins():
    host, event, _ = event_with(6)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    assert current(event).match.options["points"] == 2
    host, event, _ = event_with(6, points=4)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    assert current(event).match.options["points"] == 4


def test_d_a_late_entrant_joins_the_running_match_at_seat_n_with_the_rounds_points():
    host, event, players = event_with(3)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    match = current(event).match
    version = match.version
    late = users(1)[0]
    entry = tournament_services.tournament_register(tournament_id=event.pk, user=late)
    assert entry.late
    match.refresh_from_db()
    assert match.seat_count == 4 and match.version == version + 1
    assert Seat.objects.get(match=match, position=3).user_id == late.pk
    state = RULES.from_json(match.state)
    assert state.points == [3, 3, 3, 3]
    joined = Event.objects.get(match=match, type="seat_joined")
    assert joined.actor == 3 and joined.action == {"type": "join"} and joined.version == version + 1
    assert current(event).players == [*[p.pk for p in players], late.pk]


def act_as_seat(match_id, action):
    """``action`` by the seat to act, through its player's own service."""
    match = Match.objects.get(pk=match_id)
    seat = RULES.to_act(RULES.from_json(match.state))[0]
    user = Seat.objects.get(match=match, position=seat).user
    services.action_submit(match_id=match_id, user=user, action=action)
    return seat


def test_d_registration_stays_open_after_another_second_turn_and_closes_at_the_starters():
    """D: "the first player" is the match's first starter. A caller who lost a point starts
    again and takes a second turn first: a late entrant still joins; registration closes as
    the turn comes back to the first starter."""
    host, event, _ = event_with(3)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    match_id = current(event).match_id
    first = act_as_seat(match_id, {"type": "announce", "score": "31"})
    caller = act_as_seat(match_id, {"type": "call"})  # every roll is at least 31: caller loses
    assert act_as_seat(match_id, {"type": "announce", "score": "31"}) == caller
    state = RULES.from_json(Match.objects.get(pk=match_id).state)
    assert state.turns[caller] == 2 and state.turns[first] == 1
    late = users(1)[0]
    tournament_services.tournament_register(
        tournament_id=event.pk, user=late
    )  # open after the caller's second
    assert Match.objects.get(pk=match_id).seat_count == 4
    assert (
        sel.render_tournament(sel.read_tournament(event.pk, user=host))["registration_open"] is True
    )
    scores = iter(["41", "51", "61", "double 1s", "double 2s"])
    while RULES.to_act(RULES.from_json(Match.objects.get(pk=match_id).state)) != [first]:
        act_as_seat(match_id, {"type": "believe"})
        act_as_seat(match_id, {"type": "announce", "score": next(scores)})
    assert (
        sel.render_tournament(sel.read_tournament(event.pk, user=host))["registration_open"]
        is False
    )
    with pytest.raises(Conflict, match="first starter's second turn"):
        tournament_services.tournament_register(tournament_id=event.pk, user=users(1)[0])
    assert Match.objects.get(pk=match_id).seat_count == 4


def test_a_single_round_table_closes_at_10_players():
    host, event, _ = event_with(7)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    for u in users(3):
        tournament_services.tournament_register(tournament_id=event.pk, user=u)
    with pytest.raises(Conflict, match="full"):
        tournament_services.tournament_register(tournament_id=event.pk, user=users(1)[0])


def test_a_single_round_event_ends_with_its_match_prize_picks_and_a_recomputable_raffle():
    rng = random.Random(4)
    host, event, players = event_with(3, door_prizes=2)
    commitment = Tournament.objects.get(pk=event.pk).raffle_commitment
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    match_id = current(event).match_id
    late = users(1)[0]
    tournament_services.tournament_register(tournament_id=event.pk, user=late)
    play_out(match_id, rng)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    match = Match.objects.get(pk=match_id)
    by_seat = {s.position: s.user_id for s in match.seats.all()}
    expected = [by_seat[seat] for seat in sorted(by_seat, key=lambda s: match.placements[s])]
    assert event.prize_picks == expected
    raffle = sel.render_raffle(event)
    assert raffle["commitment"] == commitment == pure.seed_commitment(raffle["seed"])
    assert raffle["entrants"] == sorted([*[p.pk for p in players], late.pk])
    assert raffle["winners"] == pure.raffle(raffle["seed"], raffle["entrants"], 2)
    assert len(set(raffle["winners"])) == 2
    # the late join is in the replay, which re-runs exactly
    record = read_replay(match)
    assert record["seats"] == 3 and [s["seat"] for s in record["steps"] if s.get("join")] == [3]
    assert verify(record) == []


def test_the_raffle_seed_is_hidden_until_the_draw():
    host, event, _ = event_with(3, door_prizes=1)
    raffle = sel.render_raffle(event)
    assert raffle["seed"] is None and raffle["winners"] is None and raffle["commitment"]
    assert event.raffle_seed not in str(sel.render_tournament(event, host))


def _finish_round(event, rng):
    rnd = current(event)
    play_out(rnd.match_id, rng)
    rnd.refresh_from_db()
    return rnd


def test_a_multi_round_event_standard_format_plays_4_qualifying_rounds_and_a_final():
    rng = random.Random(9)
    host, event, players = event_with(9, door_prizes=3)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    event.refresh_from_db()
    assert event.single_round is False
    first = current(event)
    assert first.match.options == {"points": 1, "tournament": "round"}
    assert first.match.seat_count == 9
    seats = first.match.seats.order_by("position")
    assert [s.user_id for s in seats] == [p.pk for p in players]  # registration order
    finalists = []
    for number in range(1, 5):
        rnd = _finish_round(event, rng)
        assert rnd.number == number and len(rnd.qualified) == 1
        winner = rnd.qualified[0]
        assert rnd.placements[str(winner)] == 1
        assert not set(finalists) & set(rnd.players)  # D: the qualified sit out
        finalists.append(winner)
        with pytest.raises(Forbidden):
            tournament_services.tournament_next_round(tournament_id=event.pk, user=players[0])
        tournament_services.tournament_next_round(tournament_id=event.pk, user=host)
    final = current(event)
    assert final.final and final.number == 5 and final.players == finalists
    # the final's seats follow qualification order (round 1's winner at seat 0)
    assert [s.user_id for s in final.match.seats.order_by("position")] == finalists
    with pytest.raises(Conflict, match="final started"):
        tournament_services.tournament_register(tournament_id=event.pk, user=users(1)[0])
    _finish_round(event, rng)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    places = {int(k): v for k, v in current(event).placements.items()}
    assert event.prize_picks == sorted(places, key=places.get)
    assert len(event.raffle_winners) == 3 and set(event.raffle_winners) <= {p.pk for p in players}


def test_late_entrants_of_a_multi_round_event_play_the_rounds_still_to_come():
    rng = random.Random(5)
    host, event, _ = event_with(8)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    late = users(1)[0]
    tournament_services.tournament_register(tournament_id=event.pk, user=late)
    assert late.pk not in current(event).players
    _finish_round(event, rng)
    tournament_services.tournament_next_round(tournament_id=event.pk, user=host)
    assert late.pk in current(event).players


def test_the_short_format_takes_the_first_two_of_round_3_and_refuses_a_switch_after_it_starts():
    rng = random.Random(6)
    host, event, players = event_with(8)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    with pytest.raises(Forbidden):
        tournament_services.tournament_switch_short(tournament_id=event.pk, user=players[0])
    tournament_services.tournament_switch_short(tournament_id=event.pk, user=host)
    with pytest.raises(Conflict, match="already"):
        tournament_services.tournament_switch_short(tournament_id=event.pk, user=host)
    quals = []
    for _ in range(3):
        rnd = _finish_round(event, rng)
        quals += rnd.qualified
        tournament_services.tournament_next_round(tournament_id=event.pk, user=host)
    assert len(quals) == 4 and current(event).final and current(event).number == 4
    assert current(event).players == quals
    seats = current(event).match.seats.order_by("position")
    assert [s.user_id for s in seats] == quals


def test_the_short_format_cannot_be_chosen_once_round_3_has_started():
    rng = random.Random(7)
    host, event, _ = event_with(8)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    for _ in range(2):
        _finish_round(event, rng)
        tournament_services.tournament_next_round(tournament_id=event.pk, user=host)
    with pytest.raises(Conflict, match="before round 3"):
        tournament_services.tournament_switch_short(tournament_id=event.pk, user=host)


def test_automatic_advance_starts_the_next_round_when_one_ends():
    rng = random.Random(8)
    host, event, _ = event_with(8, auto_advance=True)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    _finish_round(event, rng)
    assert current(event).number == 2 and not current(event).over


def test_misuse_is_refused_clearly():
    host, event, players = event_with(2)
    stranger = users(1)[0]
    with pytest.raises(Forbidden, match="host"):
        tournament_services.tournament_start(tournament_id=event.pk, user=players[0])
    with pytest.raises(Conflict, match="already registered"):
        tournament_services.tournament_register(tournament_id=event.pk, user=players[0])
    with pytest.raises(Conflict, match="not registered"):
        tournament_services.tournament_unregister(tournament_id=event.pk, user=stranger)
    with pytest.raises(Conflict, match="single-round"):
        tournament_services.tournament_start(tournament_id=event.pk, user=host)
        tournament_services.tournament_next_round(tournament_id=event.pk, user=host)
    with pytest.raises(Conflict, match="already started"):
        tournament_services.tournament_start(tournament_id=event.pk, user=host)
    with pytest.raises(Conflict, match="before the tournament starts"):
        tournament_services.tournament_unregister(tournament_id=event.pk, user=players[0])
    with pytest.raises(NotFound):
        tournament_services.tournament_start(tournament_id="not-an-id", user=host)


def test_a_round_cannot_start_while_one_is_running():
    host, event, _ = event_with(8)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    with pytest.raises(Conflict, match="still being played"):
        tournament_services.tournament_next_round(tournament_id=event.pk, user=host)


def test_an_event_needs_two_players_and_sane_settings():
    host, event, _ = event_with(1)
    with pytest.raises(Conflict, match="at least 2"):
        tournament_services.tournament_start(tournament_id=event.pk, user=host)
    with pytest.raises(InvalidOptions):
        tournament_services.tournament_create(user=host, name="x", time_control="solo")
    with pytest.raises(InvalidOptions):
        tournament_services.tournament_create(user=host, name="x", points=11)


def test_a_private_event_is_seen_only_by_its_host_and_entrants():
    host, event, players = event_with(2, visibility="private")
    assert sel.read_tournament(event.pk, user=host) and sel.read_tournament(
        event.pk, user=players[0]
    )
    with pytest.raises(NotFound):
        sel.read_tournament(event.pk, user=users(1)[0])
    assert event not in sel.listed_tournaments()


def test_the_callers_next_match_names_the_round_and_seat():
    host, event, players = event_with(8)
    assert sel.read_my_match(event, players[0])["reason"] == "not_started"
    tournament_services.tournament_start(tournament_id=event.pk, user=host)
    mine = sel.read_my_match(event, players[2])
    assert (
        mine["round"] == 1 and mine["seat"] == 2 and mine["match"] == str(current(event).match_id)
    )
    assert sel.read_my_match(event, users(1)[0])["reason"] == "not_registered"


def test_a_round_that_cannot_start_by_itself_keeps_the_last_rounds_result(monkeypatch):
    from tournaments import services as module

    rng = random.Random(10)
    host, event, _ = event_with(8, auto_advance=True)
    tournament_services.tournament_start(tournament_id=event.pk, user=host)

    def refuse(*args, **kwargs):
        raise InvalidOptions("no table today")

    monkeypatch.setattr(module, "_play", refuse)
    rnd = _finish_round(event, rng)
    assert rnd.over and len(rnd.qualified) == 1  # recorded, though round 2 did not start
    assert Round.objects.filter(tournament=event).count() == 1
    monkeypatch.undo()
    tournament_services.tournament_next_round(
        tournament_id=event.pk, user=host
    )  # the host starts it instead
    assert current(event).number == 2


def test_an_event_starts_by_itself_at_its_announced_time_once_two_are_registered():
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import tasks

    soon = timezone.now() + timedelta(hours=1)
    host, later, _ = event_with(3, starts_at=soon)
    lonely = tournament_services.tournament_create(
        user=host, name="Alone", starts_at=timezone.now()
    )
    tournament_services.tournament_register(tournament_id=lonely.pk, user=users(1)[0])
    due = tournament_services.tournament_create(user=host, name="Due", starts_at=timezone.now())
    for p in users(3):
        tournament_services.tournament_register(tournament_id=due.pk, user=p)

    tasks.start_due()  # the sweep Celery beat (or the embedded runner) runs every second

    for event in (due, later, lonely):
        event.refresh_from_db()
    assert due.status == Tournament.Status.RUNNING and current(due).match.seat_count == 3
    assert later.status == Tournament.Status.OPEN and current(later) is None
    assert lonely.status == Tournament.Status.OPEN  # one entrant: waits for a second
    assert housekeeping.tournaments_start_due() == 0  # started once, never twice
    with pytest.raises(Conflict):
        tournament_services.tournament_start(tournament_id=due.pk, user=host)

    tournament_services.tournament_register(tournament_id=lonely.pk, user=users(1)[0])
    assert housekeeping.tournaments_start_due() == 1
    lonely.refresh_from_db()
    assert lonely.status == Tournament.Status.RUNNING


def test_a_deleted_hosts_tournaments_go_on_without_them():
    from accounts.deletion import account_delete
    from tournaments import tasks

    rng = random.Random(5)
    host, waiting, _ = event_with(3)  # "start when I say": only the host could start it
    running = tournament_services.tournament_create(user=host, name="Manual rounds")
    for p in users(8):
        tournament_services.tournament_register(tournament_id=running.pk, user=p)
    tournament_services.tournament_start(tournament_id=running.pk, user=host)
    ended = _finish_round(running, rng)
    assert ended.over and current(running).number == 1  # waits for the host's next round

    account_delete(user=host)

    running.refresh_from_db()
    assert running.auto_advance
    assert current(running).number == 2 and not current(running).over  # started at once
    tasks.start_due()
    waiting.refresh_from_db()
    assert waiting.status == Tournament.Status.RUNNING and current(waiting).match.seat_count == 3
    _finish_round(running, rng)
    assert current(running).number == 3  # and every later round starts by itself
