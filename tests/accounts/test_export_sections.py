"""The export holds what the API shows the player, section by section: each section of the
document equals the answer of the endpoint that serves it (and fits its OpenAPI component)."""

from __future__ import annotations

import json
import random

import pytest

from notifications import services as notification_services
from notifications.models import Webhook
from tests.api.helpers import Player, play_to_the_end
from tests.api.openapi_validation import assert_fits
from tests.notifications.push_receiver import PushService

pytestmark = pytest.mark.django_db


def ok(response) -> dict:
    assert response.status_code in (200, 201, 202), response.content
    return response.json()


def response_text(doc: dict) -> str:
    return json.dumps(doc)


def all_events(player: Player, match_id: str, seat: int) -> list[dict]:
    out: list[dict] = []
    after = 0
    while True:
        page = ok(player.get(f"/api/matches/{match_id}/events/?after={after}&seat={seat}"))
        out += page["events"]
        if not page["more"]:
            return out
        after = out[-1]["seq"]


def test_each_section_equals_what_the_api_shows_the_player(django_capture_on_commit_callbacks):
    rng = random.Random(7)
    alice, bob, carol = Player("Alice"), Player("Bob"), Player("Carol")
    finished = alice.create(game="fibber", seats=2)
    ok(bob.post(f"/api/matches/{finished['id']}/join/"))
    play_to_the_end(finished["id"], [alice, bob], rng)
    active = bob.create(game="skull", seats=3)
    ok(alice.post(f"/api/matches/{active['id']}/join/"))
    ok(carol.post(f"/api/matches/{active['id']}/join/"))
    lobby = alice.create(game="fabfib", seats=3)
    prefs = {"time_zone": "Europe/Paris"}
    ok(alice.client.patch("/api/me/notification-preferences/", prefs, format="json"))
    notification_services.webhook_create(user=alice.user, url="http://127.0.0.1:9/hook")
    browser = PushService(status=201, origin="https://push.example.com").subscription("a")
    notification_services.push_subscribe(
        user=alice.user,
        endpoint=browser["endpoint"],
        p256dh=browser["keys"]["p256dh"],
        auth=browser["keys"]["auth"],
    )
    device = {"platform": "fcm", "token": "fcm-token-of-alice", "label": "Pixel"}
    assert alice.client.post("/api/me/devices/", device, format="json").status_code == 201
    ok(alice.post("/api/blocks/", {"player": carol.user.pk}))
    ok(alice.post("/api/follows/", {"player": bob.user.pk}))
    ticket = ok(alice.post("/api/queue/", {"game": "fibber", "seats_min": 2, "seats_max": 2}))
    assert alice.client.delete(f"/api/queue/{ticket['id']}/").status_code in (200, 204)
    ok(alice.post("/api/challenges/", {"players": [bob.user.pk], "game": "fibber"}))

    with django_capture_on_commit_callbacks(execute=True):
        job = ok(alice.post("/api/me/export/"))
    assert_fits("ExportJobOut", job)
    status = ok(alice.get(f"/api/me/export/{job['id']}/"))
    assert status["status"] == "done"
    assert_fits("ExportJobOut", status)
    response = alice.get(f"/api/me/export/{job['id']}/download/")
    doc = json.loads(b"".join(response.streaming_content))
    assert_fits("ExportDocumentOut", doc)

    me = ok(alice.get("/api/me/"))
    assert {k: doc["profile"][k] for k in me} == me
    listed = ok(alice.get("/api/me/sessions/"))["results"]
    assert doc["sessions"] == [{k: v for k, v in s.items() if k != "current"} for s in listed]
    assert alice.token not in response_text(doc)

    # every match with the player's seat: the view and the log as that seat sees them
    assert [m["match"] for m in doc["matches"]] == [lobby["id"], active["id"], finished["id"]]
    for entry in doc["matches"]:
        path = f"/api/matches/{entry['match']}/?seat={entry['seat']}"
        assert entry["view"] == ok(alice.get(path))
        assert entry["events"] == all_events(alice, entry["match"], entry["seat"])
    assert doc["matches"][2]["view"]["status"] == "finished"

    assert doc["careers"] == ok(alice.get("/api/me/stats/"))
    history = [p for g in doc["careers"]["games"] for p in g["history"]]
    assert [(p["match"], p["rating"]) for p in history] == [
        (p["match_id"], p["rating"]) for p in doc["rating_history"]
    ]

    notes = doc["notifications"]
    assert notes["inbox"] == ok(alice.get("/api/me/notifications/?limit=200"))["results"]
    assert notes["preferences"] == ok(alice.get("/api/me/notification-preferences/"))
    hooks = ok(alice.get("/api/me/webhooks/"))["results"]
    assert notes["webhooks"] == [{**h, "secret": "********"} for h in hooks]
    assert Webhook.objects.get(user=alice.user).secret not in response_text(doc)
    pushes = ok(alice.get("/api/me/push-subscriptions/"))["results"]
    assert notes["push_subscriptions"] == pushes and len(pushes) == 1
    assert browser["keys"]["auth"] not in response_text(doc)
    assert browser["keys"]["p256dh"] not in response_text(doc)
    devices = ok(alice.get("/api/me/devices/"))["results"]
    assert notes["devices"] == devices and [d["label"] for d in devices] == ["Pixel"]

    queue = doc["matchmaking"]
    assert queue["tickets"] == ok(alice.get("/api/queue/"))["tickets"]
    assert queue["blocks"] == ok(alice.get("/api/blocks/"))["players"] == [carol.user.pk]
    assert queue["follows"] == ok(alice.get("/api/follows/"))["follows"]
    assert queue["challenges"] == ok(alice.get("/api/challenges/"))["challenges"]
    assert len(queue["challenges"]) == 1 and len(queue["tickets"]) == 1
