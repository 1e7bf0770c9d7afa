"""The embedded default (SQLite, no Redis): the runner thread does the end-of-match work, so
careers, ratings and boards fill in as they do with Celery workers."""

from __future__ import annotations

import random
import time

import pytest

from fibserver import runner
from games.engine.bots import random_action
from games.models import Career, RatingPoint
from kernel.tasks import local_queue
from tests.api.helpers import Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def embedded(settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "embedded", "BOT_DELAY_SECONDS": 0.0}
    local_queue.clear()
    assert runner.start()
    yield settings
    runner.stop()


def play(match_id: str, players: list[Player], rng: random.Random) -> None:
    """The humans act whenever they can; the runner plays the bot in between."""
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        views = [p.view(match_id) for p in players]
        if views[0]["status"] == "finished":
            return
        movers = [(p, v) for p, v in zip(players, views, strict=True) if v["legal_actions"]]
        if not movers:
            time.sleep(0.02)  # the bot's turn, on the runner thread
            continue
        player, view = rng.choice(movers)
        action = random_action(view["legal_actions"], rng)
        player.act(match_id, {**action, "expected_version": view["version"]})
    raise AssertionError("the match did not end")


def test_the_runner_records_a_finished_match_once_for_every_human(embedded):
    ada, bob = Player("Ada"), Player("Bob")
    match = ada.create(game="fibbers_dice", seats=3, bots=["basic"])
    bob.post(f"/api/matches/{match['id']}/join/")
    play(match["id"], [ada, bob], random.Random(2))
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up and RatingPoint.objects.count() < 2:
        time.sleep(0.05)
    careers = Career.objects.filter(game="fibbers_dice")
    assert {c.user_id for c in careers} == {ada.user.pk, bob.user.pk}
    assert all(c.matches == 1 and c.rated_matches == 1 for c in careers)
    body = ada.get(f"/api/players/{bob.user.pk}/stats/?game=fibbers_dice").json()
    assert body["matches"] == 1 and len(body["history"]) == 1
