"""Fibber's Dice (docs/rules/fibbers_dice.md).

Every player rolls their own pair of dice, hidden. The starter of a sequence rolls and
announces any score; the next player decides *before rolling* to believe (roll, then announce a
strictly higher score, true or a fib) or to call (the announcer's dice are shown: the caller
loses a point when they show at least the announcement, otherwise the announcer does).
Announcing Max shows the dice at once. Whoever loses a point starts the next sequence; the last
player with points wins.
"""

from __future__ import annotations

import random

from ..core import (
    JSON,
    Action,
    Event,
    Rules,
    elimination_placements,
    entry,
    one_of,
    redraw_secrets,
)
from ..options import CHOSEN, Option
from ..rng import Rng
from . import scores as S
from .sample import determinize
from .state import (
    ANNOUNCE,
    LAST_STANDING,
    OVER,
    RESPOND,
    STAT_KEYS,
    FibbersDiceState,
    default_points,
)

MIN_POINTS, MAX_POINTS = 1, 10

#: Tournament matches (docs/tournaments.md): the ``tournament`` option, set by the tournament. A
#: single-round tournament takes late entrants; a round of a tournament of several rounds may
#: seat up to 64 (D).
TOURNAMENT_SINGLE, TOURNAMENT_ROUND = "single", "round"
TOURNAMENT_KINDS = (TOURNAMENT_SINGLE, TOURNAMENT_ROUND)
#: The option's name before tournaments were called tournaments; still read (old records).
LEGACY_TOURNAMENT_KEY = "event"
#: The most seats of an ordinary match, of a single-round tournament (late entrants included)
#: and of a tournament round.
TABLE_MAX, TOURNAMENT_ROUND_MAX = 10, 64


class FibbersDice(Rules[FibbersDiceState]):
    end_reasons = (LAST_STANDING,)
    game_id = "fibbers_dice"
    name = "Fibber's Dice"
    #: A false Max is a fib that is neither called nor passed (it shows at once), so it
    #: counts against "bluffer" like a called fib.
    bluff_boards = {
        "bluffer": ("fibs_passed", "fibs"),
        "detective": ("calls_right", "calls"),
        "boldest": ("fibs", "announcements"),
    }
    min_seats = 2
    max_seats = 10
    state_class = FibbersDiceState
    option_examples = [
        {},
        {"points": 1},
        {"tournament": TOURNAMENT_SINGLE},
        {"tournament": TOURNAMENT_ROUND, "points": 1},
    ]

    # --- Set-up ------------------------------------------------------------------------

    def seat_range(self, options: JSON) -> tuple[int, int]:
        if options.get("tournament") == TOURNAMENT_ROUND:
            return self.min_seats, TOURNAMENT_ROUND_MAX
        return self.min_seats, self.max_seats

    options = (
        Option(
            "points",
            "Starting points",
            int,
            default=CHOSEN,
            lo=MIN_POINTS,
            hi=MAX_POINTS,
            default_about="by table size: 3 up to 5 seats, 2 for 6–7, 1 for 8+",
        ),
        Option(
            "tournament",
            "A round of a tournament (docs/tournaments.md), set by the tournament: `single` takes "
            "late entrants, `round` seats up to 64",
            str,
            choices=TOURNAMENT_KINDS,
            server_only=True,
        ),
    )

    def normalize_options(self, seats: int, options: JSON) -> JSON:
        if "tournament" not in options and LEGACY_TOURNAMENT_KEY in options:
            # the option's earlier name, in records made before it was renamed
            options["tournament"] = options.pop(LEGACY_TOURNAMENT_KEY)
        kind = self.option("tournament").take(options)
        self.check_seats(seats, {"tournament": kind})
        points = self.option("points").take(options, default_points(seats))
        self.refuse_unknown_options(options)
        normalized: JSON = {"points": points}
        if kind is not None:
            normalized["tournament"] = kind
        return normalized

    def _setup(
        self, seats: int, options: JSON, seed: str, rng: Rng, events: list[Event]
    ) -> FibbersDiceState:
        state = FibbersDiceState(
            seats=seats,
            options=options,
            seed=seed,
            rng_counter=0,
            points=[options["points"]] * seats,
            phase=ANNOUNCE,
            current=0,
            starter=0,
            sequence=0,
            rolls=[None] * seats,
            announcements=[],
            announcement=None,
            announcer=None,
            eliminated=[],
            last_reveal=None,
            stats=[dict.fromkeys(STAT_KEYS, 0) for _ in range(seats)],
            turns=[0] * seats if options.get("tournament") == TOURNAMENT_SINGLE else None,
        )
        # First starter: chosen at random (the host's die).
        starter = rng.randbelow(seats, "first_starter")
        if state.turns is not None:
            state.first_starter = starter
        events.append(Event("match_started", {"starter": starter, "points": list(state.points)}))
        self._start_sequence(state, starter, rng, events)
        return state

    # --- Queries -------------------------------------------------------------------------

    def alive(self, state: FibbersDiceState, seat: int) -> bool:
        return state.points[seat] > 0

    def to_act(self, state: FibbersDiceState) -> list[int]:
        return [] if state.phase == OVER else [state.current]

    def is_over(self, state: FibbersDiceState) -> bool:
        return state.phase == OVER

    def _legal_actions(self, state: FibbersDiceState, seat: int) -> list[JSON]:
        if state.phase == RESPOND:
            return [
                entry("believe", f"Believe {state.announcement}: roll, then announce higher"),
                entry("call", f"Call {state.announcement}: the dice are shown"),
            ]
        label = (
            "Announce any score"
            if state.announcement is None
            else f"Announce a score higher than {state.announcement}"
        )
        return [entry("announce", label, score=one_of(S.scores_above(state.announcement)))]

    def explain(self, state: FibbersDiceState, seat: int, action: Action, reason: str) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        standing = state.announcement
        if state.phase == RESPOND and kind == "announce":
            return (
                f"Decide first, before rolling: believe {standing} (you roll, then announce"
                " higher) or call it."
            )
        if state.phase == ANNOUNCE and kind in ("believe", "call"):
            if standing is None:
                return "You start this sequence: announce any score (there is nothing to call)."
            return f"You have rolled already: announce a score higher than {standing}."
        if state.phase == ANNOUNCE and kind == "announce" and "score" in action:
            return self._explain_score(state, action["score"], reason)
        return reason

    def _explain_score(self, state: FibbersDiceState, value: object, reason: str) -> str:
        """Why an announced score is refused (D: refused, never penalised), and what is legal."""
        standing = state.announcement
        legal = S.scores_above(standing)
        if isinstance(value, str) and value in legal:
            return reason  # the score is fine; something else about the action is not
        legal_text = f" Legal scores: {', '.join(legal)}."
        higher = "" if standing is None else f" higher than {standing}"
        if isinstance(value, bool) or not isinstance(value, int | str):
            return 'A score is a string such as "62", "double 3s" or "max".' + legal_text
        text = str(value)
        as_string = isinstance(value, str)
        enough = "" if standing is None else f" It must also be higher than {standing}."
        if S.is_score(text) and not as_string:
            return (
                f'Send the score as a string: "{text}".'
                + ("" if text in legal else enough)
                + legal_text
            )
        if S.is_score(text):
            return f"An announcement must be strictly higher than {standing}." + legal_text
        if S.is_score(text.strip().lower()):  # "Max", "Double 3s"
            meant = text.strip().lower()
            return (
                f'Scores are lower case: did you mean "{meant}"?'
                + ("" if meant in legal else enough)
                + legal_text
            )
        suggested = S.suggestion(text)
        if suggested is None:
            shown = text if len(text) <= 20 else text[:20] + "…"
            return f'There is no "{shown}" in this game.' + legal_text
        if suggested == S.MAX:
            why = "2+1 is Max"
        elif suggested.startswith("double"):
            why = "doubles are not numbers"
        else:
            why = "a roll is read high die first"
        message = f"There is no {text} in this game ({why}): did you mean {suggested}?"
        if suggested not in legal:
            message += f" That would not be enough either: announce{higher}."
        if not as_string:
            message += ' Scores are sent as strings, e.g. "62", "double 3s", "max".'
        return message + legal_text

    # --- Actions -------------------------------------------------------------------------

    def _apply(
        self, state: FibbersDiceState, seat: int, action: Action, rng: Rng, events: list[Event]
    ) -> None:
        kind = action["type"]
        if state.turns is not None and (kind != "announce" or state.announcement is None):
            state.turns[seat] += 1  # a response, or the opening announcement of a sequence
        if kind == "announce":
            self._announce(state, seat, action["score"], rng, events)
        elif kind == "believe":
            self._believe(state, seat, rng, events)
        elif kind == "call":
            self._call(state, seat, rng, events)
        else:  # pragma: no cover - check_action admits only the types above
            raise AssertionError(kind)

    def _roll(self, state: FibbersDiceState, seat: int, rng: Rng) -> JSON:
        """Roll ``seat``'s pair of dice, hidden; the private part of the event that says so."""
        first, second = rng.die(), rng.die()
        dice = [max(first, second), min(first, second)]  # read high die first
        state.rolls[seat] = dice
        score = S.read(dice)
        if score == S.MAX:  # every roll showing 2+1 counts, announced or not
            state.stats[seat]["max_rolls"] += 1
        return {"dice": list(dice), "score": score}

    def _announce(
        self, state: FibbersDiceState, seat: int, score: str, rng: Rng, events: list[Event]
    ) -> None:
        dice = state.rolls[seat]
        assert dice is not None
        stats = state.stats[seat]
        stats["announcements"] += 1
        # A fib is an announcement above the actual roll; one below it is not (fine points).
        if S.rank(score) > S.rank(S.read(dice)):
            stats["fibs"] += 1
        state.announcements.append({"seat": seat, "score": score})
        state.announcement = score
        state.announcer = seat
        if score == S.MAX:
            events.append(Event("announce", {"seat": seat, "score": score, "next": None}))
            self._show_max(state, seat, dice, rng, events)
            return
        state.phase = RESPOND
        state.current = self.next_alive(state, seat)
        events.append(Event("announce", {"seat": seat, "score": score, "next": state.current}))

    def _show_max(
        self, state: FibbersDiceState, seat: int, dice: list[int], rng: Rng, events: list[Event]
    ) -> None:
        """Max is shown at once: if true, the next player loses a point (nothing beats it);
        if false, the announcer loses (D). A false Max is a fib, neither called nor passed."""
        true = S.read(dice) == S.MAX
        following = self.next_alive(state, seat)
        loser, maker = (following, seat) if true else (seat, None)
        state.last_reveal = {
            "kind": "max",
            "sequence": state.sequence,
            "seat": seat,
            "score": S.MAX,
            "dice": list(dice),
            "shown": S.read(dice),
            "true": true,
            "loser": loser,
        }
        self._lose_point(state, loser, maker, rng, events)

    def _believe(self, state: FibbersDiceState, seat: int, rng: Rng, events: list[Event]) -> None:
        announcer, score = state.announcer, state.announcement
        assert announcer is not None and score is not None
        dice = state.rolls[announcer]
        assert dice is not None
        if not S.at_least(dice, score):
            state.stats[announcer]["fibs_passed"] += 1
        roll = self._roll(state, seat, rng)
        state.phase = ANNOUNCE
        state.current = seat
        events.append(
            Event("believe", {"seat": seat, "announcer": announcer, "score": score}, {seat: roll})
        )

    def _call(self, state: FibbersDiceState, seat: int, rng: Rng, events: list[Event]) -> None:
        announcer, score = state.announcer, state.announcement
        assert announcer is not None and score is not None
        dice = state.rolls[announcer]
        assert dice is not None
        # The dice are shown. At least the announcement: the caller loses a point; otherwise
        # the announcer does.
        stands = S.at_least(dice, score)
        state.stats[seat]["calls"] += 1
        if stands:
            loser, maker = seat, announcer
        else:
            loser, maker = announcer, seat
            state.stats[seat]["calls_right"] += 1
            state.stats[announcer]["fibs_called"] += 1
        state.last_reveal = {
            "kind": "call",
            "sequence": state.sequence,
            "seat": announcer,
            "caller": seat,
            "score": score,
            "dice": list(dice),
            "shown": S.read(dice),
            "true": stands,
            "loser": loser,
        }
        self._lose_point(state, loser, maker, rng, events)

    # --- Late entry (single-round events) ------------------------------------------------

    def late_entry_closed(self, state: FibbersDiceState) -> str | None:
        """Late registration of a single-round event stays open until the first player takes their
        second turn, while the table has fewer than 10 players (docs/tournaments.md). D: the first
        player is the match's first starter (the host's die), not whoever gets a second turn first
        (a player who lost a point starts again, and can be anyone): registration closes as that
        starter's second turn comes, that is once the starter, having taken one turn, is the seat to
        act again. If the starter is out before that turn (one point, lost in their first turn), it
        can never come: registration closes then."""
        if state.turns is None:
            return "Only a single-round tournament match takes late entrants."
        if state.phase == OVER:
            return "The match is over."
        first = state.first_starter
        if first is None:  # a match stored before the first starter was kept: as it was then
            if max(state.turns) >= 2:
                return "Late registration closed when the first player took their second turn."
        elif state.turns[first] >= 2 or (state.turns[first] == 1 and state.current == first):
            return "Late registration closed as the first starter's second turn came."
        elif not self.alive(state, first):
            return "Late registration closed: the first starter went out before a second turn."
        if state.seats >= TABLE_MAX:
            return f"The table is full ({TABLE_MAX} players)."
        return None

    def _add_seat(self, state: FibbersDiceState, events: list[Event]) -> None:
        """D: the late entrant takes seat n (between seat n-1 and seat 0, clockwise) with the
        points the round began with, and plays when the turn reaches that seat: if seat 0 was
        about to answer seat n-1, the newcomer, now the next player after n-1, answers."""
        assert state.turns is not None
        seat = state.seats
        state.seats += 1
        state.points.append(state.options["points"])
        state.rolls.append(None)
        state.stats.append(dict.fromkeys(STAT_KEYS, 0))
        state.turns.append(0)
        if state.phase == RESPOND and state.announcer == seat - 1:
            state.current = seat
        events.append(
            Event(
                "seat_joined",
                {"seat": seat, "points": list(state.points), "current": state.current},
            )
        )

    def to_json(self, state: FibbersDiceState) -> JSON:
        data = super().to_json(state)
        if data["turns"] is None:  # ordinary matches store exactly what they always stored
            del data["turns"]
        if data["first_starter"] is None:
            del data["first_starter"]
        return data

    # --- Points, sequences and the end ---------------------------------------------------

    def _lose_point(
        self,
        state: FibbersDiceState,
        loser: int,
        maker: int | None,
        rng: Rng,
        events: list[Event],
    ) -> None:
        """``loser`` loses a point, made to lose by ``maker`` (``None`` for a false Max)."""
        state.points[loser] -= 1
        state.stats[loser]["points_lost"] += 1
        assert state.last_reveal is not None
        events.append(
            Event(state.last_reveal["kind"], {**state.last_reveal, "points": list(state.points)})
        )
        if self.alive(state, loser):
            starter = loser  # the player who lost starts the next sequence ...
        else:
            state.eliminated.append(loser)
            events.append(Event("eliminated", {"seat": loser}))
            if sum(self.alive(state, s) for s in range(state.seats)) <= 1:
                state.phase = OVER
                state.rolls = [None] * state.seats
                events.append(Event("match_over", {"placements": self._placements(state)}))
                return
            # ... or, if they are out, the player who made them lose; after a false Max that
            # knocked the announcer out, the next player (fine points).
            starter = maker if maker is not None else self.next_alive(state, loser)
        self._start_sequence(state, starter, rng, events)

    def _start_sequence(
        self, state: FibbersDiceState, starter: int, rng: Rng, events: list[Event]
    ) -> None:
        state.sequence += 1
        state.rolls = [None] * state.seats
        state.announcements = []
        state.announcement = None
        state.announcer = None
        state.starter = starter
        state.current = starter
        state.phase = ANNOUNCE
        roll = self._roll(state, starter, rng)
        events.append(
            Event(
                "sequence_started",
                {"sequence": state.sequence, "starter": starter},
                {starter: roll},
            )
        )

    # --- Results -------------------------------------------------------------------------

    def end_reason(self, state: FibbersDiceState) -> str:
        return LAST_STANDING  # the only way a match ends: one player has points left

    def _placements(self, state: FibbersDiceState) -> list[int]:
        # Reverse order of elimination: the last one out is second, the first one out last.
        return elimination_placements(state.seats, [[seat] for seat in state.eliminated])

    def stats(self, state: FibbersDiceState) -> list[JSON]:
        return [dict(s) for s in state.stats]

    def summary(self, state: FibbersDiceState) -> JSON:
        return {"sequences": state.sequence, "points": list(state.points)}

    # --- Views ---------------------------------------------------------------------------

    def public_view(self, state: FibbersDiceState) -> JSON:
        return {
            "sequence": state.sequence,
            "phase": state.phase,
            "points": list(state.points),
            "out": [not self.alive(state, s) for s in range(state.seats)],
            "starter": state.starter,
            "current": None if state.phase == OVER else state.current,
            "announcement": state.announcement,
            "announcer": state.announcer,
            "announcements": [dict(a) for a in state.announcements],
            "eliminated": list(state.eliminated),
            "last_reveal": None if state.last_reveal is None else dict(state.last_reveal),
            "score_order": list(S.SCORES),
            **self._late_entry_view(state),
        }

    def _late_entry_view(self, state: FibbersDiceState) -> JSON:
        if state.turns is None:
            return {}
        return {"late_entry_open": self.late_entry_closed(state) is None}

    def private_view(self, state: FibbersDiceState, seat: int) -> JSON:
        dice = state.rolls[seat]
        return {"roll": None if dice is None else {"dice": list(dice), "score": S.read(dice)}}

    def hidden_variant(
        self, state: FibbersDiceState, seat: int | None, rng: random.Random
    ) -> FibbersDiceState:
        new = self.clone(state)
        for other in range(new.seats):  # every roll of this sequence is unshown
            if other != seat and new.rolls[other] is not None:
                first, second = rng.randint(1, 6), rng.randint(1, 6)
                new.rolls[other] = [max(first, second), min(first, second)]
        redraw_secrets(new, rng)
        return new

    def determinize(self, view: JSON, rng: random.Random) -> FibbersDiceState:
        return determinize(self, view, rng)

    # --- Invariants (tests and simulate) -------------------------------------------------

    def invariants(self, state: FibbersDiceState) -> list[str]:
        problems = []
        top = state.options["points"]
        if not len(state.points) == len(state.rolls) == len(state.stats) == state.seats:
            problems.append(f"per-seat lists do not have {state.seats} entries")
        if state.turns is not None and len(state.turns) != state.seats:
            problems.append(f"turns do not have {state.seats} entries")
        if state.first_starter is not None and not 0 <= state.first_starter < state.seats:
            problems.append(f"first starter {state.first_starter} is not a seat")
        if any(not 0 <= p <= top for p in state.points):
            problems.append(f"points out of range: {state.points}")
        for seat, dice in enumerate(state.rolls):
            if dice is not None and (
                len(dice) != 2 or not all(1 <= d <= 6 for d in dice) or dice[0] < dice[1]
            ):
                problems.append(f"seat {seat} has impossible dice {dice}")
        out = [s for s in range(state.seats) if not self.alive(state, s)]
        if sorted(state.eliminated) != out:
            problems.append(f"eliminated {state.eliminated} but out {out}")
        lost = sum(top - p for p in state.points)
        totals = {k: sum(s[k] for s in state.stats) for k in STAT_KEYS}
        if totals["points_lost"] != lost:
            problems.append(f"points_lost {totals['points_lost']} but {lost} points lost")
        if totals["fibs_called"] != totals["calls_right"]:
            problems.append("fibs called and right calls disagree")
        if totals["fibs_called"] + totals["fibs_passed"] > totals["fibs"]:
            problems.append("more fibs called or passed than made")
        if state.phase == OVER:
            if sum(self.alive(state, s) for s in range(state.seats)) != 1:
                problems.append("match over without exactly one survivor")
            return problems
        if state.phase not in (ANNOUNCE, RESPOND):
            problems.append(f"unknown phase {state.phase!r}")
        if not self.alive(state, state.current):
            problems.append(f"seat {state.current} must act but is out")
        if not self.alive(state, state.starter):
            problems.append(f"starter {state.starter} is out")
        if state.phase == ANNOUNCE and state.rolls[state.current] is None:
            problems.append(f"seat {state.current} must announce without a roll")
        if state.phase == RESPOND:
            if state.announcer is None or state.announcement is None:
                problems.append("a response is due but nothing was announced")
            elif state.current != self.next_alive(state, state.announcer):
                problems.append("the responder is not the player after the announcer")
            if state.announcement == S.MAX:
                problems.append("Max was announced but not shown")
        ranks = [S.rank(a["score"]) for a in state.announcements]
        if ranks != sorted(set(ranks)):
            problems.append(f"announcements not strictly increasing: {state.announcements}")
        if state.announcements and state.announcements[0]["seat"] != state.starter:
            problems.append("the sequence was not opened by its starter")
        return problems
