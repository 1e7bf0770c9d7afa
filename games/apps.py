from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from . import (
            personal,
            tasks,  # noqa: F401  (registers the Celery tasks the services send by name)
        )

        personal.register()  # its part of an account's deletion and export
