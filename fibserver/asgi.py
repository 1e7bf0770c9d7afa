"""ASGI entry point: the follower server (uvicorn) for the long-poll events endpoint."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

application = get_asgi_application()
