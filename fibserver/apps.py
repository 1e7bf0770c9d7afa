import os
import sys

from django.apps import AppConfig


class FibserverConfig(AppConfig):
    """The entry points' app, installed last: it starts what the processes run, never what
    the apps below do."""

    name = "fibserver"
    verbose_name = "fibserver"

    def ready(self) -> None:
        """With runserver in the embedded default (no Redis) start the runner thread that plays
        bot turns and enforces deadlines, in the process that serves requests only
        (runserver's autoreloader starts a watcher process and a serving child with
        RUN_MAIN=true). Under uvicorn the ASGI lifespan starts it (``fibserver.asgi``)."""
        from django.conf import settings

        wanted = os.environ.get("FIBSERVER_EMBEDDED_RUNNER") == "1"
        serving = os.environ.get("RUN_MAIN") == "true" or "--noreload" in sys.argv
        if wanted and serving and settings.FIBSERVER["TASKS"] == "embedded":
            from . import runner

            runner.start()
