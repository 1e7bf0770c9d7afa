"""WSGI entry point: the API (gunicorn sync workers), through ``fibserver.door.Door``."""

import os

from django.core.wsgi import get_wsgi_application

from fibserver.door import Door

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

application = Door(get_wsgi_application())
