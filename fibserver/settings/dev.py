"""Development: the embedded server of ``scripts/serve`` (runserver, on 127.0.0.1 by default).

Debug pages are on: they show tracebacks and settings, so never expose this server.
"""

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DEBUG", True)
