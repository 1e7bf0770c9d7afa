"""Write the GraphQL schema as SDL to ``api/graphql/schema.graphql`` (or check it is current)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

SDL_PATH = Path(__file__).resolve().parents[2] / "graphql" / "schema.graphql"


def current_sdl() -> str:
    from api.graphql.schema import schema

    return schema.as_str() + "\n"


class Command(BaseCommand):
    help = "Write the GraphQL SDL to api/graphql/schema.graphql (--check: fail if it is stale)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="only check, write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        sdl = current_sdl()
        committed = SDL_PATH.read_text() if SDL_PATH.exists() else ""
        if options["check"]:
            if committed != sdl:
                raise CommandError(
                    f"{SDL_PATH} is out of date: run `manage.py graphql_schema` and commit it."
                )
            self.stdout.write("The committed SDL is current.")
            return
        SDL_PATH.write_text(sdl)
        self.stdout.write(f"Wrote {SDL_PATH}.")
