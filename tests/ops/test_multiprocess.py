"""Metrics across processes: two gunicorn workers (prometheus-client's multiprocess mode, a
directory of the test's own, emptied at start) count into one answer, and a worker that dies
takes none of its counts with it."""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from .processes import Process, free_port, gunicorn, wait_http

pytestmark = pytest.mark.slow

TOKEN = "multiprocess-" + uuid.uuid4().hex


def livez_counts(text: str) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if (
                sample.name == "fibserver_http_requests_total"
                and sample.labels.get("route") == "livez/"
            ):
                return sample.value
    return 0.0


def scrape(url: str) -> str:
    request = urllib.request.Request(f"{url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return answer.read().decode()


def per_process(folder: Path, tmp: Path) -> dict[int, float]:
    """The livez count of each process, from its own file alone."""
    counts = {}
    for path in folder.glob("counter_*.db"):
        alone = tmp / f"alone-{path.stem}"
        alone.mkdir(parents=True)
        shutil.copy(path, alone / path.name)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(alone))
        value = 0.0
        for family in registry.collect():
            for sample in family.samples:
                if (
                    sample.name == "fibserver_http_requests_total"
                    and sample.labels.get("route") == "livez/"
                ):
                    value = sample.value
        counts[int(path.stem.split("_")[1])] = value
    return counts


def test_two_gunicorn_workers_count_into_one_answer(tmp_path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "counter_1.db").write_bytes(b"left over from an earlier run")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
        "FIBSERVER_TASKS": "inline",
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
        "METRICS_TOKEN": TOKEN,
        "LOG_FORMAT": "json",
    }
    server = Process("gunicorn", gunicorn(port, workers=2), env, tmp_path)
    try:
        wait_http(f"{url}/livez/", 120, server)
        assert not (folder / "counter_1.db").exists(), "the directory was emptied at start"
        first = livez_counts(scrape(url))
        sent = 0
        lock = threading.Lock()

        def client() -> None:
            nonlocal sent
            for _ in range(30):
                with urllib.request.urlopen(f"{url}/livez/", timeout=20) as answer:
                    assert answer.status == 200
                with lock:
                    sent += 1

        # Until both workers have served some (the kernel hands connections to either).
        for _ in range(10):
            threads = [threading.Thread(target=client) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            counts = per_process(folder, tmp_path / f"round-{sent}")
            if sum(1 for v in counts.values() if v > 0) >= 2:
                break
        assert sum(1 for v in counts.values() if v > 0) >= 2, counts
        total = first + sent
        assert sum(counts.values()) == total
        for _ in range(3):  # whichever worker answers the scrape, the same total
            assert livez_counts(scrape(url)) == total

        # A worker killed: gunicorn starts another; what the dead one counted still counts.
        victim = max(pid for pid, v in counts.items() if v > 0 and pid != server.pid)
        os.kill(victim, signal.SIGKILL)
        time.sleep(2)
        wait_http(f"{url}/livez/", 60, server)
        assert livez_counts(scrape(url)) == total + 1
    finally:
        server.stop()
