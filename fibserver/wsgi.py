"""WSGI entry point: the API (gunicorn sync workers), through the fast lane's entry
(``api.fast.entry.Entry``)."""

import os

from django.core.wsgi import get_wsgi_application

from api.fast.entry import Entry

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

from kernel.ops import tracing

tracing.setup("api")  # only with OTEL_* set; before the handlers load their middleware

application = Entry(get_wsgi_application())
