"""Settings of the benchmark only (``bench/perf.py``): production settings, plus the floor's
URLs (``bench.perf_urls``). Never used by a deployment: the floor views exist only here."""

from fibserver.settings.production import *  # noqa: F403

ROOT_URLCONF = "bench.perf_urls"
