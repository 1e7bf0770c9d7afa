"""Test-wide configuration.

Hypothesis profiles: ``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) or ``dev`` (the default).
"""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
