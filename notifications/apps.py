from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        """The notifications listen to what happened below them (``notifications.outbox``);
        nothing listens to them."""
        from games import signals as games
        from matchmaking import signals as matchmaking
        from tournaments import signals as tournaments

        from . import (
            outbox,
            personal,
            tasks,  # noqa: F401  (registers the Celery tasks sent by name)
        )

        personal.register()  # its part of an account's deletion and export

        games.step_committed.connect(outbox.after_step)
        games.match_started.connect(outbox.match_started)
        games.match_ended.connect(outbox.match_ended)
        games.decision_taken_by_bot.connect(outbox.takeover)
        tournaments.tournament_entered.connect(outbox.round_starting)
        matchmaking.challenged.connect(outbox.challenged)
        matchmaking.rematch_offered.connect(outbox.rematch_offered)
        matchmaking.looking.connect(outbox.followed_looking)
