"""``python manage.py seed_demo --players P --matches M``: a database full of finished matches.

Every match is really played by the engines, each human seat by a bot of its player's level
(a player is ``strong``, ``basic`` or ``random`` for the whole run, so ratings have something
true to find), and some seats by bots; placements and bluff statistics are the engine's. The
rows go in with bulk inserts, then ``stats_rebuild`` computes careers, ratings, history and
boards from them, exactly as the end-of-match work would have (docs/ratings.md).

Realistic in shape: players' activity is heavy-tailed (a few play hundreds of matches, most a
handful), each has favourite games, matches end over the last ``--days`` days, some have bot
seats and some are solo (one human), Skull is sometimes played with two tribes. Not stored:
the event log and the final engine state (replays of seeded matches are unavailable), and no
seeded decision was a takeover.
"""

from __future__ import annotations

import hashlib
import itertools
import multiprocessing
import random
import time
from datetime import timedelta
from typing import Any

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandParser
from django.db import connections, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import services
from games.engine import registry
from games.engine.bots import make_bot
from games.models import Match, RecordedMatch, Seat

LEVELS = (("strong", 0.2), ("basic", 0.5), ("random", 0.3))
GAMES = (("fabfib", 0.3), ("fibber", 0.2), ("fibbers_dice", 0.3), ("skull", 0.2))
SEATS = {"fabfib": (3, 6), "fibber": (2, 6), "fibbers_dice": (2, 6), "skull": (3, 6)}
NAMES = ("Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Max")
BATCH = 2000


def play(
    job: tuple[str, int, dict[str, Any], str, list[str]],
) -> tuple[list[int], list[Any], str]:
    """One match played by bots in the engine: the placements, every seat's statistics and
    why it ended."""
    game, seats, options, seed, levels = job
    rules = registry.get(game)
    rng = random.Random(seed)
    bots = [make_bot(game, level, random.Random(f"{seed}:{s}")) for s, level in enumerate(levels)]
    state = rules.new_game(seats, options, seed).state
    for _ in range(100_000):
        if rules.is_over(state):
            break
        to_act = rules.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        state = rules.apply(state, seat, bots[seat].choose(rules.view(state, seat))).state
    return rules.placements(state), rules.stats(state), rules.end_reason(state)


def weighted(rng: random.Random, table: tuple[tuple[str, float], ...]) -> str:
    return rng.choices([k for k, _ in table], weights=[w for _, w in table])[0]


class Command(BaseCommand):
    help = "Fill the database with players and finished matches played by the engines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--matches", type=int, default=10000)
        parser.add_argument("--seed", default="demo", help="same seed, same matches")
        parser.add_argument("--days", type=int, default=90, help="matches end over these days")
        parser.add_argument(
            "--workers", type=int, default=multiprocessing.cpu_count(), help="engine processes"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        started = time.perf_counter()
        rng = random.Random(f"seed-demo:{opts['seed']}")
        players = self.make_players(opts["players"], opts["seed"], rng)
        jobs, specs = self.plan(opts["matches"], players, rng, opts["seed"])
        self.stdout.write(f"{len(players)} players; playing {len(jobs)} matches ...")
        t = time.perf_counter()
        if opts["workers"] > 1:
            connections.close_all()  # forked engine processes must not share a connection
            with multiprocessing.get_context("fork").Pool(opts["workers"]) as pool:
                outcomes = pool.map(play, jobs, chunksize=50)
        else:
            outcomes = [play(job) for job in jobs]
        self.stdout.write(f"played in {time.perf_counter() - t:.1f} s; inserting ...")
        t = time.perf_counter()
        self.insert(specs, jobs, outcomes, opts["days"], rng)
        self.stdout.write(f"inserted in {time.perf_counter() - t:.1f} s; rebuilding ...")
        t = time.perf_counter()
        summary = services.stats_rebuild()
        self.stdout.write(
            f"rebuilt {summary['careers']} careers and {summary['points']} rating points in "
            f"{time.perf_counter() - t:.1f} s; {time.perf_counter() - started:.1f} s in all"
        )

    def make_players(self, count: int, seed: str, rng: random.Random) -> list[dict[str, Any]]:
        tag = hashlib.sha256(seed.encode()).hexdigest()[:6]
        unusable = make_password(None)
        users = [
            User(
                username=f"demo-{tag}-{n}",
                display_name=f"{rng.choice(NAMES)} {n}",
                is_guest=True,
                password=unusable,
            )
            for n in range(count)
        ]
        User.objects.bulk_create(users, batch_size=BATCH)
        ids = User.objects.filter(username__startswith=f"demo-{tag}-").values_list("pk", flat=True)
        players = []
        for user_id in sorted(ids):
            games = [g for g, _ in GAMES]
            taste = [rng.random() ** 2 for _ in games]  # a favourite game or two
            players.append(
                {
                    "id": user_id,
                    "level": weighted(rng, LEVELS),
                    "activity": min(rng.paretovariate(1.2), 40.0),  # heavy-tailed: a few play a lot
                    "taste": dict(zip(games, taste, strict=True)),
                }
            )
        return players

    def plan(
        self, count: int, players: list[dict[str, Any]], rng: random.Random, seed: str
    ) -> tuple[list[Any], list[dict[str, Any]]]:
        cumulative = {
            game: list(itertools.accumulate(p["activity"] * p["taste"][game] for p in players))
            for game, _ in GAMES
        }
        jobs, specs = [], []
        for n in range(count):
            game = weighted(rng, GAMES)
            rules = registry.get(game)
            options: dict[str, Any] = {}
            lo, hi = SEATS[game]
            seats = rng.randint(lo, hi)
            if game == "skull" and rng.random() < 0.1:
                seats, options = 6, {"two_tribes": True}
            if game == "fibber" and rng.random() < 0.2:
                options = {"variant": "easy"}
            options = rules.normalize_options(seats, options)
            places = rules.places(seats, options)
            kind = rng.random()
            humans = len(places)
            if kind < 0.1:
                humans = 1  # solo against bots
            elif kind < 0.3:
                humans = max(1, len(places) - rng.randint(1, max(1, len(places) - 2)))
            chosen: list[dict[str, Any]] = []
            while len(chosen) < min(humans, len(players)):
                pick = rng.choices(players, cum_weights=cumulative[game])[0]
                if pick not in chosen:
                    chosen.append(pick)
            holders: list[Any] = [None] * seats
            levels = ["random"] * seats
            order = list(range(len(places)))
            rng.shuffle(order)
            for index, place in enumerate(order):
                person = chosen[index] if index < len(chosen) else None
                level = person["level"] if person else weighted(rng, LEVELS)
                for position in places[place]:
                    holders[position] = person["id"] if person else level
                    levels[position] = level
            match_seed = hashlib.sha256(f"seed-demo:{seed}:{n}".encode()).hexdigest()
            jobs.append((game, seats, options, match_seed, levels))
            specs.append({"holders": holders})
        return jobs, specs

    @transaction.atomic
    def insert(
        self,
        specs: list[dict[str, Any]],
        jobs: list[Any],
        outcomes: list[tuple[list[int], list[Any], str]],
        days: int,
        rng: random.Random,
    ) -> None:
        now = timezone.now()
        span = timedelta(days=days).total_seconds()
        # matches end in order over the span, most recently the last
        ends = sorted(now - timedelta(seconds=rng.random() * span) for _ in jobs)
        for start in range(0, len(jobs), BATCH):
            matches, seats = [], []
            for n in range(start, min(start + BATCH, len(jobs))):
                game, count, options, seed, _levels = jobs[n]
                placements, stats, end_reason = outcomes[n]
                finished_at = ends[n]
                match = Match(
                    game=game,
                    options=options,
                    seat_count=count,
                    status=Match.Status.FINISHED,
                    time_control=Match.TimeControl.LIVE,
                    decision_seconds=75,
                    version=1,
                    seed=seed,
                    seed_commitment=hashlib.sha256(bytes.fromhex(seed)).hexdigest(),
                    placements=placements,
                    stats=stats,
                    end_reason=end_reason,
                    results_recorded=True,
                    started_at=finished_at - timedelta(minutes=rng.randint(3, 40)),
                    finished_at=finished_at,
                )
                matches.append(match)
                for position, holder in enumerate(specs[n]["holders"]):
                    seats.append(
                        Seat(
                            match=match,
                            position=position,
                            user_id=holder if isinstance(holder, int) else None,
                            bot_level=holder if isinstance(holder, str) else "",
                            place=placements[position],
                        )
                    )
            Match.objects.bulk_create(matches)
            Match.objects.filter(pk__in=[m.pk for m in matches]).update(
                created_at=F("started_at"), updated_at=F("finished_at")
            )
            Seat.objects.bulk_create(seats)
            # recorded in the order they ended, as the end-of-match work would have
            RecordedMatch.objects.bulk_create(
                [RecordedMatch(match=m, game=m.game) for m in matches]
            )
