"""The Prometheus metric families (docs/operations.md lists them with their meanings) and the
small functions the rest of the code counts with.

Correct across processes: with ``PROMETHEUS_MULTIPROC_DIR`` set in a process's environment
when it starts (docker-compose.yml: a tmpfs of its own per container), prometheus-client keeps
every value in memory-mapped files there, one set per process, and a scrape adds up the files
of every process of the deployment (gunicorn's workers, a Celery worker's pool children); the
directory is emptied when the deployment starts (:func:`clean_multiproc_dir`: gunicorn's
``on_starting``, Celery's ``worker_init``). Without it (the embedded default, the tests'
own process) the values live in this process's default registry.

Labels are small fixed sets — routes (URL patterns, never paths), games, bot levels, error
codes, task names, channels — never a user's or a match's id (cardinality and privacy), and
nothing here ever sees hidden game information.

Each recording function costs a dictionary look-up and a locked add (a memory-mapped write in
multiprocess mode): no database or Redis round trip, so the move path can afford them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

disable_created_metrics()  # no `_created` series: half the lines, nothing a dashboard reads

#: Seconds: a request (long-polls wait up to 30 s), a bot's decision, a deadline's lateness.
_REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
_BOT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
_LATENESS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600)
_TASK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)


def multiprocess() -> bool:
    """Whether this process keeps its values in ``PROMETHEUS_MULTIPROC_DIR`` (decided by
    prometheus-client when it was first imported: the variable must be set at start-up)."""
    return bool(os.environ.get(MULTIPROC_ENV))


# --- HTTP ------------------------------------------------------------------------------------

HTTP_REQUESTS = Counter(
    "fibserver_http_requests",
    "HTTP requests answered, by route (URL pattern), method and status.",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "fibserver_http_request_duration_seconds",
    "Time to answer an HTTP request, by route and method (a long-poll's includes its wait).",
    ["route", "method"],
    buckets=_REQUEST_BUCKETS,
)

#: The route label of a request no URL pattern matched (or refused before routing).
UNROUTED = "<unrouted>"

# --- Play ------------------------------------------------------------------------------------

MOVES = Counter(
    "fibserver_moves_applied",
    "Decisions applied to matches, by game and by whom: player (a player's own move), bot "
    "(a bot seat's turn) or takeover (a bot deciding for a human seat).",
    ["game", "by"],
)
REFUSALS = Counter(
    "fibserver_move_refusals",
    "Moves refused, by error code (illegal_action, stale_version, forbidden, ...).",
    ["code"],
)
DEADLINES = Counter(
    "fibserver_deadlines_fired",
    "Overdue decisions taken by a bot, by game and by what found them: the deadline's own "
    "timer task or the periodic sweep.",
    ["game", "source"],
)
DEADLINE_LATENESS = Histogram(
    "fibserver_deadline_lateness_seconds",
    "How long after its deadline (database clock) an overdue decision was taken.",
    ["source"],
    buckets=_LATENESS_BUCKETS,
)
BOT_DECISIONS = Histogram(
    "fibserver_bot_decision_seconds",
    "Time a bot took to choose a decision, by game and level (its count: decisions).",
    ["game", "level"],
    buckets=_BOT_BUCKETS,
)
TAKEOVERS = Counter(
    "fibserver_takeovers",
    "Decisions a bot took for a human seat, by game and reason: deadline (the player's time "
    "ran out) or away (the seat is marked away after repeated time-outs).",
    ["game", "reason"],
)

# --- Followers -------------------------------------------------------------------------------

FOLLOWERS = Gauge(
    "fibserver_follower_connections",
    "Followers connected now, by kind: longpoll (waiting on the events endpoint) or "
    "subscription (GraphQL over a websocket).",
    ["kind"],
    multiprocess_mode="livesum",
)
DELIVERIES = Counter(
    "fibserver_follower_deliveries",
    "Answers with news delivered to followers (a long-poll's answer, a subscription's page).",
    ["kind"],
)
EVENTS_DELIVERED = Counter(
    "fibserver_follower_events_delivered",
    "Events delivered to followers.",
    ["kind"],
)

# --- Celery ----------------------------------------------------------------------------------

TASKS = Counter(
    "fibserver_celery_tasks",
    "Celery tasks run, by task name and outcome (success, failure, retry).",
    ["task", "outcome"],
)
TASK_DURATION = Histogram(
    "fibserver_celery_task_duration_seconds",
    "Time a Celery task ran, by task name.",
    ["task"],
    buckets=_TASK_BUCKETS,
)

# --- Notifications ---------------------------------------------------------------------------

NOTIFICATIONS = Counter(
    "fibserver_notification_deliveries",
    "Notification deliveries, by channel (webpush, webhook, fcm, apns, email) and outcome "
    "(sent, failed, retried, dropped).",
    ["channel", "outcome"],
)

NOTIFICATION_CHANNELS = frozenset({"webpush", "webhook", "fcm", "apns", "email"})
NOTIFICATION_OUTCOMES = frozenset({"sent", "failed", "retried", "dropped"})


# --- What the code calls ---------------------------------------------------------------------


_request_children: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def request_done(route: str, method: str, status: int, seconds: float) -> None:
    key = (route, method, status)
    children = _request_children.get(key)
    if children is None:  # a new route, method and status (a bounded set): look them up once
        children = _request_children[key] = (
            HTTP_REQUESTS.labels(route, method, str(status)),
            HTTP_DURATION.labels(route, method),
        )
    children[0].inc()
    children[1].observe(seconds)


def move_applied(game: str, by: str) -> None:
    """``by``: ``player``, ``bot`` or ``takeover``."""
    MOVES.labels(game, by).inc()


def move_refused(code: str) -> None:
    REFUSALS.labels(code).inc()


def deadline_fired(game: str, source: str, lateness: float) -> None:
    """``source``: ``timer`` or ``sweep``; ``lateness``: seconds after the deadline."""
    DEADLINES.labels(game, source).inc()
    DEADLINE_LATENESS.labels(source).observe(max(0.0, lateness))


def bot_decided(game: str, level: str, seconds: float) -> None:
    BOT_DECISIONS.labels(game, level).observe(seconds)


def taken_over(game: str, reason: str) -> None:
    """``reason``: ``deadline`` or ``away``."""
    TAKEOVERS.labels(game, reason).inc()


@contextmanager
def following(kind: str) -> Iterator[None]:
    """A follower of ``kind`` (``longpoll`` or ``subscription``) is connected for the block."""
    gauge = FOLLOWERS.labels(kind)
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


def delivered(kind: str, events: int) -> None:
    """A follower (``longpoll`` or ``subscription``) was sent a page with ``events`` events."""
    DELIVERIES.labels(kind).inc()
    if events:
        EVENTS_DELIVERED.labels(kind).inc(events)


def task_done(task: str, outcome: str, seconds: float | None) -> None:
    TASKS.labels(task, outcome).inc()
    if seconds is not None:
        TASK_DURATION.labels(task).observe(seconds)


def notification_delivered(channel: str, outcome: str) -> None:
    """Count one notification delivery attempt: ``channel`` one of
    :data:`NOTIFICATION_CHANNELS`, ``outcome`` one of :data:`NOTIFICATION_OUTCOMES` (``sent``:
    accepted by the provider; ``failed``: given up; ``retried``: failed, to be tried again;
    ``dropped``: not sent on purpose, e.g. quiet hours or a revoked endpoint). For the
    notification tasks to call after each attempt; anything else is refused, so the label set
    stays small."""
    if channel not in NOTIFICATION_CHANNELS or outcome not in NOTIFICATION_OUTCOMES:
        raise ValueError(f"unknown notification channel or outcome: {channel!r}, {outcome!r}")
    NOTIFICATIONS.labels(channel, outcome).inc()


# --- Scraping --------------------------------------------------------------------------------


class QueueDepth:
    """``fibserver_celery_queue_depth``: tasks waiting in the Celery queue on Redis, read when
    scraped (a few ``LLEN``s per scrape, never per request). Only with Celery on Redis."""

    def collect(self) -> Iterable[GaugeMetricFamily]:
        from django.conf import settings

        family = GaugeMetricFamily(
            "fibserver_celery_queue_depth",
            "Tasks waiting in the Celery queue (not yet taken by a worker; tasks a worker holds "
            "for a later time, such as deadline timers, are not counted).",
            labels=["queue"],
        )
        if settings.FIBSERVER["TASKS"] != "celery" or not settings.REDIS_URL:
            return []
        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        try:
            family.add_metric([queue], float(_queue_length(queue)))
        except Exception:  # Redis down: the gauge is absent, readiness says why
            return []
        return [family]


_redis_client: Any = None


def _queue_length(queue: str) -> int:
    """The queue's messages, every priority (kombu keeps one Redis list per priority step)."""
    global _redis_client
    from django.conf import settings

    if _redis_client is None:
        import redis

        _redis_client = redis.Redis.from_url(
            str(settings.CELERY_BROKER_URL), socket_timeout=1, socket_connect_timeout=1
        )
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    prefix = options.get("global_keyprefix", "")
    names = [f"{prefix}{queue}"] + [f"{prefix}{queue}\x06\x16{p}" for p in range(1, 10)]
    pipe = _redis_client.pipeline(transaction=False)
    for name in names:
        pipe.llen(name)
    return int(sum(pipe.execute()))


def exposition(*, queue_depth: bool = True) -> bytes:
    """The text of a scrape: every process's values in multiprocess mode (else this
    process's own registry), and the Celery queue depth."""
    if multiprocess():
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        text = generate_latest(registry)
    else:
        from prometheus_client import REGISTRY

        text = generate_latest(REGISTRY)
    if queue_depth:
        extra = CollectorRegistry()
        extra.register(QueueDepth())  # type: ignore[arg-type]
        text += generate_latest(extra)
    return text


def clean_multiproc_dir() -> None:
    """Empty (or make) ``PROMETHEUS_MULTIPROC_DIR`` before a deployment's processes start, so
    no values of an earlier run are counted again. Only from the process that starts the
    others (gunicorn's master, a Celery worker's main process), never from one of them."""
    folder = os.environ.get(MULTIPROC_ENV)
    if not folder:
        return
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    for item in path.iterdir():
        if item.is_dir():
            shutil.rmtree(item, ignore_errors=True)
        else:
            item.unlink(missing_ok=True)


def process_gone(pid: int) -> None:
    """A process of the deployment exited: its live gauges (followers connected) stop counting."""
    if multiprocess():
        mark_process_dead(pid)
