"""WSGI entry point: the API (gunicorn sync workers)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

application = get_wsgi_application()
