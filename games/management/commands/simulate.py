"""``python manage.py simulate GAME --matches N --seats K --seed S [--options JSON] [--json]``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import registry
from games.engine.bots import bot_levels
from games.engine.core import EngineError
from games.engine.simulate import MatchResult, simulate


class Command(BaseCommand):
    help = "Play bot-only matches entirely in the engine (no database) and summarise them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help=f"one of: {', '.join(registry.game_ids())}")
        parser.add_argument("--matches", type=int, default=100)
        parser.add_argument("--seats", type=int, required=True)
        parser.add_argument("--seed", default="1", help="master seed; match i gets its own seed")
        parser.add_argument("--options", default="{}", help="match options as a JSON object")
        parser.add_argument(
            "--bots", default=None, help="bot level per seat, comma-separated (default: random)"
        )
        parser.add_argument("--json", action="store_true", help="print exactly one JSON object")
        parser.add_argument(
            "--export", default=None, help="write each finished match's replay here"
        )
        parser.add_argument("--no-check", action="store_true", help="skip invariant checks")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            rules = registry.get(opts["game"])
        except EngineError as error:
            raise CommandError(error.reason) from None
        try:
            options = json.loads(opts["options"])
        except json.JSONDecodeError as error:
            raise CommandError(f"--options is not valid JSON: {error}") from None
        if not isinstance(options, dict):
            raise CommandError("--options must be a JSON object")
        seats = opts["seats"]
        levels = opts["bots"].split(",") if opts["bots"] else ["random"] * seats
        known = bot_levels(rules.game_id)
        for level in levels:
            if level not in known:
                raise CommandError(f"unknown bot level {level!r}; levels: {', '.join(known)}")
        if opts["matches"] < 1:
            raise CommandError("--matches must be at least 1")
        export = Path(opts["export"]) if opts["export"] else None
        if export:
            export.mkdir(parents=True, exist_ok=True)

        def write(result: MatchResult) -> None:
            if export and result.finished and result.record:
                path = export / f"{rules.game_id}-{result.index:06d}.json"
                path.write_text(json.dumps(result.record, separators=(",", ":")))

        try:
            summary = simulate(
                rules,
                matches=opts["matches"],
                seats=seats,
                seed=opts["seed"],
                options=options,
                levels=levels,
                check=not opts["no_check"],
                keep_records=bool(export),
                on_result=write,
            )
        except (EngineError, ValueError) as error:
            raise CommandError(getattr(error, "reason", str(error))) from None
        if opts["json"]:
            self.stdout.write(json.dumps(summary))
            return
        self.stdout.write(
            f"{summary['game']}: {summary['finished']}/{summary['matches']} finished, "
            f"{summary['errors']} errors, {summary['mean_actions']} actions on average "
            f"(p50 {summary['actions']['p50']}, p99 {summary['actions']['p99']}, "
            f"max {summary['actions']['max']}), {summary['seconds']} s "
            f"({summary['matches_per_second']} matches/s)"
        )
        if summary["end_reasons"]:
            shares = ", ".join(f"{r} {s:.1%}" for r, s in summary["end_reasons"].items())
            self.stdout.write(f"  ended by: {shares}")
        for seat, (win, place) in enumerate(
            zip(summary["win_rate"], summary["mean_placement"], strict=True)
        ):
            self.stdout.write(
                f"  seat {seat} ({levels[seat]}): win rate {win:.1%}, mean place {place}"
            )
        for sample in summary["error_samples"]:
            self.stdout.write(self.style.ERROR(f"  match {sample['match']}: {sample['errors']}"))
