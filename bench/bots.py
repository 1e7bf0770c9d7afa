"""Evaluate bot levels against each other and write ``bench/bots.md``.

    uv run python bench/bots.py                 # every game, the default number of matches
    uv run python bench/bots.py --games skull --matches 400
    uv run python bench/bots.py --expert-matches 400 --jobs 2

For each game: the strong bot against three random bots and against three basic bots at a
4-seat table, the basic bot against three random bots, and the expert bot against three strong
bots, and (robustness: the expert must not play worse than the strong bot against other
opponents) the expert against three basic and three random bots, with the tested bot's seat
rotated through every position (so seat order cannot explain a result). Each row's matches are
seeded by its pair alone, so ``--pairs expert:basic --update`` adds or replaces just that row
of the kept sections and reproduces what a full run gives for it. Win rates carry a 95 %
Wilson interval; decision times are measured around ``bot.choose(view)``. For the expert, the
memory a decision allocates is measured with ``tracemalloc`` (the peak of traced memory during
``choose``) on every :data:`MEMORY_EVERY`-th of its decisions, which are then left out of the
timings (tracing slows them down); the search counters (decisions searched, prior overruled,
safety stops) are summed.
``--jobs`` runs the games in parallel processes.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")

from games.engine import registry
from games.engine.bots import bot_levels, make_bot
from games.engine.simulate import match_seed, wilson

SEATS = 4
MEMORY_EVERY = 16
PAIRS = [
    ("strong", "random"),
    ("strong", "basic"),
    ("basic", "random"),
    ("expert", "strong"),
    ("expert", "basic"),
    ("expert", "random"),
]
ROW_HEAD = "| bot | against 3 × | matches | win rate | 95 % CI | mean place |"


class Meter:
    """Decision times per level, memory peaks and search counters of the expert."""

    def __init__(self) -> None:
        self.timings: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        self.memory: list[int] = []
        self.counters = {"decisions": 0, "searched": 0, "deviations": 0, "safety_stops": 0}
        self._count = 0

    def decide(self, level: str, bot, view: dict) -> dict:
        if level == "expert":
            self._count += 1
            if self._count % MEMORY_EVERY == 0:
                tracemalloc.start()
                action = bot.choose(view)
                self.memory.append(tracemalloc.get_traced_memory()[1])
                tracemalloc.stop()
                return action
        started, cpu = time.perf_counter(), time.thread_time()
        action = bot.choose(view)
        self.cpu.setdefault(level, []).append(time.thread_time() - cpu)
        self.timings.setdefault(level, []).append(time.perf_counter() - started)
        return action

    def tally(self, bots: list, levels: list[str]) -> None:
        for bot, level in zip(bots, levels, strict=True):
            if level == "expert":
                self.counters["searched"] += bot.searched
                self.counters["deviations"] += bot.deviations
                self.counters["safety_stops"] += bot.safety_stops


def play(rules, options: dict, levels: list[str], seed: str, meter: Meter) -> list[int]:
    """One match; returns the placements. Each bot decides from its seat's view only."""
    state, _ = play_to_end(rules, options, levels, seed, meter)
    return rules.placements(state)


def play_to_end(rules, options: dict, levels: list[str], seed: str, meter: Meter):
    """One match; returns the final state and the number of decisions taken."""
    rng = random.Random(seed)
    bots = [
        make_bot(rules.game_id, level, random.Random(f"{seed}:{i}"))
        for i, level in enumerate(levels)
    ]
    state = rules.new_game(len(levels), options, seed).state
    for decisions in range(100_000):
        if rules.is_over(state):
            meter.tally(bots, levels)
            return state, decisions
        to_act = rules.to_act(state)
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        view = rules.view(state, seat)
        if levels[seat] == "expert":
            meter.counters["decisions"] += 1
        action = meter.decide(levels[seat], bots[seat], view)
        state = rules.apply(state, seat, action).state
    raise RuntimeError("match did not end")


def duel(rules, hero: str, field: str, matches: int, meter: Meter) -> dict:
    """``hero`` in one seat (rotated), ``field`` in the other three."""
    wins = 0.0
    places = []
    for i in range(matches):
        hero_seat = i % SEATS
        levels = [hero if s == hero_seat else field for s in range(SEATS)]
        placements = play(rules, {}, levels, match_seed(f"bench-{hero}-{field}", i), meter)
        winners = [s for s, p in enumerate(placements) if p == 1]
        if hero_seat in winners:
            wins += 1 / len(winners)
        places.append(placements[hero_seat])
    lo, hi = wilson(wins, matches)
    return {
        "hero": hero,
        "field": field,
        "matches": matches,
        "win_rate": wins / matches,
        "ci": (lo, hi),
        "mean_place": statistics.fmean(places),
    }


#: Seat counts of the match-length tables (Fibber's end depends on them most).
LENGTH_SEATS = {"fibber": (3, 4, 6)}
LENGTH_HEAD = "### Match length and end reasons"


def mixed(seats: int) -> list[str]:
    """A mixed table: expert, strong and basic bots in turn."""
    return [("expert", "strong", "basic")[s % 3] for s in range(seats)]


def quantile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def lengths(game: str, matches: int, expert_matches: int) -> list[str]:
    """The match-length subsection of one game: for all-strong, all-expert and mixed tables
    (per seat count), decisions per match (p50, p99), Fibber's plays too, and the share of
    matches per end reason."""
    rules = registry.get(game)
    meter = Meter()
    started = time.perf_counter()
    fibber = game == "fibber"
    lines = [
        LENGTH_HEAD,
        "",
        "| table | seats | matches | decisions p50 | decisions p99 |"
        + (" plays p50 | plays p99 |" if fibber else "")
        + " end reasons |",
        "|---|---|---|---|---|" + ("---|---|" if fibber else "") + "---|",
    ]
    for seats in LENGTH_SEATS.get(game, (SEATS,)):
        for label, levels in (
            ("all strong", ["strong"] * seats),
            ("all expert", ["expert"] * seats),
            ("mixed (" + ", ".join(mixed(seats)) + ")", mixed(seats)),
        ):
            n = expert_matches if "expert" in levels else matches
            decisions: list[int] = []
            plays: list[int] = []
            reasons: dict[str, int] = {}
            for i in range(n):
                seed = match_seed(f"bench-length-{'-'.join(levels)}", i)
                state, taken = play_to_end(rules, {}, levels, seed, meter)
                decisions.append(taken)
                plays.append(rules.summary(state).get("plays", 0))
                reason = rules.end_reason(state)
                reasons[reason] = reasons.get(reason, 0) + 1
            ends = ", ".join(
                f"{r} {k / n:.0%}" for r, k in sorted(reasons.items(), key=lambda x: -x[1])
            )
            row = f"| {label} | {seats} | {n} | {quantile(decisions, 0.5):.0f} | "
            row += f"{quantile(decisions, 0.99):.0f} |"
            if fibber:
                row += f" {quantile(plays, 0.5):.0f} | {quantile(plays, 0.99):.0f} |"
            lines.append(row + f" {ends} |")
    lines += ["", f"({time.perf_counter() - started:.0f} s; {{command}})", ""]
    print("\n".join(lines), flush=True)
    return lines


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))]


def evaluate(
    game: str, matches: int, expert_matches: int, pairs: tuple[tuple[str, str], ...] = tuple(PAIRS)
) -> list[str]:
    """The section of ``bench/bots.md`` for one game (only ``pairs``' rows)."""
    rules = registry.get(game)
    levels = bot_levels(game)
    meter = Meter()
    started = time.perf_counter()
    rows = [
        duel(rules, h, f, expert_matches if h == "expert" else matches, meter)
        for h, f in pairs
        if h in levels and f in levels
    ]
    lines = [f"## {rules.name} (`{game}`)", ""]
    lines += [
        ROW_HEAD,
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lo, hi = r["ci"]
        lines.append(
            f"| {r['hero']} | {r['field']} | {r['matches']} | {r['win_rate']:.1%} "
            f"| {lo:.1%}–{hi:.1%} | {r['mean_place']:.2f} |"
        )
    lines += [
        "",
        "| level | decisions | median ms | p99 ms | max ms | CPU median ms | CPU p99 ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for level, values in sorted(meter.timings.items()):
        cpu = meter.cpu[level]
        lines.append(
            f"| {level} | {len(values)} | {ms(values, 0.5):.3f} | {ms(values, 0.99):.3f} "
            f"| {1000 * max(values):.3f} | {ms(cpu, 0.5):.3f} | {ms(cpu, 0.99):.3f} |"
        )
    c = meter.counters
    if c["decisions"]:
        memory = sorted(meter.memory) or [0]
        lines += [
            "",
            f"Expert: {c['decisions']} decisions, {c['searched']} searched "
            f"({c['searched'] / c['decisions']:.0%}), the strong prior overruled at "
            f"{c['deviations']}, safety stops {c['safety_stops']}. Memory allocated per decision "
            f"(tracemalloc peak, {len(meter.memory)} decisions): median "
            f"{memory[len(memory) // 2] / 1024:.0f} KiB, max {memory[-1] / 1024:.0f} KiB.",
        ]
    lines += ["", f"({time.perf_counter() - started:.0f} s; {{command}})", ""]
    print("\n".join(lines), flush=True)
    return lines


def work(
    game: str,
    matches: int,
    expert_matches: int,
    pairs: tuple[tuple[str, str], ...],
    length_matches: int,
    length_expert_matches: int,
    lengths_only: bool,
) -> tuple[list[str] | None, list[str] | None]:
    """One game's win-rate section (unless ``lengths_only``) and match-length subsection
    (unless ``length_matches`` is 0)."""
    wins = None if lengths_only else evaluate(game, matches, expert_matches, pairs)
    length = lengths(game, length_matches, length_expert_matches) if length_matches else None
    return wins, length


def split_lengths(section: list[str]) -> tuple[list[str], list[str] | None]:
    """A section without its match-length subsection, and that subsection (if any)."""
    if LENGTH_HEAD not in section:
        return section, None
    at = section.index(LENGTH_HEAD)
    return section[:at], section[at:]


def old_sections(path: Path) -> dict[str, list[str]]:
    """The sections of an earlier ``bench/bots.md``, by game id."""
    if not path.exists():
        return {}
    out: dict[str, list[str]] = {}
    game = None
    for line in path.read_text().splitlines():
        if line.startswith("## "):
            game = line.rsplit("`", 2)[-2]
            out[game] = []
        if game is not None:
            out[game].append(line)
    return out


def row_key(line: str) -> tuple[str, str]:
    cells = [c.strip() for c in line.strip("|").split("|")]
    return cells[0], cells[1]


def merge_rows(old: list[str], new: list[str], pairs: list[tuple[str, str]]) -> list[str]:
    """``old`` section with the win-rate rows of ``new`` put in (replaced or added, in
    :data:`PAIRS` order); the timing table and counters of ``old`` are kept, followed by a
    note naming the later run and that run's own timings and counters."""
    fresh = {
        row_key(line): line
        for line in new
        if line.startswith("| ") and "%" in line and line != ROW_HEAD
    }
    head = old.index(ROW_HEAD)
    end = head + 2
    while end < len(old) and old[end].startswith("| "):
        end += 1
    rows = {row_key(line): line for line in old[head + 2 : end]}
    rows.update(fresh)
    order = [p for p in PAIRS if p in rows] + [k for k in rows if k not in PAIRS]
    note = next(line for line in new if line.startswith("("))
    names = ", ".join(f"{h} | {f}" for h, f in pairs if (h, f) in fresh)
    body = old[: head + 2] + [rows[k] for k in order] + old[end:]
    while body and not body[-1]:
        body.pop()
    timing = new.index(ROW_HEAD) + 2
    while timing < len(new) and new[timing].startswith("| "):
        timing += 1
    later = [line for line in new[timing:] if not line.startswith("(")]
    return [*body, "", f"Rows {names} from a later run, {note[1:-1]}; its timings:", *later]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="*", default=registry.game_ids())
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--expert-matches", type=int, default=200)
    parser.add_argument(
        "--matches-for",
        nargs="*",
        default=[],
        metavar="GAME=N",
        help="more matches for a game whose interval is wide, e.g. fibbers_dice=1600",
    )
    parser.add_argument(
        "--expert-matches-for", nargs="*", default=[], metavar="GAME=N", help="likewise"
    )
    parser.add_argument(
        "--pairs",
        nargs="*",
        default=[f"{h}:{f}" for h, f in PAIRS],
        metavar="BOT:FIELD",
        help="only these rows, e.g. expert:basic (with --update: merged into the kept sections)",
    )
    parser.add_argument(
        "--length-matches", type=int, default=100, help="matches per match-length row (0: none)"
    )
    parser.add_argument(
        "--length-expert-matches",
        type=int,
        default=40,
        help="matches per match-length row with an expert bot",
    )
    parser.add_argument(
        "--lengths-only",
        action="store_true",
        help="only the match-length tables (with --update: merged into the kept sections)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--update",
        action="store_true",
        help="replace only these games' sections of --out, keep the others as they are",
    )
    parser.add_argument("--out", default=str(Path(__file__).with_suffix(".md")))
    args = parser.parse_args()
    pairs = tuple((h, f) for h, f in (item.split(":", 1) for item in args.pairs))
    unknown = [p for p in pairs if p not in PAIRS]
    if unknown:
        parser.error(f"unknown pairs {unknown}; known: {PAIRS}")
    partial = set(pairs) != set(PAIRS)
    per_game = {g: int(n) for g, n in (item.split("=", 1) for item in args.matches_for)}
    expert_for = {g: int(n) for g, n in (item.split("=", 1) for item in args.expert_matches_for)}
    command = " ".join(
        [
            "uv run python bench/bots.py",
            *([f"--games {' '.join(args.games)}"] if args.games != registry.game_ids() else []),
            f"--matches {args.matches}",
            f"--expert-matches {args.expert_matches}",
        ]
        + ([f"--matches-for {' '.join(args.matches_for)}"] if args.matches_for else [])
        + (
            [f"--expert-matches-for {' '.join(args.expert_matches_for)}"]
            if args.expert_matches_for
            else []
        )
        + ([f"--pairs {' '.join(args.pairs)}"] if partial else [])
        + [
            f"--length-matches {args.length_matches}",
            f"--length-expert-matches {args.length_expert_matches}",
        ]
        + (["--lengths-only"] if args.lengths_only else [])
        + (["--update"] if args.update else [])
        + ([f"--jobs {args.jobs}"] if args.jobs > 1 else [])
    )
    lines = [
        "# Bot evaluation",
        "",
        f"Generated by `{command}` ({time.strftime('%Y-%m-%d')}). Four seats; the bot under",
        "test sits in one seat, rotated through all four; fair share 25 %. Win rates with a 95 %",
        "Wilson interval (a shared first place counts as a fraction of a win). Decision times",
        "are measured around `bot.choose(view)` on this machine (2 cores, shared with other",
        "work while this ran): wall-clock, which includes waiting for a core, and the CPU time",
        "of the deciding thread, which is what a decision costs. The expert's search is bounded",
        "by counts (games/engine/search.py), so its results replay exactly. Each game's",
        '"Match length and end reasons" table plays whole tables of one kind (all strong,',
        "all expert, mixed) at the seat counts it names: decisions per match (every call,",
        "pass and play), Fibber's resolved plays, and the share of matches per end reason.",
        "",
    ]
    jobs = [
        (
            game,
            per_game.get(game, args.matches),
            expert_for.get(game, args.expert_matches),
            pairs,
            args.length_matches,
            args.length_expert_matches,
            args.lengths_only,
        )
        for game in args.games
    ]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(work, *zip(*jobs, strict=True)))
    else:
        results = [work(*job) for job in jobs]

    def cited(section: list[str]) -> list[str]:
        return [line.replace("{command}", f"`{command}`") for line in section]

    kept = old_sections(Path(args.out)) if args.update else {}
    fresh: dict[str, list[str]] = {}
    for job, (wins, length) in zip(jobs, results, strict=True):
        game = job[0]
        old, old_length = split_lengths(kept[game]) if game in kept else ([], None)
        if wins is None:
            body = old
        elif partial and old:
            body = merge_rows(old, cited(wins), list(pairs))
        else:
            body = cited(wins)
        while body and not body[-1]:
            body.pop()
        length = cited(length) if length is not None else old_length
        fresh[game] = [*body, "", *(length or [])]
    partial = partial or args.lengths_only
    if kept and partial:
        # only some rows are new: keep the preamble, each merged section names its run
        preamble = Path(args.out).read_text().split("\n## ", 1)[0].splitlines()
        lines = [*preamble, ""]
    elif kept:
        lines[2] = lines[2].replace("Generated by", "Sections generated by (last run)")
    for game in registry.game_ids():
        if game in fresh:
            lines += fresh[game]
        elif game in kept:
            lines += kept[game]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
