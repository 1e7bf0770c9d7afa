from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        """A round's match ending moves its tournament on (``games.signals.match_ended``)."""
        from games import signals as games

        from . import (
            legacy,  # noqa: F401  (the tasks' old names)
            personal,
            rounds,
            tasks,  # noqa: F401  (registers the Celery tasks sent by name)
        )

        personal.register()  # its part of an account's deletion
        games.match_ended.connect(rounds.match_ended)
