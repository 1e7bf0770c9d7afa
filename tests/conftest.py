"""Test-wide configuration.

Hypothesis profiles: ``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) or ``dev`` (the default).
"""

import os

import pytest
from hypothesis import settings as hypothesis_settings

hypothesis_settings.register_profile("ci", max_examples=100, deadline=None)
hypothesis_settings.register_profile("dev", max_examples=50, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _tasks_inline(settings):
    """Bot turns run in-process in tests; the tests with a real Celery worker turn this off."""
    settings.FIBSERVER = {**settings.FIBSERVER, "RUN_TASKS_INLINE": True}
