"""``python manage.py stats_rebuild [--game G] [--check]``: careers, ratings, rating history and
leaderboard values rebuilt from the match history (``games.services.rebuild``)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services
from games.engine import registry


class Command(BaseCommand):
    help = (
        "Rebuild every career, rating and leaderboard from the recorded matches, in the order "
        "they were recorded (the same numbers as the end-of-match work); --check only compares."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=registry.game_ids(), help="only this game")
        parser.add_argument(
            "--check",
            action="store_true",
            help="write nothing; list where the stored aggregates differ (exit 1 if any)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        started = time.perf_counter()
        summary = services.stats_rebuild(game=opts["game"], write=not opts["check"])
        seconds = time.perf_counter() - started
        counts = (
            f"{summary['matches']} matches, {summary['careers']} careers, "
            f"{summary['points']} rating points in {seconds:.1f} s"
        )
        if not opts["check"]:
            self.stdout.write(f"rebuilt {counts}")
            return
        differences = summary["differences"]
        for line in differences[:20]:
            self.stdout.write(self.style.ERROR(line))
        if differences:
            raise CommandError(f"{len(differences)} difference(s) from the rebuilt {counts}")
        self.stdout.write(f"no differences: the stored aggregates equal the rebuilt {counts}")
