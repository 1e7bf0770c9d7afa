"""Lower apps announce, upper apps listen (``kernel.signals``): ``games`` and ``matchmaking``
name no listener; ``notifications`` connects its outbox in its ``AppConfig.ready()``; a step's
listeners add rows through the step's sink, so any number of them cost the move no statement
of its own (on PostgreSQL's optimistic path: one read, one write)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import signals as games
from games.engine import registry
from games.engine.bots import random_action
from games.models import Match, Seat
from games.services.sink import Sink
from kernel.signals import Signal
from matchmaking import signals as matchmaking
from notifications import outbox
from notifications.models import Kind, Notification
from tests.notifications.helpers import kinds, move, table, to_act
from tournaments import signals as tournaments

pytestmark = pytest.mark.django_db


def test_the_notifications_listen_to_every_signal_they_need():
    assert outbox.after_step in games.step_committed.listeners
    assert outbox.match_started in games.match_started.listeners
    assert outbox.match_ended in games.match_ended.listeners
    assert outbox.takeover in games.decision_taken_by_bot.listeners
    assert outbox.round_starting in tournaments.tournament_entered.listeners
    assert outbox.challenged in matchmaking.challenged.listeners
    assert outbox.rematch_offered in matchmaking.rematch_offered.listeners
    assert outbox.followed_looking in matchmaking.looking.listeners


def test_a_signal_calls_its_listeners_in_order_once_each():
    signal: Signal[[int]] = Signal("test")
    heard: list[tuple[str, int]] = []

    def first(n: int) -> None:
        heard.append(("first", n))

    def second(n: int) -> None:
        heard.append(("second", n))

    signal.connect(first)
    signal.connect(second)
    signal.connect(first)  # once is enough
    signal.send(7)
    signal.disconnect(first)
    signal.send(8)
    assert heard == [("first", 7), ("second", 7), ("second", 8)]


@pytest.fixture
def without_your_turn() -> Iterator[None]:
    games.step_committed.disconnect(outbox.after_step)
    try:
        yield
    finally:
        games.step_committed.connect(outbox.after_step)


def test_a_move_tells_the_next_player_only_through_the_signal(without_your_turn):
    """Take the listener away and the move writes no ``your_turn``: the services have no other
    way to the notifications."""
    match, users = table()
    rng = random.Random(3)
    seat = move(match, users, rng)
    nxt = [p for p in to_act(match) if p != seat]
    assert nxt
    assert Kind.YOUR_TURN not in kinds(users[nxt[0]], version=Match.objects.get().version)


def _extra(match: Match, seats: list[Seat], before: set[int], actor: int | None, sink: Sink):
    """A second listener, as another app would add: a row for each human seat."""
    sink.rows(
        Notification,
        [
            Notification(
                user_id=s.user_id,
                kind=Kind.TAKEOVER,
                match_id=match.pk,
                version=match.version,
                seat=s.position,
                data={},
                key=f"extra:{match.pk}:{match.version}:{s.position}",
            )
            for s in seats
            if s.user_id is not None
        ],
    )


@pytest.fixture
def another_listener() -> Iterator[None]:
    games.step_committed.connect(_extra)
    try:
        yield
    finally:
        games.step_committed.disconnect(_extra)


def test_a_second_listeners_rows_ride_in_the_moves_one_statement(another_listener):
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement move is PostgreSQL's")
    from games.services.optimistic import action_submit_optimistic

    match, users = table(seats=3)
    rules = registry.get(match.game)
    seat = to_act(match)[0]
    state = rules.from_json(match.state)
    action = random_action(rules.legal_actions(state, seat), random.Random(2))
    with CaptureQueriesContext(connection) as queries:
        action_submit_optimistic(match_id=match.pk, user=users[seat], action=action)
    sql = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert len(sql) == 2, sql  # one read, one write, whatever the listeners
    match.refresh_from_db()
    assert Notification.objects.filter(key__startswith="extra:", version=match.version).count() == 3


def test_a_second_listeners_rows_are_written_on_the_locked_path_too(another_listener):
    match, users = table(seats=3)
    move(match, users, random.Random(4))
    match.refresh_from_db()
    assert Notification.objects.filter(key__startswith="extra:", version=match.version).count() == 3
