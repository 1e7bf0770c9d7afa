"""Development: the embedded server of ``scripts/serve`` (uvicorn on the ASGI application, on
127.0.0.1 by default).

Debug pages are on (they show tracebacks and settings: never expose this server), and the
events endpoint honours ``wait`` under WSGI too (``manage.py runserver``, which gives each
request its own thread; under ``scripts/serve``'s ASGI server it waits anyway).
"""

import warnings

from .base import *  # noqa: F403
from .base import FIBSERVER, env_bool

DEBUG = env_bool("DEBUG", True)

# With DEBUG on, WhiteNoise serves static files straight from the apps; STATIC_ROOT exists only
# after collectstatic, and its absence is no news here.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)

FIBSERVER = {**FIBSERVER, "WSGI_LONG_POLL": env_bool("FIBSERVER_WSGI_LONG_POLL", True)}
