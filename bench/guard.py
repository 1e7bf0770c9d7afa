"""The one check every benchmark that empties tables makes first."""

from __future__ import annotations

from django.conf import settings


def require_benchmark_database() -> None:
    """Refuse to run unless the default database is PostgreSQL with "bench" or "perf" in its
    name, and Redis is configured: the benchmarks delete every match (and more) they find."""
    db = settings.DATABASES["default"]
    if "postgres" not in db["ENGINE"] or not settings.REDIS_URL:
        raise SystemExit("the benchmark needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    if "bench" not in db["NAME"] and "perf" not in db["NAME"]:
        raise SystemExit(
            f"refusing to empty {db['NAME']!r}: use a dedicated benchmark database, one whose "
            'name contains "bench" or "perf" (e.g. DATABASE_URL=…/fibserver_bench)'
        )
