"""The hot paths stay lean: what a conditional GET, a view and a move cost in
queries, and that the cheap ETag and the cached token lookup stay exactly as correct as what
they replace."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.engine.bots import random_action

from .helpers import Player, assert_error

pytestmark = pytest.mark.django_db(transaction=True)


def two_player_match() -> tuple[Player, Player, dict]:
    a, b = Player("Ann"), Player("Bob")
    match = a.create(game="fibber", seats=2)
    b.post(f"/api/matches/{match['id']}/join/")
    return a, b, a.view(match["id"])


def mover(players: list[Player], match_id: str) -> tuple[Player, dict]:
    for player in players:
        view = player.view(match_id)
        if view["legal_actions"]:
            return player, view
    raise AssertionError("nobody can act")


def test_a_304_costs_one_indexed_query_and_no_rendering():
    a, _b, view = two_player_match()
    path = f"/api/matches/{view['id']}/"
    tag = a.get(path)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = a.get(path, HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 304 and response["ETag"] == tag and not response.content
    assert len(queries) == 1, [q["sql"] for q in queries]
    sql = queries[0]["sql"]
    assert '"games_match"."id" =' in sql and "games_event" not in sql


def test_the_etag_changes_with_everything_the_view_shows():
    a, b, view = two_player_match()
    path = f"/api/matches/{view['id']}/"
    tag = a.get(path)["ETag"]
    assert a.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert a.get(path, HTTP_IF_NONE_MATCH=f'"other", {tag}').status_code == 304
    # Another caller (a spectator, the other player) never gets the same tag.
    assert Player().get(path)["ETag"] != tag
    assert b.get(path)["ETag"] != tag
    # A seated player renames themselves: names are in every view.
    bob = User.objects.get(pk=b.user.pk)
    bob.display_name = "Robert"
    bob.save()
    renamed = a.get(path, HTTP_IF_NONE_MATCH=tag)
    assert renamed.status_code == 200 and renamed["ETag"] != tag
    assert "Robert" in {s["user"]["name"] for s in renamed.json()["seats"] if s["user"]}
    tag = renamed["ETag"]
    # A move changes it for everyone, and the new body carries the new tag.
    player, current = mover([a, b], view["id"])
    action = random_action(current["legal_actions"], random.Random(1))
    assert (
        player.act(view["id"], {**action, "expected_version": current["version"]}).status_code
        == 200
    )
    moved = a.get(path, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["version"] == current["version"] + 1
    assert a.get(path, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 304


def test_a_conditional_get_refuses_what_a_plain_one_refuses():
    a, b = Player(), Player()
    private = a.create(game="fibber", seats=2, visibility="private")
    path = f"/api/matches/{private['id']}/"
    tag = a.get(path)["ETag"]
    assert_error(b.get(path, HTTP_IF_NONE_MATCH=tag), 404, "not_found")
    assert_error(Player().get(path, HTTP_IF_NONE_MATCH=tag), 404, "not_found")
    assert_error(a.get(path + "?seat=1", HTTP_IF_NONE_MATCH=tag), 403)
    assert_error(a.get("/api/matches/nope/", HTTP_IF_NONE_MATCH=tag), 404, "not_found")


def test_a_cached_token_stops_working_at_logout():
    a, _b, view = two_player_match()
    path = f"/api/matches/{view['id']}/"
    assert a.get(path).status_code == 200  # cached now
    with CaptureQueriesContext(connection) as queries:
        assert a.get("/api/me/").status_code == 200
    assert not any("accounts_session" in q["sql"] for q in queries)
    assert a.post("/api/auth/logout/").status_code in (200, 204)
    assert_error(a.get("/api/me/"), 401)
    assert_error(a.get(path, HTTP_IF_NONE_MATCH='"x"'), 401)


def test_a_cached_token_stops_working_when_its_user_is_deactivated():
    a = Player()
    assert a.get("/api/me/").status_code == 200
    user = User.objects.get(pk=a.user.pk)
    user.is_active = False
    user.save()
    assert_error(a.get("/api/me/"), 401)
    assert_error(a.get("/api/me/", HTTP_AUTHORIZATION=f"Token {a.token}"), 401)


def move_queries(player: Player, match_id: str, view: dict, **headers: str) -> list[str]:
    action = random_action(view["legal_actions"], random.Random(3))
    body = {**action, "expected_version": view["version"]}
    with CaptureQueriesContext(connection) as queries:
        response = player.act(match_id, body, **headers)
    assert response.status_code == 200, response.content
    return [q["sql"] for q in queries]


def test_a_move_costs_two_statements():
    """PostgreSQL: one read (the match, the database clock, the seats with their players and
    the recent events) and one write (the conditional UPDATE of the changed match columns with
    the events INSERT and the seats UPDATE hanging on it), each its own transaction: no BEGIN
    or COMMIT round trips, no row lock, no re-read for the answer. A token seen before is not
    looked up again; no health check. SQLite takes the locked path (its write transactions are
    IMMEDIATE, so the whole database is the lock, and Django leaves FOR UPDATE out)."""
    a, b, view = two_player_match()
    player, current = mover([a, b], view["id"])
    sql = move_queries(player, view["id"], current)
    assert not any("accounts_session" in q or q.strip() == "SELECT 1" for q in sql), sql
    if connection.vendor != "postgresql":
        # 8, and the step's notifications (the next player's turn): one bulk INSERT
        assert len(sql) <= 9 and not any("FOR UPDATE" in q for q in sql), sql
        return
    assert len(sql) == 2, sql
    read, write = sql
    assert read.startswith("SELECT") and "clock_timestamp()" in read, read
    assert '"games_seat"' in read and '"games_event"' in read and "FOR UPDATE" not in read
    assert write.startswith('WITH m AS (UPDATE "games_match" SET '), write
    assert '"version" = ' in write.split("WHERE", 1)[1].split("RETURNING")[0]
    assert 'INSERT INTO "games_event"' in write and 'UPDATE "games_seat"' in write
    assert 'INSERT INTO "notifications_notification"' in write  # the next player's turn
    match_update = write.split("RETURNING")[0]
    assert '"invite_code" =' not in match_update and '"seed" =' not in match_update


def test_a_move_with_an_idempotency_key_stores_its_answer_in_the_same_two_statements():
    """The read also reads the key's stored answer; the write also inserts the new one, so it
    commits with the move. A retry is the read alone. (SQLite: the locked path.)"""
    a, b, view = two_player_match()
    player, current = mover([a, b], view["id"])
    sql = move_queries(player, view["id"], current, HTTP_IDEMPOTENCY_KEY="k-1")
    assert not any("accounts_session" in q or q.strip() == "SELECT 1" for q in sql), sql
    if connection.vendor != "postgresql":
        assert len(sql) <= 13 and sum('INSERT INTO "games_idempotencyrecord"' in q for q in sql)
        return
    assert len(sql) == 2, sql
    read, write = sql
    assert '"games_idempotencyrecord"' in read and "FOR UPDATE" not in read
    assert write.startswith('WITH m AS (UPDATE "games_match"')
    assert 'INSERT INTO "games_idempotencyrecord"' in write and 'INSERT INTO "games_event"' in write
    with CaptureQueriesContext(connection) as queries:
        action = random_action(current["legal_actions"], random.Random(3))
        body = {**action, "expected_version": current["version"]}
        again = player.act(view["id"], body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 200 and len(queries) == 1, [q["sql"] for q in queries]


def test_a_view_costs_one_statement():
    """PostgreSQL: the match, its seats with their players and the recent events in one
    statement (one snapshot: nothing to BEGIN, SET TRANSACTION or COMMIT); elsewhere a read
    transaction. The token is cached."""
    a, _b, view = two_player_match()
    path = f"/api/matches/{view['id']}/"
    a.get(path)
    with CaptureQueriesContext(connection) as queries:
        assert a.get(path).status_code == 200
    sql = [q["sql"] for q in queries]
    assert not any("accounts_session" in q for q in sql)
    if connection.vendor != "postgresql":
        assert len(sql) <= 6, sql
        return
    assert len(sql) == 1, sql
    assert '"games_seat"' in sql[0] and '"games_event"' in sql[0] and "FOR UPDATE" not in sql[0]


def test_a_private_match_read_in_one_statement_is_refused_as_before():
    a, b = Player(), Player()
    private = a.create(game="fibber", seats=2, visibility="private")
    path = f"/api/matches/{private['id']}/"
    assert a.get(path).status_code == 200
    assert_error(b.get(path), 404, "not_found")
    assert_error(Player().get(path), 404, "not_found")
    assert_error(a.get(path + "?seat=1"), 403)
    b.post(f"/api/matches/{private['id']}/join/", {"invite_code": private["invite_code"]})
    assert b.get(path).json()["you"]["seat"] == 1


@pytest.mark.parametrize("query", ["?game=fabfib", "?mine=true"])
def test_a_list_page_costs_the_same_queries_for_2_or_30_matches(query):
    """No query per listed match: the seat counts are subqueries of the page's statement."""
    host = Player("Host")

    def page() -> tuple[int, dict]:
        with CaptureQueriesContext(connection) as queries:
            response = host.get("/api/matches/" + query)
        assert response.status_code == 200, response.content
        return len(queries), response.json()

    for _ in range(2):
        host.create(game="fabfib", seats=3, bots=["random"])
    few, first = page()
    for _ in range(28):
        host.create(game="fabfib", seats=3, bots=["random"])
    many, listed = page()
    assert few == many
    assert listed["count"] == 30
    assert all((m["filled"], m["bots"], m["seat_count"]) == (2, 1, 3) for m in listed["results"])
    assert first["results"][0] == listed["results"][len(listed["results"]) - 2]
