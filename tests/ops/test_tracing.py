"""OpenTelemetry: off by default (not even imported), on with the standard OTEL_* variables
(here the console exporter), with Django requests as spans."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kernel.ops import tracing

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
import fibserver.wsgi
from django.test import Client
from opentelemetry import trace
print("ON" if type(trace.get_tracer_provider()).__name__ == "TracerProvider" else "OFF")
r = Client(HTTP_HOST="localhost").get("/api/schema/", HTTP_ACCEPT="application/json")
print("STATUS", r.status_code)
trace.get_tracer_provider().force_flush()
"""

OFF = """
import sys
import fibserver.wsgi
print("IMPORTED" if any(m.startswith("opentelemetry") for m in sys.modules) else "NOT IMPORTED")
"""


def run(script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    environ |= {
        "DJANGO_SETTINGS_MODULE": "fibserver.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'trace.sqlite3'}",
        "REDIS_URL": "",
        "FIBSERVER_TASKS": "inline",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_standard_variables_decide():
    assert not tracing.wanted({})
    assert tracing.wanted({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    assert tracing.wanted({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"})
    assert tracing.wanted({"OTEL_TRACES_EXPORTER": "console"})
    assert not tracing.wanted({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "x"})
    assert not tracing.wanted({"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "console"})


@pytest.mark.slow  # a few seconds (a subprocess, or 50 matches): the full tier
def test_tracing_is_off_and_not_even_imported_by_default(tmp_path):
    done = run(OFF, tmp_path)
    assert "NOT IMPORTED" in done.stdout, done.stderr[-2000:]


@pytest.mark.slow  # a few seconds (a subprocess, or 50 matches): the full tier
def test_the_console_exporter_prints_a_span_per_django_request(tmp_path):
    done = run(SCRIPT, tmp_path, OTEL_TRACES_EXPORTER="console", OTEL_SERVICE_NAME="fib-test")
    assert "ON" in done.stdout and "STATUS 200" in done.stdout, done.stderr[-3000:]
    assert '"name": "GET api/schema/"' in done.stdout
    assert '"service.name": "fib-test"' in done.stdout
