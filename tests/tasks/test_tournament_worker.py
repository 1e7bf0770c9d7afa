"""A whole 20-player Fibber's Dice event played to the end through the API on PostgreSQL, with
a real Celery worker (and beat) taking the absent players' decisions and advancing the rounds
(docs/tournaments.md)."""

from __future__ import annotations

import random
import time

import pytest
from django.conf import settings as django_settings
from django.db import connection

from games.engine import registry
from games.engine.bots import make_bot
from games.engine.fibbers_dice import tournament as pure
from games.engine.replay import verify
from games.models import Match, RecordedMatch, Seat
from games.reads.replays import read_replay
from tests.api.helpers import Player
from tests.tasks.test_worker import worker  # noqa: F401  (the real-worker fixture)
from tournaments.models import Round, Tournament

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not django_settings.REDIS_URL or connection.vendor != "postgresql",
        reason="needs Redis and PostgreSQL (CI has both)",
    ),
]
RULES = registry.get("fibbers_dice")


def test_a_20_player_event_is_played_to_the_end_by_bots_through_the_api(worker):  # noqa: F811
    worker.start(FIBSERVER_LIVE_MIN_SECONDS="1")  # the rounds it starts have 1 s per decision
    host = Player("Host")
    created = host.post(
        "/api/tournaments/",
        {"name": "Twenty", "auto_advance": True, "decision_seconds": 1, "door_prizes": 3},
    ).json()
    url = f"/api/tournaments/{created['id']}/"
    players = [Player(f"E{i}") for i in range(20)]
    for p in players:
        assert p.post(url + "register/").status_code == 200
    absent = {p.user.pk for p in players[:3]}  # never act: the takeover bot plays for them
    present = {p.user.pk: p for p in players if p.user.pk not in absent}
    rng = random.Random(20)
    bots = {uid: make_bot("fibbers_dice", "basic", rng) for uid in present}
    assert host.post(url + "start/").json()["single_round"] is False
    late: Player | None = None
    give_up = time.monotonic() + 240
    api_actions = 0
    while time.monotonic() < give_up:
        event = Tournament.objects.get(pk=created["id"])
        if event.status == Tournament.Status.FINISHED:
            break
        rnd = Round.objects.filter(tournament=event).order_by("-number").first()
        if late is None and rnd.number == 2:
            late = Player("Late")
            assert late.post(url + "register/").status_code == 200
            present[late.user.pk] = late
            bots[late.user.pk] = make_bot("fibbers_dice", "basic", rng)
        match = Match.objects.get(pk=rnd.match_id) if rnd.match_id else None
        if match is None or match.status != Match.Status.ACTIVE:
            time.sleep(0.05)  # the worker records the round and starts the next one
            continue
        state = RULES.from_json(match.state)
        seat = Seat.objects.get(match=match, position=RULES.to_act(state)[0])
        player = present.get(seat.user_id)
        if player is None:
            time.sleep(0.05)  # an absent player's turn: the deadline passes, a bot takes it
            continue
        view = player.view(str(match.pk))
        if not view["legal_actions"]:
            continue
        # the engine view a bot reads: the API view's game part and its legal actions
        action = bots[seat.user_id].choose({**view["view"], "legal_actions": view["legal_actions"]})
        response = player.post(
            f"/api/matches/{match.pk}/actions/", {**action, "expected_version": view["version"]}
        )
        assert response.status_code in (200, 409, 403), response.json()
        api_actions += response.status_code == 200
    event = Tournament.objects.get(pk=created["id"])
    progress = [
        (r.number, r.match_id and Match.objects.get(pk=r.match_id).status, r.qualified)
        for r in Round.objects.filter(tournament=event).order_by("number")
    ]
    assert event.status == Tournament.Status.FINISHED, f"not finished in time: {progress}"
    rounds = list(Round.objects.filter(tournament=event).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5] and rounds[4].final
    finalists = [p for r in rounds[:4] for p in r.qualified]
    assert len(set(finalists)) == 4 and rounds[4].players == finalists
    assert late is not None and late.user.pk in rounds[2].players
    assert late.user.pk not in rounds[0].players
    assert len(rounds[0].players) == 20
    for r in rounds:
        match = Match.objects.get(pk=r.match_id)
        assert match.status == Match.Status.FINISHED
        assert verify(read_replay(match)) == []
        assert RecordedMatch.objects.filter(match=match).exists()  # ratings applied as usual
    assert Seat.objects.filter(match=rounds[0].match, user_id__in=absent, away=True).exists()
    detail = host.get(url).json()
    places = {row["player"]["id"]: row["final_place"] for row in detail["standings"]}
    assert [places[p] for p in detail["prize_picks"]] == [1, 2, 3, 4]
    raffle = detail["raffle"]
    assert len(raffle["entrants"]) == 21 and len(raffle["winners"]) == 3
    assert raffle["winners"] == pure.raffle(raffle["seed"], raffle["entrants"], 3)
    assert pure.seed_commitment(raffle["seed"]) == created["raffle"]["commitment"]
    assert api_actions > 50
