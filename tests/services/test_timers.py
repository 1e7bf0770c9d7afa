"""Deadline timers: one armed timer per match instead of one per move, and a
timer that fires stale sends the next one, so every deadline still has a timer (or the sweep).

With Celery each timer is a task message held by a worker until its time; sent on every move
they cost the move more CPU than its SQL. Here the broker is replaced by a list."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games import services
from games.engine.bots import random_action
from games.models import Match
from games.reads.views import render_view
from games.services import schedule
from kernel import tasks as dispatch

from .test_deadlines import live_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(settings, monkeypatch) -> list[tuple]:
    """Celery mode, the messages kept here (bot turns and timers)."""
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "celery"}
    out: list[tuple] = []

    class App:
        def send_task(self, name, args, **kwargs):
            out.append((name.rsplit(".", 1)[1], tuple(args), kwargs.get("eta")))

    monkeypatch.setattr(dispatch, "current_app", App())
    return out


def timers(sent: list[tuple]) -> list[tuple]:
    return [(args, eta) for name, args, eta in sent if name == "enforce_deadline"]


def move(match: Match, users: list, seed: int, optimistic: bool = True) -> Match:
    match.refresh_from_db()
    seat = next(s for s in match.seats.all() if s.must_act)
    user = next(u for u in users if u.pk == seat.user_id)
    view = render_view(match, user)
    action = random_action(view["legal_actions"], random.Random(seed))
    submit = services.action_submit_optimistic if optimistic else services.action_submit
    code, _ = submit(match_id=match.pk, user=user, action=action)
    assert code == 200
    match.refresh_from_db()
    return match


@pytest.mark.parametrize("optimistic", [True, False], ids=["optimistic", "locked"])
def test_moves_send_a_timer_only_when_none_is_armed_before_their_deadline(sent, optimistic):
    match, users = live_match(decision_seconds=60)
    first = timers(sent)
    assert first == [((str(match.pk), match.version), match.deadline)]
    assert match.timer_at == match.deadline
    armed = match.timer_at
    for i in range(5):
        match = move(match, users, i, optimistic)
        if match.status != "active":
            break
        assert match.deadline > armed and match.timer_at == armed
    assert timers(sent) == first, "the armed timer fires before every later deadline"


def test_a_move_after_the_armed_timer_fired_sends_a_new_one(sent):
    match, users = live_match(decision_seconds=60)
    past = services.db_now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(timer_at=past)
    match = move(match, users, 1)
    assert timers(sent)[-1] == ((str(match.pk), match.version), match.deadline)
    assert match.timer_at == match.deadline


def test_a_stale_timer_sends_the_next_one_and_takes_nothing(sent):
    match, users = live_match(decision_seconds=60)
    stale = match.version
    match = move(match, users, 1)
    Match.objects.filter(pk=match.pk).update(timer_at=services.db_now() - timedelta(seconds=1))
    before = len(timers(sent))
    assert services.deadline_expire(match_id=match.pk, expected_version=stale) == 0
    match.refresh_from_db()
    assert timers(sent)[before:] == [((str(match.pk), match.version), match.deadline)]
    assert match.timer_at == match.deadline and match.version == stale + 1
    # Armed now: another stale timer sends nothing more.
    assert services.deadline_expire(match_id=match.pk, expected_version=stale) == 0
    assert len(timers(sent)) == before + 1


def test_without_celery_the_sweep_is_the_timer(settings):
    match, users = live_match(decision_seconds=60)
    assert match.timer_at is None
    match = move(match, users, 1)
    assert match.timer_at is None


def test_timer_needed():
    now = services.db_now()
    at = now + timedelta(seconds=60)
    assert not schedule.timer_needed(at, None, now), "tests run inline: no timers"


def test_timer_needed_with_celery(sent):
    now = services.db_now()
    at = now + timedelta(seconds=60)
    assert schedule.timer_needed(at, None, now)
    assert not schedule.timer_needed(at, now + timedelta(seconds=30), now)
    assert not schedule.timer_needed(at, at, now)
    assert schedule.timer_needed(at, at + timedelta(seconds=1), now), "fires too late"
    assert schedule.timer_needed(at, now, now), "has fired (or is about to)"
    assert not schedule.timer_needed(now + timedelta(days=1), None, now), "the sweep's"
