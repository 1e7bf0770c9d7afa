"""Development: the embedded server of ``scripts/serve`` (runserver, on 127.0.0.1 by default).

Debug pages are on (they show tracebacks and settings: never expose this server), and the
events endpoint honours ``wait`` under WSGI, since runserver gives each request its own thread.
"""

from .base import *  # noqa: F403
from .base import FIBSERVER, env_bool

DEBUG = env_bool("DEBUG", True)

FIBSERVER = {**FIBSERVER, "WSGI_LONG_POLL": env_bool("FIBSERVER_WSGI_LONG_POLL", True)}
