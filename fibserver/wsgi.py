"""WSGI entry point: the API (gunicorn sync workers), through the fast lane's entry
(``api.fast.entry.Entry``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

from kernel.ops import tracing

tracing.setup("api")  # only with OTEL_* set; before the handlers load their middleware

django_application = get_wsgi_application()  # sets Django up: the entry imports the apps

from api.fast.entry import Entry  # noqa: E402

application = Entry(django_application)
