"""Operations: what whoever runs the server sees of it (docs/operations.md).

- :mod:`.context`    the request id, match id and user id of the work at hand (a request, a
                     Celery task), for the logs;
- :mod:`.logs`       JSON log lines (``LOG_FORMAT=json``, the production default) carrying them;
- :mod:`.metrics`    the Prometheus metric families and the small functions that count into
                     them, correct across processes (``PROMETHEUS_MULTIPROC_DIR``);
- :mod:`.middleware` the request id, the request metrics and the request log line;
- :mod:`.views`      ``/livez/``, ``/readyz/`` (``/healthz/``) and ``/metrics`` (answered by the
                     middleware, before the host check);
- :mod:`.scrape`     the answer of ``/metrics`` (token, exposition), shared by the Django view
                     and a Celery worker's own metrics port;
- :mod:`.worker`     Celery's side: the request id passed to tasks, task metrics, the metrics
                     port, JSON logs;
- :mod:`.tracing`    OpenTelemetry, off unless the standard ``OTEL_*`` variables turn it on.

Nothing here may read a match's hidden state or put a user's or a match's id into a metric
label: labels are routes, games, levels, codes and other small fixed sets.
"""
