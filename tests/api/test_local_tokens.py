"""The fast lane's tokens from process memory (api.localtokens): used without a round trip,
and never once a session has ended — here at once, in another process as soon as the
invalidation is delivered, and never while the subscription that delivers it is down."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.sessions import digest_of
from api import localtokens
from api.fast import answers

from .helpers import Player

pytestmark = pytest.mark.django_db(transaction=True)

needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="the invalidations ride Redis")


def until(condition, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def a_match() -> tuple[Player, str]:
    player = Player("Ann")
    match = player.create(game="fibber", seats=2)
    return player, match["id"]


def kept(player: Player) -> bool:
    return localtokens.get(digest_of(player.token)) is not None


def test_a_view_and_a_move_are_served_with_the_token_from_memory_without_a_query_for_it(
    monkeypatch,
):
    player, match_id = a_match()
    Player("Bob").post(f"/api/matches/{match_id}/join/")
    assert until(lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1])

    def looked_up(*args, **kwargs):
        raise AssertionError("the token was looked up (cache or database), not taken from memory")

    monkeypatch.setattr(answers.tokens, "authenticate_credentials", looked_up)
    with CaptureQueriesContext(connection) as queries:
        view = player.view(match_id)
        player.act(match_id, {"type": "nothing"})  # refused by the rules, after the token
    assert view["id"] == match_id
    assert queries.captured_queries
    assert not [q for q in queries.captured_queries if "accounts_session" in q["sql"]]


def test_a_logout_is_refused_at_once_by_the_fast_lane():
    player, match_id = a_match()
    assert until(lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1])
    assert player.post("/api/auth/logout/").status_code in (200, 204)
    assert not kept(player)
    answer = player.get(f"/api/matches/{match_id}/")
    assert answer.status_code == 401, answer.content
    answer = player.act(match_id, {"type": "pass"})
    assert answer.status_code == 401, answer.content


def test_a_deactivated_user_is_refused_at_once():
    player, match_id = a_match()
    assert until(lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1])
    player.user.is_active = False
    player.user.save()
    assert player.get(f"/api/matches/{match_id}/").status_code == 401


def test_an_invalidation_that_raced_with_a_lookup_keeps_nothing():
    player, _match_id = a_match()
    digest = digest_of(player.token)
    seen = localtokens.mark()
    localtokens.forget(["someone-else"])  # any invalidation between the read and the keep
    localtokens.keep(digest, player.user, None, seen)
    assert localtokens.get(digest) is None
    localtokens.keep(digest, player.user, None, localtokens.mark())
    assert until(lambda: localtokens.get(digest) is not None)


@needs_redis
def test_another_process_forgetting_a_session_drops_it_here_within_the_delivery():
    import redis

    player, match_id = a_match()
    assert until(lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1])
    other = redis.Redis.from_url(settings.REDIS_URL)  # as another worker publishes it
    try:
        t0 = time.monotonic()
        other.publish(localtokens.CHANNEL, digest_of(player.token))
        assert until(lambda: not kept(player), seconds=2.0)
        assert time.monotonic() - t0 < 1.0  # the stated bound: the delivery, not the expiry
    finally:
        other.close()


@needs_redis
def test_while_the_subscription_is_down_nothing_is_used_from_memory():
    import redis

    player, match_id = a_match()
    assert until(lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1])
    admin = redis.Redis.from_url(settings.REDIS_URL)
    try:
        name = localtokens.client_name()
        ours = [c for c in admin.client_list(_type="pubsub") if c.get("name") == name]
        assert ours, "the subscription names its connection"
        for client in ours:
            admin.client_kill_filter(_id=client["id"])
        # the subscription noticed: everything kept is gone, nothing is used
        assert until(lambda: not kept(player), seconds=2.0)
        # and once it is back, tokens are kept again
        assert until(
            lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1], seconds=5.0
        )
    finally:
        admin.close()


def test_an_entry_is_used_for_at_most_its_lifetime(monkeypatch):
    player, match_id = a_match()
    assert until(lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1])
    real = time.monotonic
    monkeypatch.setattr(
        localtokens.time, "monotonic", lambda: real() + localtokens.LOCAL_SECONDS + 1
    )
    assert not kept(player)


def test_sessions_revoked_through_the_api_are_refused_by_the_fast_lane():
    player, match_id = a_match()
    assert until(lambda: (player.get(f"/api/matches/{match_id}/"), kept(player))[1])
    sessions = player.get("/api/me/sessions/").json()
    rows = sessions["results"] if isinstance(sessions, dict) else sessions
    current = next(s for s in rows if s.get("current"))
    answer = player.client.delete(f"/api/me/sessions/{current['id']}/")
    assert answer.status_code in (200, 204), answer.content
    assert player.get(f"/api/matches/{match_id}/").status_code == 401
