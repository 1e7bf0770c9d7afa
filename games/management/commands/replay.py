"""``python manage.py replay FILE...``: re-run exported match records and confirm them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.core import EngineError
from games.engine.replay import verify


class Command(BaseCommand):
    help = "Re-run replay files (docs/replay.md) with the engine and confirm the same outcome."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="replay JSON files or folders of them")

    def handle(self, *args: Any, **opts: Any) -> None:
        paths: list[Path] = []
        for name in opts["files"]:
            path = Path(name)
            paths.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
        failed = 0
        for path in paths:
            try:
                problems = verify(json.loads(path.read_text()))
            except (OSError, ValueError, KeyError, TypeError, EngineError) as error:
                problems = [f"unreadable record: {error}"]
            if problems:
                failed += 1
                self.stdout.write(self.style.ERROR(f"{path}: {'; '.join(problems)}"))
            elif opts["verbosity"] > 1:
                self.stdout.write(f"{path}: ok")
        self.stdout.write(f"{len(paths) - failed} of {len(paths)} replays re-ran exactly")
        if failed or not paths:
            raise CommandError(f"{failed} replay(s) differ" if paths else "no replay files found")
