"""The outbox: every cause writes its notifications once, in the change's own transaction,
and a move pays at most one statement for them."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.services import guest_create
from games import services
from games.models import Match, Seat
from games.services.sink import ORM, Batch
from notifications import outbox
from notifications.models import Kind, Notification

from .helpers import kinds, move, table, to_act

pytestmark = pytest.mark.django_db


def test_a_started_match_tells_everyone_and_the_player_to_act_that_it_is_their_turn():
    match, users = table()
    first = to_act(match)
    for position, user in enumerate(users):
        got = kinds(user)
        assert got[0] == Kind.MATCH_STARTED
        assert (Kind.YOUR_TURN in got) == (position in first)
    turn = Notification.objects.get(kind=Kind.YOUR_TURN, user=users[first[0]])
    assert (turn.match_id, turn.version, turn.seat) == (match.pk, match.version, first[0])
    assert turn.data["deadline"] is not None  # a live match: the decision's deadline


def test_a_move_tells_the_next_player_with_the_version_to_open_and_not_the_mover():
    match, users = table()
    rng = random.Random(3)
    mover = move(match, users, rng)
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE:
        pytest.skip("the first move ended the match")
    nxt = [p for p in to_act(match) if p != mover]
    assert nxt, "two seats take turns"
    turn = Notification.objects.filter(kind=Kind.YOUR_TURN, user=users[nxt[0]]).latest("id")
    assert turn.version == match.version
    assert not Notification.objects.filter(
        user=users[mover], kind=Kind.YOUR_TURN, version=match.version
    ).exists()


def test_a_finished_match_tells_each_player_once_with_the_placements():
    match, users = table(seats=3, game="fabfib")
    rng = random.Random(5)
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        move(match, users, rng)
    assert match.status == Match.Status.FINISHED
    for position, user in enumerate(users):
        ended = Notification.objects.get(user=user, kind=Kind.MATCH_ENDED)
        assert ended.data["placements"] == match.placements
        assert ended.data["seats"] == [position]
        assert ended.version == match.version
    # nothing doubled: one your_turn per (match, version, seat)
    keys = list(Notification.objects.values_list("user_id", "key"))
    assert len(keys) == len(set(keys))


def test_an_aborted_match_tells_the_players_without_placements():
    match, users = table()
    services.match_abort(match_id=match.pk)
    for user in users:
        ended = Notification.objects.get(user=user, kind=Kind.MATCH_ENDED)
        assert ended.data["status"] == "aborted" and ended.data["placements"] is None


def test_a_bot_decision_for_a_player_is_a_takeover_notification():
    match, users = table()
    seat = to_act(match)[0]
    Seat.objects.filter(match=match, position=seat).update(deadline="2000-01-01T00:00:00Z")
    assert services.deadline_expire(match_id=match.pk) == 1
    match.refresh_from_db()
    note = Notification.objects.get(user=users[seat], kind=Kind.TAKEOVER)
    assert note.seat == seat and note.match_id == match.pk


def test_the_same_cause_twice_writes_one_notification():
    match, _users = table()
    seats = list(Seat.objects.filter(match=match))
    for seat in seats:
        seat.must_act = True
    outbox.after_step(match, seats, set(), None, ORM)
    once = Notification.objects.count()
    outbox.after_step(match, seats, set(), None, ORM)
    assert Notification.objects.count() == once
    assert Notification.objects.filter(kind=Kind.YOUR_TURN, version=match.version).count() == 2


def test_ten_recipients_cost_one_statement_on_the_locked_path():
    match, _users = table(game="fabfib", seats=10)
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    for seat in seats:
        seat.must_act = True
    match.version += 1  # a new step: new keys
    with CaptureQueriesContext(connection) as queries:
        outbox.after_step(match, seats, set(), None, ORM)
    assert len(queries) == 1
    assert Notification.objects.filter(match=match, version=match.version).count() == 10


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the one-statement move is PostgreSQL's"
)
def test_ten_recipients_cost_no_statement_of_their_own_on_the_optimistic_path():
    match, _users = table(game="fabfib", seats=10)
    batch = Batch(match)
    seats = list(Seat.objects.filter(match=match))
    for seat in seats:
        seat.must_act = True
    match.version += 1
    match.save(update_fields=["version"])
    batch.version = match.version
    batch.match(match, ["version"])
    match.version += 1
    outbox.after_step(match, seats, set(), None, batch)
    with CaptureQueriesContext(connection) as queries:
        assert batch.store()
    assert len([q for q in queries if "SAVEPOINT" not in q["sql"]]) == 1
    assert Notification.objects.filter(match=match, version=match.version).count() == 10


def test_a_move_on_the_optimistic_path_writes_its_notification_in_its_one_write():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    from games.services.optimistic import action_submit_optimistic

    match, users = table()
    rng = random.Random(1)
    from games.engine import registry
    from games.engine.bots import random_action

    rules = registry.get(match.game)
    seat = to_act(match)[0]
    state = rules.from_json(match.state)
    action = random_action(rules.legal_actions(state, seat), rng)
    with CaptureQueriesContext(connection) as queries:
        action_submit_optimistic(match_id=match.pk, user=users[seat], action=action)
    match.refresh_from_db()
    sql = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert len(sql) == 2, sql  # one read, one write (the test's transaction adds savepoints)
    assert 'INSERT INTO "notifications_notification"' in sql[1]
    if match.status == Match.Status.ACTIVE:
        nxt = [p for p in to_act(match) if p != seat]
        assert Notification.objects.filter(
            user=users[nxt[0]], kind=Kind.YOUR_TURN, version=match.version
        ).exists()


def test_bots_and_empty_seats_get_nothing():
    user = guest_create()[0]
    match = services.match_create(user=user, game="fibber", seats=2, bots=["random"])
    assert Notification.objects.filter(match=match).exclude(user=user).count() == 0
