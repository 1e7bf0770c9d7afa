"""Deleting an account (``DELETE /api/me/``), everywhere the user appears: tokens, login,
names in matches and tournaments, leaderboards, lobby seats, active seats (the takeover bot
plays them to the end), the username's grace period, the audit record."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import transaction
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts import deletion, tasks
from accounts.models import AccountDeletion, User, UsernameHold
from accounts.services import token_issue, user_register
from games import services
from games.engine.bots import random_action
from games.models import Career, Event, Match, RatingPoint, Seat
from games.services import lobby, match_record_results
from tests.api.helpers import Player, play_to_the_end
from tests.services.finished import finished_match
from tournaments import services as tournament_services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase"


def registered(name: str = "alice") -> tuple[User, APIClient]:
    user = user_register(username=name, password=PASSWORD, display_name=name.title())
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=user)}")
    return user, client


def delete_me(client: APIClient, **body: str):
    return client.delete("/api/me/", body, format="json")


def assert_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == code


def test_a_registered_account_is_deleted_with_its_password_and_only_once():
    user, client = registered()
    assert_error(delete_me(client, password="wrong-password"), 400, "invalid_credentials")
    assert_error(delete_me(client), 400, "invalid_credentials")
    assert User.objects.get(pk=user.pk).deleted_at is None  # nothing changed
    response = delete_me(client, password=PASSWORD)
    assert response.status_code == 204, response.content
    assert_error(delete_me(client, password=PASSWORD), 401, "authentication_failed")
    assert_error(client.get("/api/me/"), 401, "authentication_failed")
    login = APIClient().post(
        "/api/auth/login/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert_error(login, 400, "invalid_credentials")
    tomb = User.objects.get(pk=user.pk)
    assert tomb.username.startswith(deletion.TOMBSTONE_PREFIX)
    assert tomb.public_name.startswith("Deleted player ") and len(tomb.public_name) == 19
    assert not tomb.is_active and not tomb.has_usable_password()
    assert (tomb.first_name, tomb.last_name, tomb.email, tomb.last_login) == ("", "", "", None)
    audit = AccountDeletion.objects.get(subject_id=user.pk)
    assert (audit.by, audit.staff) == ("self", None)
    with pytest.raises(deletion.NotFound):
        deletion.account_delete(user=tomb)  # the service itself is idempotent too
    assert AccountDeletion.objects.filter(subject_id=user.pk).count() == 1


def test_a_guest_confirms_with_its_own_token():
    guest = Player("Gus")
    other = Player("Olga")
    assert_error(guest.client.delete("/api/me/", {}, format="json"), 400, "invalid_credentials")
    wrong = guest.client.delete("/api/me/", {"token": other.token}, format="json")
    assert_error(wrong, 400, "invalid_credentials")
    response = guest.client.delete("/api/me/", {"token": guest.token}, format="json")
    assert response.status_code == 204
    assert other.get("/api/me/").status_code == 200


@pytest.mark.parametrize(
    "body",
    [{"password": PASSWORD, "extra": 1}, {"password": 7}, {"token": "x" * 65}, [], "text"],
)
def test_bad_bodies_are_refused_and_change_nothing(body):
    user, client = registered()
    response = client.delete("/api/me/", body, format="json")
    assert_error(response, 400, "invalid")
    assert User.objects.get(pk=user.pk).deleted_at is None


def test_not_json_is_refused():
    _user, client = registered()
    response = client.generic("DELETE", "/api/me/", "password=x", content_type="text/plain")
    assert_error(response, 415, "unsupported_media_type")
    assert_error(APIClient().delete("/api/me/"), 401, "not_authenticated")


def test_the_username_is_held_for_the_grace_period_then_free():
    _user, client = registered("Carol")
    assert delete_me(client, password=PASSWORD).status_code == 204
    again = APIClient().post(
        "/api/auth/register/", {"username": "carol", "password": PASSWORD}, format="json"
    )
    assert_error(again, 409, "username_taken")
    assert UsernameHold.objects.count() == 1
    assert "carol" not in str(UsernameHold.objects.values_list().get())  # a hash only
    UsernameHold.objects.update(until=services.db_now() - timedelta(seconds=1))
    assert tasks.purge() == 1  # the periodic purge frees it
    assert deletion.holds_purge() == 0
    again = APIClient().post(
        "/api/auth/register/", {"username": "carol", "password": PASSWORD}, format="json"
    )
    assert again.status_code == 201, again.content


def test_finished_matches_keep_the_seat_under_a_stable_label_and_leaderboards_drop_it(settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "BOARD_MIN_MATCHES": 1}
    user, client = registered()
    others = [Player(f"P{i}") for i in range(2)]
    match = finished_match("fabfib", [user, others[0].user, others[1].user], [1, 2, 3])
    assert match_record_results(match_id=match.pk)
    assert Career.objects.filter(user=user).exists()
    board = others[0].get("/api/leaderboards/fabfib/?board=wins").json()
    assert user.pk in [row["player"]["id"] for row in board["results"]]
    before = {
        p.user.pk: list(RatingPoint.objects.filter(user=p.user).values("mu", "sigma"))
        for p in others
    }
    assert delete_me(client, password=PASSWORD).status_code == 204
    assert not Career.objects.filter(user=user).exists()
    assert not RatingPoint.objects.filter(user=user).exists()
    for p in others:  # the other players' ratings are not recomputed
        assert (
            list(RatingPoint.objects.filter(user=p.user).values("mu", "sigma")) == before[p.user.pk]
        )
    view = others[0].view(str(match.pk))
    label = User.objects.get(pk=user.pk).public_name
    assert view["seats"][0]["user"] == {"id": user.pk, "name": label}
    assert others[1].view(str(match.pk))["seats"][0]["user"]["name"] == label  # stable
    board = others[0].get("/api/leaderboards/fabfib/?board=wins").json()
    assert user.pk not in [row["player"]["id"] for row in board["results"]]
    assert others[0].get(f"/api/players/{user.pk}/").status_code == 404
    body = str(others[0].get(f"/api/matches/{match.pk}/").content)
    assert "Alice" not in body and "alice" not in body


def test_lobby_seats_are_freed_and_open_tournament_entries_withdrawn():
    host = Player("Host")
    leaver, client = registered()
    lobby = host.create(game="fabfib", seats=3)
    services.match_join(match_id=lobby["id"], user=leaver)
    alone = services.match_create(user=leaver, game="fibber", seats=3)
    tournament = tournament_services.tournament_create(user=host.user, name="Cup")
    tournament_services.tournament_register(tournament_id=tournament.pk, user=leaver)
    assert delete_me(client, password=PASSWORD).status_code == 204
    assert not Seat.objects.filter(user=leaver, match_id=lobby["id"]).exists()
    assert Match.objects.get(pk=lobby["id"]).status == "lobby"  # the host is still there
    assert Match.objects.get(pk=alone.pk).status == "aborted"  # nobody left in it
    assert not Entry.objects.filter(user=leaver).exists()
    assert Tournament.objects.get(pk=tournament.pk).status == "open"


@pytest.mark.django_db(transaction=True)  # the bots run after each commit
def test_an_active_match_goes_on_with_the_takeover_bot_in_the_seat():
    stays = Player("Stays")
    leaver, client = registered()
    created = stays.create(game="fabfib", seats=3, bots=["random"])
    services.match_join(match_id=created["id"], user=leaver)
    match = Match.objects.get(pk=created["id"])
    assert match.status == "active"
    assert delete_me(client, password=PASSWORD).status_code == 204
    seat = Seat.objects.get(match=match, user=leaver)
    assert seat.away
    view = stays.view(created["id"])
    assert view["seats"][seat.position]["away"] is True
    assert view["seats"][seat.position]["user"]["name"].startswith("Deleted player ")
    last = play_to_the_end(created["id"], [stays], random.Random(7))
    assert last["status"] == "finished"
    decided = Event.objects.filter(match=match, actor=seat.position).exclude(action=None)
    after = decided.filter(created_at__gt=User.objects.get(pk=leaver.pk).deleted_at)
    assert after.exists() and all(e.by_bot for e in after)
    # the end-of-match work ran: the tombstone got no career back, the other player did
    assert Match.objects.get(pk=match.pk).results_recorded
    assert not Career.objects.filter(user=leaver).exists()
    assert Career.objects.filter(user=stays.user).exists()


@pytest.mark.django_db(transaction=True)  # the wake-up is sent on commit
def test_the_other_players_followers_are_woken_when_the_seat_is_handed_over(monkeypatch):
    """The seat shows away under the tombstone's label at a new version: a follower waiting on
    the match is woken at that version even when the seat need not act (no bot step follows)."""
    from kernel import wake as notify

    woken: list[tuple[str, int]] = []
    monkeypatch.setattr(
        notify, "publish", lambda match_id, version: woken.append((str(match_id), version))
    )
    stays, leaver = Player("Stays"), Player("Leaver")
    created = stays.create(game="fibber", seats=2, time_control="async", decision_seconds=3600)
    services.match_join(match_id=created["id"], user=leaver.user)
    match = Match.objects.get(pk=created["id"])
    if Seat.objects.get(match=match, user=leaver.user).must_act:  # the leaver acts first
        view = leaver.view(created["id"])
        action = random_action(view["legal_actions"], random.Random(1))
        assert (
            leaver.act(created["id"], {**action, "expected_version": view["version"]}).status_code
            == 200
        )
        match.refresh_from_db()
    assert not Seat.objects.get(match=match, user=leaver.user).must_act  # no bot step follows
    before = match.version
    woken.clear()
    response = leaver.client.delete("/api/me/", {"token": leaver.token}, format="json")
    assert response.status_code == 204
    match.refresh_from_db()
    assert match.version == before + 1
    assert woken == [(str(match.pk), match.version)]


def test_the_rebuild_agrees_after_a_deletion():
    user, client = registered()
    others = [Player(f"P{i}") for i in range(2)]
    for placements in ([1, 2, 3], [3, 1, 2]):
        match = finished_match("fabfib", [user, others[0].user, others[1].user], placements)
        match_record_results(match_id=match.pk)
    assert delete_me(client, password=PASSWORD).status_code == 204
    assert services.stats_rebuild(write=False)["differences"] == []


def test_confirming_is_throttled_as_logging_in(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"login": "2/min"})
    user, client = registered()
    for _ in range(2):
        assert_error(delete_me(client, password="wrong-guess"), 400, "invalid_credentials")
    assert_error(delete_me(client, password=PASSWORD), 429, "throttled")
    assert User.objects.get(pk=user.pk).deleted_at is None
    assert client.get("/api/me/").status_code == 200  # reading is not throttled


@pytest.mark.django_db(transaction=True)
def test_a_later_round_seats_a_deleted_entrant_for_the_bot():
    """A started tournament keeps a deleted player's entry; a round made after the deletion
    seats the tombstone away from the start, and the bot plays for it."""
    players = [Player(f"P{i}") for i in range(2)]
    gone, client = registered()
    assert delete_me(client, password=PASSWORD).status_code == 204
    tomb = User.objects.get(pk=gone.pk)
    with transaction.atomic():  # as a tournament's round is made: the bot runs on commit
        match = lobby.match_create_seated(
            host=players[0].user,
            game="fibbers_dice",
            users=[players[0].user, players[1].user, tomb],
            options={},
            visibility="public",
            time_control="live",
            decision_seconds=None,
        )
    assert Seat.objects.get(match=match, user=tomb).away
    last = play_to_the_end(str(match.pk), players, random.Random(3))
    assert last["status"] == "finished"
    decided = Event.objects.filter(match=match, actor=2).exclude(action=None)
    assert decided.exists() and all(e.by_bot for e in decided)


@pytest.mark.django_db(transaction=True)  # the bots run after each commit
def test_a_player_deleted_on_vacation_is_played_by_the_bot_at_once():
    """A vacation holds the takeover back; a deleted account's seat must not wait for it."""
    from games.services.vacation import vacation_start

    stays = Player("Stays")
    leaver, client = registered()
    created = stays.create(game="fibber", seats=2, time_control="async", decision_seconds=3600)
    services.match_join(match_id=created["id"], user=leaver)
    vacation_start(user=leaver, days=7)
    seat = Seat.objects.get(match_id=created["id"], user=leaver)
    assert seat.vacation_until is not None
    assert delete_me(client, password=PASSWORD).status_code == 204
    seat.refresh_from_db()
    assert seat.away and seat.vacation_until is None
    last = play_to_the_end(created["id"], [stays], random.Random(3))
    assert last["status"] == "finished"
