import os
import sys

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """In the embedded default (``scripts/serve``: no Redis) start the runner thread that
        plays bot turns and enforces deadlines, in the process that serves requests only
        (runserver's autoreloader starts a watcher process and a serving child with
        RUN_MAIN=true)."""
        from django.conf import settings

        from . import tasks  # noqa: F401  (registers the Celery tasks the services send by name)

        wanted = os.environ.get("FIBSERVER_EMBEDDED_RUNNER") == "1"
        serving = os.environ.get("RUN_MAIN") == "true" or "--noreload" in sys.argv
        if wanted and serving and settings.FIBSERVER["TASKS"] == "embedded":
            from . import runner

            runner.start()
