"""Tasks heal from a dead database connection, and a worker from a lost broker connection
(``fibserver/healing.py``); the whole processes under those faults: ``test_faults.py``."""

from __future__ import annotations

import types
from collections import OrderedDict

import psycopg
import pytest
from django.db import OperationalError, connection, transaction

from fibserver import healing, runner
from fibserver.celery import app
from games import tasks as game_tasks

POSTGRES = connection.vendor == "postgresql"


def _flaky(failures: int) -> tuple[list[int], object]:
    calls: list[int] = []

    def work() -> str:
        calls.append(1)
        if len(calls) <= failures:
            raise OperationalError("the connection is lost")
        return "done"

    return calls, work


def test_every_task_of_the_app_heals():
    # looked up in the project's app: ``game_tasks.sweep`` is a proxy to the task of whichever
    # Celery app is current, and another test may have made its own app current
    assert isinstance(app.tasks["games.tasks.sweep"], healing.HealingTask)
    assert isinstance(app.tasks["games.tasks.run_bot_turn"], healing.HealingTask)


@pytest.mark.django_db(transaction=True)
def test_a_task_that_meets_a_dead_connection_runs_once_more_on_a_fresh_one():
    calls, work = _flaky(failures=1)
    task = app.task(name="tests.ops.flaky_once", shared=False)(work)
    assert task() == "done"
    assert len(calls) == 2


@pytest.mark.django_db(transaction=True)
def test_a_task_fails_when_the_fresh_connection_fails_too():
    calls, work = _flaky(failures=2)
    task = app.task(name="tests.ops.flaky_twice", shared=False)(work)
    with pytest.raises(OperationalError):
        task()
    assert len(calls) == 2


@pytest.mark.django_db
def test_no_second_run_inside_a_transaction_of_the_caller():
    calls, work = _flaky(failures=1)
    task = app.task(name="tests.ops.flaky_in_atomic", shared=False)(work)
    with transaction.atomic(), pytest.raises(OperationalError):
        task()
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
def test_the_embedded_runner_runs_a_task_again_on_a_fresh_connection():
    """The runner calls the same task objects as a worker (``kernel.tasks.task``)."""
    calls, work = _flaky(failures=1)
    app.task(name="tests.ops.flaky_on_the_runner")(work)
    runner._run("tests.ops.flaky_on_the_runner")
    assert len(calls) == 2


def _terminate_own_backend() -> None:
    """What a failover does to this process's connection: the server ends it."""
    pid = connection.cursor().connection.info.backend_pid
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.mark.skipif(not POSTGRES, reason="terminates a PostgreSQL backend")
@pytest.mark.django_db(transaction=True)
def test_a_real_task_survives_its_backend_being_terminated():
    _terminate_own_backend()
    game_tasks.purge()  # as a worker runs it: meets the dead connection, runs again
    old = connection.connection
    _terminate_own_backend()
    with pytest.raises(OperationalError), connection.cursor() as cursor:  # stays dead alone
        cursor.execute("SELECT 1")
    healing.drop_broken_connections()  # what runs before the next task
    assert connection.connection is None
    game_tasks.sweep()
    assert connection.connection is not None and connection.connection is not old


def test_a_lost_broker_connection_does_not_stop_the_worker():
    """kombu's Redis transport, its connection already collected: restoring the unacknowledged
    messages gives up (they stay in Redis) instead of raising ``AttributeError``."""
    from kombu.transport import redis as kombu_redis

    healing.guard_kombu()
    channel = types.SimpleNamespace(connection=types.SimpleNamespace(client=None))
    qos = object.__new__(kombu_redis.QoS)
    qos.channel = channel
    qos._delivered = OrderedDict({"tag-1": object()})
    assert qos.restore_unacked() is None
    assert not qos._delivered
