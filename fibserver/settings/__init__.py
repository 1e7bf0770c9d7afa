"""Settings modules (``DJANGO_SETTINGS_MODULE``):

- ``fibserver.settings`` (this package, the default of ``manage.py``, the WSGI/ASGI entry points,
  Celery and the tests): :mod:`.base`, safe for a bare process (no debug, local hosts only).
- ``fibserver.settings.dev``: the development server of ``scripts/serve`` (debug on).
- ``fibserver.settings.production``: docker-compose.yml and the image (a real ``SECRET_KEY``
  required, HTTPS hardening, hashed and compressed static files).
"""

from .base import *  # noqa: F403
