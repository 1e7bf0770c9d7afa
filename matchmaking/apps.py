from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matchmaking"

    def ready(self) -> None:
        from . import (
            personal,
            tasks,  # noqa: F401  (registers the Celery tasks sent by name)
        )

        personal.register()  # its part of an account's deletion and export
