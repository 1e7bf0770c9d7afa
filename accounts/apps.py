from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from . import (
            hooks,
            tasks,  # noqa: F401  (registers the Celery tasks sent by name)
        )
        from .erasure import ACCOUNTS, ADMIN

        hooks.register("accounts", erasure=ACCOUNTS)
        hooks.register("admin", erasure=ADMIN)
