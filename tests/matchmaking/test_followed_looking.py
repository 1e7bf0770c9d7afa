"""``followed_looking``: a player who queues tells their followers (once the ticket has waited
``LOOKING_DELAY_SECONDS``), naming the player and the game and nothing else; never someone
blocked either way, at most once per follower and player per ``LOOKING_WINDOW_SECONDS``, the
channel preferences honoured as for every kind."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matchmaking.models import Block, Follow
from notifications import deliveries as note_deliveries
from notifications import services as note_services
from notifications.models import Channel, Delivery, Kind, Notification, Webhook
from tests.api.helpers import Player
from tests.api.openapi_validation import assert_fits
from tests.graphql.helpers import GqlPlayer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def at_once(settings):
    settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "LOOKING_DELAY_SECONDS": 0}


def looking(player: Player) -> list[dict]:
    items = player.get("/api/me/notifications/?limit=200").json()["results"]
    return [n for n in items if n["kind"] == "followed_looking"]


def queue(player: Player, game: str = "skull", **body) -> int:
    answer = player.post("/api/queue/", {"game": game, "seats_min": 3, **body})
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def fire() -> None:
    note_services.reminders_fire()


def test_followers_are_told_who_looks_for_which_game_and_nothing_else():
    star, fan, other = Player("Star"), Player("Fan"), Player("Other")
    assert fan.post("/api/follows/", {"player": star.user.pk}).status_code == 201
    queue(star, seats_max=5, time_control="async", bots_after=30)
    assert looking(fan) == [], "held back until the ticket has waited"
    fire()
    (note,) = looking(fan)
    assert note["player"] == {"id": star.user.pk, "name": "Star"}
    assert note["game"] == "skull"
    assert note["match"] is None and note["seat"] is None and note["seats"] == []
    assert note["deadline"] is None and note["challenge"] is None
    assert_fits("NotificationPageOut", fan.get("/api/me/notifications/").json())
    assert looking(other) == [] and looking(star) == []


def test_a_blocked_player_is_not_told_even_with_a_follow_left_over():
    star, fan = Player("Star"), Player("Fan")
    Follow.objects.create(follower=fan.user, followed=star.user)  # raw: a block ends follows
    Block.objects.create(blocker=star.user, blocked=fan.user)
    queue(star)
    fire()
    assert not Notification.objects.filter(kind=Kind.FOLLOWED_LOOKING).exists()


def test_a_block_or_unfollow_before_it_fires_drops_it():
    star, fan, fan2 = Player("Star"), Player("Fan"), Player("Fan2")
    fan.post("/api/follows/", {"player": star.user.pk})
    fan2.post("/api/follows/", {"player": star.user.pk})
    queue(star)
    assert Notification.objects.filter(kind=Kind.FOLLOWED_LOOKING).count() == 2  # pending
    fan.post("/api/blocks/", {"player": star.user.pk})
    fan2.client.delete(f"/api/follows/{star.user.pk}/")
    fire()
    assert looking(fan) == [] and looking(fan2) == []
    assert not Notification.objects.filter(kind=Kind.FOLLOWED_LOOKING).exists()


def test_a_ticket_cancelled_or_matched_within_the_delay_tells_nobody(settings):
    settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "LOOKING_DELAY_SECONDS": 10}
    star, fan = Player("Star"), Player("Fan")
    fan.post("/api/follows/", {"player": star.user.pk})
    ticket = queue(star)
    fire()
    assert looking(fan) == [], "not due yet"
    assert star.client.delete(f"/api/queue/{ticket}/").status_code == 200
    Notification.objects.update(due_at=timezone.now() - timedelta(seconds=1))
    fire()
    assert looking(fan) == []
    assert not Notification.objects.filter(kind=Kind.FOLLOWED_LOOKING).exists()


def test_at_most_one_per_follower_and_player_in_the_window(settings):
    star, fan = Player("Star"), Player("Fan")
    fan.post("/api/follows/", {"player": star.user.pk})
    for _ in range(3):  # queue, told, cancel, queue again …
        ticket = queue(star)
        fire()
        star.client.delete(f"/api/queue/{ticket}/")
    assert len(looking(fan)) == 1
    # cancelled before it fired, then queued again: the second ticket's notice still tells
    Notification.objects.filter(kind=Kind.FOLLOWED_LOOKING).delete()
    settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "LOOKING_DELAY_SECONDS": 10}
    first = queue(star)
    star.client.delete(f"/api/queue/{first}/")
    queue(star, game="fabfib")
    Notification.objects.update(due_at=timezone.now() - timedelta(seconds=1))
    fire()
    (note,) = looking(fan)
    assert note["game"] == "fabfib"
    # once the window has passed, the next ticket tells again
    settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "LOOKING_DELAY_SECONDS": 0}
    Notification.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    waiting = star.get("/api/queue/").json()["tickets"][0]["id"]
    star.client.delete(f"/api/queue/{waiting}/")
    queue(star)
    fire()
    assert len(looking(fan)) == 2


def test_the_channel_preference_is_honoured():
    star, fan, fan2 = Player("Star"), Player("Fan"), Player("Fan2")
    for f in (fan, fan2):
        f.post("/api/follows/", {"player": star.user.pk})
        Webhook.objects.create(user=f.user, url="https://hooks.example.com/x", secret="s")
    answer = fan.client.patch(
        "/api/me/notification-preferences/",
        {"channels": [{"channel": "webhook", "kind": "followed_looking", "on": False}]},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["channels"]["webhook"]["followed_looking"] is False
    queue(star)
    fire()
    note_deliveries.dispatch()
    hooked = set(
        Delivery.objects.filter(
            channel=Channel.WEBHOOK, notification__kind=Kind.FOLLOWED_LOOKING
        ).values_list("notification__user_id", flat=True)
    )
    assert hooked == {fan2.user.pk}, "muted on the webhook for Fan, on for Fan2"
    assert len(looking(fan)) == 1, "the inbox always has everything"


def test_graphql_has_the_kind_and_the_player():
    star = GqlPlayer("Star")
    fan = GqlPlayer("Fan")
    Follow.objects.create(follower=fan.user, followed=star.user)
    from matchmaking.services import ticket_create

    ticket_create(user=star.user, game="fibber", seats_min=2, seats_max=2)
    fire()
    answer = fan.run("{ notifications { items { kind game player { id name } matchId } } }")
    assert answer.get("errors") is None, answer
    (item,) = answer["data"]["notifications"]["items"]
    assert item == {
        "kind": "followed_looking",
        "game": "fibber",
        "player": {"id": star.user.pk, "name": "Star"},
        "matchId": None,
    }
    prefs = fan.run("{ notificationPreferences { channels { channel kind on } } }")
    kinds = {c["kind"] for c in prefs["data"]["notificationPreferences"]["channels"]}
    assert "followed_looking" in kinds
