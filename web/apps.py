from django.apps import AppConfig


class WebConfig(AppConfig):
    """The reference web client at ``/play/``: a page and static ES modules that talk to the
    server only through the public API (REST and the long-poll events feed)."""

    name = "web"
    verbose_name = "Web table"
