"""Deadlines and bot takeover in the service layer (in-process; the real-worker tests are in
tests/tasks/)."""

from __future__ import annotations

import io
import json
import random
import time
from datetime import timedelta

import pytest
from django.core.management import call_command

from accounts.services import guest_create
from games import services
from games.engine import registry
from games.engine.bots import random_action
from games.engine.replay import verify
from games.models import Event, Match, Seat
from games.reads.replays import read_replay
from kernel.errors import InvalidOptions

pytestmark = pytest.mark.django_db


def live_match(seats: int = 3, game: str = "fabfib", **kwargs) -> tuple[Match, list]:
    users = [guest_create()[0] for _ in range(seats)]
    match = services.match_create(user=users[0], game=game, seats=seats, **kwargs)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, users


def overdue(match: Match) -> Seat:
    """Move the pending deadline of the seat to act one minute into the past."""
    seat = Seat.objects.get(match=match, must_act=True)
    past = services.db_now() - timedelta(minutes=1)
    Seat.objects.filter(pk=seat.pk).update(deadline=past)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    return Seat.objects.get(pk=seat.pk)


def test_every_human_decision_gets_a_deadline_from_the_time_control():
    match, _ = live_match(decision_seconds=30)
    seat = Seat.objects.get(match=match, must_act=True)
    left = (seat.deadline - services.db_now()).total_seconds()
    assert 28 < left <= 30 and match.deadline == seat.deadline


def test_solo_humans_have_no_deadline():
    user = guest_create()[0]
    match = services.match_create(
        user=user, game="fabfib", seats=3, bots=["random"] * 2, time_control="solo"
    )
    assert Seat.objects.get(match=match, position=0).deadline is None
    assert Match.objects.get(pk=match.pk).deadline is None


def test_time_control_bounds_are_enforced():
    user = guest_create()[0]
    for control, seconds in (("live", 5), ("live", 601), ("async", 60)):
        with pytest.raises(InvalidOptions):
            services.match_create(
                user=user, game="fabfib", seats=3, time_control=control, decision_seconds=seconds
            )


def test_a_passed_deadline_is_taken_by_a_bot_for_that_one_decision():
    match, _ = live_match()
    seat = overdue(match)
    version = Match.objects.get(pk=match.pk).version
    assert services.deadlines_sweep() == 1
    match.refresh_from_db()
    assert match.version == version + 1
    step = Event.objects.filter(match=match, version=match.version).order_by("seq")
    assert step[0].actor == seat.position and step[0].by_bot and step[0].deadline == seat.deadline
    seat.refresh_from_db()
    assert seat.timeouts == 1 and not seat.away
    assert Seat.objects.get(pk=seat.pk).user_id is not None, "the player keeps the seat"


def test_a_stale_timer_does_nothing():
    match, _ = live_match()
    overdue(match)
    assert services.deadline_expire(match_id=match.pk, expected_version=match.version - 1) == 0
    assert services.deadline_expire(match_id=match.pk, expected_version=match.version) == 1


def test_a_deadline_not_yet_passed_is_left_alone():
    match, _ = live_match()
    assert services.deadlines_sweep() == 0
    assert services.deadline_expire(match_id=match.pk, expected_version=match.version) == 0


def test_three_time_outs_in_a_row_mark_the_seat_away_and_acting_again_ends_it():
    match, users = live_match()
    seat = Seat.objects.get(match=match, must_act=True)
    Seat.objects.filter(pk=seat.pk).update(timeouts=2)
    overdue(match)
    services.deadlines_sweep()
    seat.refresh_from_db()
    assert seat.away and seat.timeouts == 3
    # An away seat is played by its bot promptly, without waiting for deadlines.
    match.refresh_from_db()
    rules = registry.get(match.game)
    state = rules.from_json(match.state)
    if seat.position in rules.to_act(state):
        assert not Seat.objects.get(pk=seat.pk).deadline
    Seat.objects.filter(pk=seat.pk).update(away=True, timeouts=3)
    for _ in range(200):
        match.refresh_from_db()
        state = rules.from_json(match.state)
        if match.status != "active" or seat.position in rules.to_act(state):
            break
        mover = next(p for p in rules.to_act(state))
        legal = rules.legal_actions(state, mover)[0]
        action = {"type": legal["type"], **{k: d["one_of"][0] for k, d in legal["params"].items()}}
        services.action_submit(match_id=match.pk, user=users[mover], action=action)
    match.refresh_from_db()
    if match.status == "active":
        legal = rules.legal_actions(rules.from_json(match.state), seat.position)[0]
        action = {"type": legal["type"], **{k: d["one_of"][0] for k, d in legal["params"].items()}}
        services.action_submit(match_id=match.pk, user=users[seat.position], action=action)
        seat.refresh_from_db()
        assert not seat.away and seat.timeouts == 0


def test_a_seat_that_must_act_again_gets_a_new_deadline_for_the_new_decision():
    match, users = live_match(decision_seconds=30)
    rules = registry.get("fabfib")
    # Play until a seat accepts: it then holds the cards and must make a new decision (claim).
    for _ in range(100):
        match.refresh_from_db()
        state = rules.from_json(match.state)
        seat = rules.to_act(state)[0]
        types = [a["type"] for a in rules.legal_actions(state, seat)]
        if "accept" in types:
            break
        legal = rules.legal_actions(state, seat)[0]
        action = {"type": legal["type"], **{k: d["one_of"][0] for k, d in legal["params"].items()}}
        services.action_submit(match_id=match.pk, user=users[seat], action=action)
    old = services.db_now() - timedelta(seconds=20)
    Seat.objects.filter(match=match, position=seat).update(deadline=old)
    services.action_submit(match_id=match.pk, user=users[seat], action={"type": "accept"})
    fresh = Seat.objects.get(match=match, position=seat)
    assert fresh.must_act and (fresh.deadline - services.db_now()).total_seconds() > 25


def test_decisions_taken_by_bots_are_counted_apart_in_the_statistics():
    match, _ = live_match(options={"life": 1})
    rules = registry.get("fabfib")
    for _ in range(500):
        match.refresh_from_db()
        if match.status != "active":
            break
        overdue(match)
        services.deadlines_sweep()
    match.refresh_from_db()
    assert match.status == "finished"
    engine_stats = rules.stats(rules.from_json(match.state))
    for seat in range(3):
        for key, total in engine_stats[seat].items():
            assert match.stats[seat][key] + match.takeover_stats[seat].get(key, 0) == total
    assert sum(match.takeover_stats[s].get("claims", 0) for s in range(3)) > 0
    assert all(v == 0 for s in match.stats for v in s.values()), "humans decided nothing"


def test_a_match_with_takeovers_verifies_from_its_replay(tmp_path):
    """the replay's result is the engine's; the own/bot split is kept apart."""
    match, users = live_match(options={"life": 1})
    rules = registry.get("fabfib")
    for turn in range(500):
        match.refresh_from_db()
        if match.status != "active":
            break
        if turn % 2:  # every other decision is the player's own, the rest time out
            seat = Seat.objects.get(match=match, must_act=True)
            view = rules.view(rules.from_json(match.state), seat.position)
            action = random_action(view["legal_actions"], random.Random(turn))
            services.action_submit(match_id=match.pk, user=users[seat.position], action=action)
        else:
            overdue(match)
            services.deadlines_sweep()
    match.refresh_from_db()
    assert match.status == "finished" and Event.objects.filter(match=match, by_bot=True).exists()
    record = read_replay(match)
    assert verify(record) == []
    for seat, split in enumerate(record["attribution"]):
        for key, total in record["result"]["stats"][seat].items():
            assert split["stats"].get(key, 0) + split["bot_stats"].get(key, 0) == total
    path = tmp_path / "takeovers.json"
    path.write_text(json.dumps(record))
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    assert "1 of 1 replays re-ran exactly" in out.getvalue()


def test_the_sweep_requeues_a_bot_turn_left_waiting(settings, monkeypatch):
    user = guest_create()[0]
    sent = []
    monkeypatch.setattr("games.services.schedule.bots", lambda *a: sent.append(a))
    match = services.match_create(
        user=user, game="fabfib", seats=3, bots=["random"] * 3, join=False
    )
    assert len(sent) <= 1  # on_commit does not run inside this test's transaction
    Match.objects.filter(pk=match.pk).update(updated_at=services.db_now() - timedelta(minutes=5))
    services.deadlines_sweep()
    assert sent and str(sent[-1][0]) == str(match.pk)


@pytest.mark.django_db(transaction=True)
def test_the_embedded_runner_enforces_deadlines_without_celery(settings):
    from fibserver import runner

    settings.FIBSERVER = {**settings.FIBSERVER, "SWEEP_SECONDS": 0.2}
    match, _ = live_match()
    seat = overdue(match)
    assert runner.start()
    try:
        for _ in range(50):
            if Event.objects.filter(match=match, by_bot=True).exists():
                break
            time.sleep(0.1)
    finally:
        runner.stop()
    event = Event.objects.filter(match=match, by_bot=True).first()
    assert event is not None and event.actor == seat.position
