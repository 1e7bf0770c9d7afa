"""OpenTelemetry traces: off by default, on with the standard ``OTEL_*`` variables.

Tracing starts when ``OTEL_TRACES_EXPORTER`` names an exporter (``otlp`` or ``console``) or an
OTLP endpoint is given (``OTEL_EXPORTER_OTLP_ENDPOINT`` / ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``),
unless ``OTEL_SDK_DISABLED=true``. Then Django requests, psycopg statements, Redis commands and
Celery tasks (sent and run, the trace passed along in the message) become spans, exported in
batches over OTLP/HTTP (protobuf); every other ``OTEL_*`` setting (service name, resource
attributes, sampler, headers, timeouts) is read by the SDK as the specification says.
Without them nothing of OpenTelemetry is even imported.

Each process starts its own exporter after it has forked: a gunicorn worker when it loads the
application (``fibserver.wsgi``), the follower at start-up (``fibserver.asgi``), each Celery
pool process at ``worker_process_init`` (:mod:`.worker`).
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)

#: Whether this process traces (set by :func:`setup`).
enabled = False


def wanted(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter:
        return exporter != "none"
    endpoints = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    return any(environ.get(name) for name in endpoints)


def setup(role: str) -> bool:
    """Start tracing in this process if the environment asks for it (once); ``role`` is the
    default ``service.name`` suffix (``fibserver-api``, ``fibserver-follow``, ...)."""
    global enabled
    if enabled or not wanted():
        return enabled
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

    named = bool(os.environ.get("OTEL_SERVICE_NAME"))
    attributes = {} if named else {"service.name": f"fibserver-{role}"}
    provider = TracerProvider(resource=Resource.create(attributes))
    exporters = os.environ.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower() or "otlp"
    for name in (e.strip() for e in exporters.split(",")):
        if name == "console":
            provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
        elif name == "otlp":
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        elif name != "none":
            log.warning("tracing: unknown OTEL_TRACES_EXPORTER %r ignored", name)
    trace.set_tracer_provider(provider)
    _instrument()
    enabled = True
    log.info("tracing on (%s)", exporters)
    return True


def _instrument() -> None:
    from opentelemetry.instrumentation.celery import CeleryInstrumentor
    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor
    from opentelemetry.instrumentation.redis import RedisInstrumentor

    DjangoInstrumentor().instrument()  # adds its middleware: before the handler loads them
    PsycopgInstrumentor().instrument(skip_dep_check=True)
    RedisInstrumentor().instrument()
    CeleryInstrumentor().instrument()


def current_ids() -> tuple[str | None, str | None]:
    """The current trace and span ids (hex), for the log lines."""
    from opentelemetry import trace

    span = trace.get_current_span().get_span_context()
    if not span.is_valid:
        return None, None
    return format(span.trace_id, "032x"), format(span.span_id, "016x")
