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
    """Follow-up work runs right after the commit in tests; the tests with a real Celery worker
    or the embedded runner choose their own mode."""
    settings.FIBSERVER = {**settings.FIBSERVER, "TASKS": "inline"}
