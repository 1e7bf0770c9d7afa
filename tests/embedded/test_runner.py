"""The embedded default plays bot turns on its runner thread, paced like a Celery worker: a
request never plays other seats' turns, so a client can watch a bot exhibition unfold and a
player marked away gets back in between the bot's moves."""

from __future__ import annotations

import time

import pytest

from accounts.services import guest_create
from fibserver import runner
from games import services
from games.engine import registry
from games.engine.replay import verify
from games.models import Event, Match, Seat
from kernel.tasks import local_queue
from tests.api.helpers import Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def embedded(settings):
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "embedded", "BOT_DELAY_SECONDS": 0.01}
    local_queue.clear()
    yield settings
    runner.stop()


def wait_for(predicate, seconds: float = 30):
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if value := predicate():
            return value
        time.sleep(0.05)
    return None


def test_a_bot_exhibition_unfolds_after_the_create_call_and_stats_wait_for_its_end(embedded):
    host = Player()
    created = host.create(game="fabfib", seats=3, bots=["random"] * 3, join=False)
    assert created["status"] == "active" and created["version"] == 1, "nothing played inline"
    stats = host.get(f"/api/matches/{created['id']}/stats/")
    assert stats.status_code == 404, "there is a before the end"
    assert runner.start()
    seen = set()

    def finished():
        view = host.view(created["id"])
        seen.add(view["version"])
        return view["status"] == "finished"

    assert wait_for(finished), "the runner played the exhibition to the end"
    assert len(seen) > 2, "a watcher saw it unfold"
    assert host.get(f"/api/matches/{created['id']}/stats/").status_code == 200
    assert verify(host.get(f"/api/matches/{created['id']}/replay/").json()) == []


def test_a_player_marked_away_gets_back_in_between_the_bot_moves(embedded):
    """The away seat's turn is queued with the bot pause, not played inside the request that
    made it due: the player can act first, and the queued bot turn is then stale."""
    users = [guest_create()[0] for _ in range(3)]
    match = services.match_create(user=users[0], game="fabfib", seats=3)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    mover = Seat.objects.get(match=match, must_act=True)
    away = (mover.position + 1) % 3
    Seat.objects.filter(match=match, position=away).update(away=True, timeouts=3)
    local_queue.clear()
    play_first_legal(match.pk, users[mover.position])
    assert Seat.objects.get(match=match, position=away).must_act, "Fab Fib: the next responds"
    assert len(local_queue) == 1, "the bot turn is queued"
    assert not Event.objects.filter(match=match, by_bot=True).exists(), "and not played"
    play_first_legal(match.pk, users[away])  # the player is back in time
    seat = Seat.objects.get(match=match, position=away)
    assert not seat.away and seat.timeouts == 0
    queued = local_queue.take(timeout=1)
    assert queued is not None and queued[0] == "games.tasks.run_bot_turn"
    match_id, version = queued[1]
    assert services.bot_act(match_id=match_id, expected_version=version) is False, "stale"
    assert not Event.objects.filter(match=match, by_bot=True).exists()


def play_first_legal(match_id, user) -> None:
    rules = registry.get("fabfib")
    match = Match.objects.get(pk=match_id)
    seat = Seat.objects.get(match=match, user=user).position
    assert match.state is not None
    entry = rules.view(rules.from_json(match.state), seat)["legal_actions"][0]
    action = {"type": entry["type"], **{k: d["one_of"][0] for k, d in entry["params"].items()}}
    services.action_submit(match_id=match_id, user=user, action=action)
