"""Deadlines and bots with a real Celery worker (and beat) on the real Redis and PostgreSQL.

Each test starts ``celery -A fibserver worker -B`` as a separate process on a queue of its own,
pointed at the test database, and drives matches through the services."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from accounts.services import guest_create
from games import services
from games.engine import registry
from games.engine.replay import verify
from games.models import Event, Match, Seat
from games.reads.replays import read_replay
from kernel.errors import Forbidden, StaleVersion
from tests.api.helpers import applied_actions, replays_to_stored_state

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not django_settings.REDIS_URL or connection.vendor != "postgresql",
        reason="needs Redis and PostgreSQL (CI has both)",
    ),
]


class Worker:
    """A real worker process (with embedded beat) that can be killed and started again."""

    def __init__(self, queue: str, tmp: Path) -> None:
        self.queue, self.tmp = queue, tmp
        self.process: subprocess.Popen[bytes] | None = None
        db = connection.settings_dict
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        self.env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
            "FIBSERVER_QUEUE": queue,
            "FIBSERVER_BOT_DELAY": "0.02",
            "FIBSERVER_SWEEP_SECONDS": "0.5",
            "FIBSERVER_TASKS": "celery",
            "DB_CONN_MAX_AGE": "0",
        }

    def start(self, module: str = "celery", **extra_env: str) -> None:
        """Start the worker: ``python -m celery``, or a test module that wraps it."""
        from fibserver.celery import app

        name = f"{self.queue}-{uuid.uuid4().hex[:6]}@localhost"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                module,
                "-A",
                "fibserver",
                "worker",
                "-B",
                "-s",
                str(self.tmp / f"beat-{name}"),
                "-Q",
                self.queue,
                "-n",
                name,
                "--concurrency",
                "2",
                "-l",
                "warning",
            ],
            cwd=ROOT,
            env={**self.env, **extra_env},
            start_new_session=True,
        )
        for _ in range(120):
            if app.control.ping(destination=[name], timeout=0.5):
                return
            assert self.process.poll() is None, "the worker exited"
        raise AssertionError("the worker did not come up")

    def kill(self) -> None:
        """SIGKILL the worker and its pool children: a crash, not a shutdown."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def worker(settings, tmp_path):
    from fibserver.celery import app

    queue = f"fibserver-test-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    settings.FIBSERVER = {
        **settings.FIBSERVER,
        "TASKS": "celery",
        "BOT_DELAY_SECONDS": 0.02,
        "LIVE_MIN_SECONDS": 1,
    }
    handle = Worker(queue, tmp_path)
    yield handle
    handle.kill()
    app.conf.task_default_queue = previous
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(queue)


def live_match(seconds: int = 2, seats: int = 3) -> tuple[Match, list]:
    users = [guest_create()[0] for _ in range(seats)]
    match = services.match_create(
        user=users[0], game="fabfib", seats=seats, decision_seconds=seconds
    )
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, users


def wait_for(predicate, seconds: float):
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        result = predicate()
        if result:
            return result
        time.sleep(0.05)
    return predicate()


def test_a_passed_deadline_is_taken_by_a_bot_for_the_player(worker):
    worker.start()
    match, _ = live_match(seconds=2)
    seat = Seat.objects.get(match=match, must_act=True)
    event = wait_for(lambda: Event.objects.filter(match=match, by_bot=True).first(), 15)
    assert event is not None, "no bot acted after the deadline"
    assert event.actor == seat.position and event.deadline == seat.deadline
    late = (event.created_at - seat.deadline).total_seconds()
    assert 0 <= late < 5, late
    assert Seat.objects.get(pk=seat.pk).user_id == seat.user_id, "the player keeps the seat"


def test_an_all_bot_match_plays_to_the_end_by_itself(worker):
    worker.start()
    user = guest_create()[0]
    match = services.match_create(
        user=user, game="fabfib", seats=4, bots=["random"] * 4, join=False
    )
    finished = wait_for(lambda: Match.objects.get(pk=match.pk).status == "finished", 90)
    assert finished, f"stuck at version {Match.objects.get(pk=match.pk).version}"
    assert verify(read_replay(Match.objects.get(pk=match.pk))) == []


def test_a_worker_killed_mid_takeover_loses_no_deadline_and_applies_nothing_twice(worker):
    marker = worker.tmp / "pausing"
    worker.start("tests.tasks.faulty_worker", FAULT_TAKEOVER_PAUSE="60", FAULT_MARKER=str(marker))
    match, _ = live_match(seconds=1)
    seat = Seat.objects.get(match=match, must_act=True)
    assert wait_for(marker.exists, 20), "the takeover never started"
    worker.kill()  # mid-transaction, holding the match row lock
    time.sleep(0.5)
    assert not Event.objects.filter(match=match, by_bot=True).exists(), "nothing was committed"
    assert Match.objects.get(pk=match.pk).version == match.version
    worker.start()  # no fault this time: the sweep (or the re-delivered timer) takes over
    event = wait_for(lambda: Event.objects.filter(match=match, by_bot=True).first(), 20)
    assert event is not None and event.actor == seat.position
    time.sleep(1.5)  # give any duplicate a chance to show up
    taken = [e for e in applied_actions(match.pk) if e.by_bot and e.deadline == seat.deadline]
    assert len(taken) == 1, "the decision was taken exactly once"
    assert replays_to_stored_state(match.pk)


def test_a_move_at_the_moment_the_deadline_fires_is_applied_exactly_once(worker):
    worker.start()
    outcomes = []
    for offset in (0.15, 0.05, 0.0, -0.05, -0.15):
        match, users = live_match(seconds=2)
        seat = Seat.objects.get(match=match, must_act=True)
        rules = registry.get(match.game)
        legal = rules.legal_actions(rules.from_json(match.state), seat.position)[0]
        action = {"type": legal["type"], **{k: d["one_of"][0] for k, d in legal["params"].items()}}
        wait = (seat.deadline - services.db_now()).total_seconds() - offset
        time.sleep(max(0.0, wait))
        try:
            services.action_submit(
                match_id=match.pk,
                user=users[seat.position],
                action=action,
                expected_version=match.version,
            )
            human = True
        except (StaleVersion, Forbidden):
            human = False
        time.sleep(1.0)
        decided = [e for e in applied_actions(match.pk) if e.version == match.version + 1]
        assert len(decided) == 1, "one decision, taken once"
        assert decided[0].by_bot is (not human)
        outcomes.append(human)
        assert replays_to_stored_state(match.pk)
    assert outcomes[0] is True, "well before the deadline the player's move wins"
