"""``manage.py web_rules``: write ``web/static/web/rules.js`` (the rules panel of /play/) from the
"In short" section of each game's rules page; ``--check`` only says whether it is up to date."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from web.rules import RULES_JS, rules_js


class Command(BaseCommand):
    help = "Write web/static/web/rules.js from the 'In short' sections of docs/rules/<game>.md."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="fail if the file is stale")

    def handle(self, *args: Any, **options: Any) -> None:
        text = rules_js()
        if options["check"]:
            if not RULES_JS.exists() or RULES_JS.read_text() != text:
                raise CommandError(f"{RULES_JS} is stale: run `manage.py web_rules`.")
            self.stdout.write("up to date")
            return
        RULES_JS.write_text(text)
        self.stdout.write(str(RULES_JS))
