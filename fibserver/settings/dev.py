"""Development: the embedded server of ``scripts/serve`` (uvicorn on the ASGI application, on
127.0.0.1 by default).

Debug pages are on (they show tracebacks and settings: never expose this server), and the
events endpoint honours ``wait`` under WSGI too (``manage.py runserver``, which gives each
request its own thread; under ``scripts/serve``'s ASGI server it waits anyway).
"""

import os
import warnings
from pathlib import Path

from .base import *  # noqa: F403
from .base import BASE_DIR, FIBSERVER, env_bool

DEBUG = env_bool("DEBUG", True)

# With DEBUG on, WhiteNoise serves static files straight from the apps; STATIC_ROOT exists only
# after collectstatic, and its absence is no news here.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)

FIBSERVER = {**FIBSERVER, "WSGI_LONG_POLL": env_bool("FIBSERVER_WSGI_LONG_POLL", True)}

# scripts/serve collects the static files first (hashed names, gzip copies) and says so with
# FIBSERVER_STATIC_COLLECTED: they are then served compressed and cached for a year, as in
# production (web/staticfiles.py). Without it (``manage.py runserver``) they are served straight
# from the apps and never cached, so an edited file shows at the next reload.
if env_bool("FIBSERVER_STATIC_COLLECTED", False):
    STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "web.staticfiles.HashedModulesStorage"},
    }
    WHITENOISE_USE_FINDERS = False
    WHITENOISE_AUTOREFRESH = False
    WHITENOISE_MAX_AGE = 60  # a file asked for by its plain name (the hashed ones: a year)
