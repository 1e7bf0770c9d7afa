"""Fibber (docs/rules/fibber.md): the standard rules and the ``easy`` variant.

Standard: a player discards one or more cards face down and announces them as the rank the
Silver Nose marks ("I saw N Ghosts"); the count is public, the cards are not. A play is a fib
when any card is neither that rank nor Wild. Then a call window opens in which **every other
player** answers call or pass, in any order (D); the first call ends it. The wrong side takes a
nose and the whole discard pile. Plain noses go first, then the Silver Nose, which ends the
game. A player whose play stands with an empty hand returns their noses and everything is dealt
again. A safety end after ``max_plays`` resolved plays (D) keeps matches finite.

Easy (``{"variant": "easy"}``, see :mod:`.easy`): one card a play, only the next player may
call, the starter of a sequence chooses the rank, five rounds, lowest total of noses wins.

Every decision taken where the original rules are silent is listed in ``docs/rules/fibber.md``.
"""

from __future__ import annotations

import random

from ..core import (
    JSON,
    Action,
    Event,
    InvalidOptions,
    Rules,
    competition_ranking,
    copy_json,
    entry,
    redraw_secrets,
    subset_of,
)
from ..options import Option
from ..rng import Rng
from . import cards as C
from .easy import EasyRules
from .sample import determinize
from .state import (
    CALL,
    EASY,
    EASY_STAT_KEYS,
    END_REASONS,
    LAST_CALL,
    MAX_PLAYS,
    MAX_PLAYS_RANGE,
    OVER,
    PLAY,
    STANDARD,
    STAT_KEYS,
    VARIANTS,
    FibberState,
)


class Fibber(EasyRules, Rules[FibberState]):
    game_id = "fibber"
    name = "Fibber"
    bluff_boards = {
        "bluffer": ("fibs_stood", "fibs"),
        "detective": ("calls_right", "calls"),
        "boldest": ("fibs", "plays"),
    }
    min_seats = 2
    max_seats = 6
    state_class = FibberState
    end_reasons = END_REASONS
    option_examples = [{}, {"variant": EASY}]

    # --- Set-up ------------------------------------------------------------------------

    options = (
        Option("variant", "The rules", str, default=STANDARD, choices=VARIANTS),
        Option(
            "max_plays",
            "Resolved plays before the safety end",
            int,
            default=MAX_PLAYS,
            lo=MAX_PLAYS_RANGE[0],
            hi=MAX_PLAYS_RANGE[1],
            variants=(STANDARD,),
            note="Standard rules only (422 with `easy`)",
        ),
    )

    def normalize_options(self, seats: int, options: JSON) -> JSON:
        self.check_seats(seats, options)
        variant = self.option("variant").take(options)
        out: JSON = {"variant": variant}
        max_plays = self.option("max_plays")
        if max_plays.applies_to(variant):
            out["max_plays"] = max_plays.take(options)
        elif "max_plays" in options:
            raise InvalidOptions("'max_plays' applies to the standard rules only.")
        self.refuse_unknown_options(options)
        return out

    def _setup(
        self, seats: int, options: JSON, seed: str, rng: Rng, events: list[Event]
    ) -> FibberState:
        easy = options["variant"] == EASY
        keys = EASY_STAT_KEYS if easy else STAT_KEYS
        state = FibberState(
            seats=seats,
            options=options,
            seed=seed,
            rng_counter=0,
            phase=PLAY,
            hands=[[] for _ in range(seats)],
            pile=[],
            set_aside=[],
            dealer=0,
            deal=0,
            turn=0,
            rank=None if easy else C.BIGFOOT,
            last_play=None,
            waiting=[],
            passed=[],
            can_call=False,
            noses=[0] * seats,
            silver=None,
            table_noses=0 if easy else C.PLAIN_NOSES,
            scores=[0] * seats,
            plays=0,
            pile_plays=[],
            last_call=None,
            end_reason=None,
            stats=[dict.fromkeys(keys, 0) for _ in range(seats)],
            called=[] if easy else [[0, 0] for _ in range(seats)],
        )
        dealer = rng.randbelow(seats, "dealer")
        events.append(Event("match_started", {"variant": options["variant"], "dealer": dealer}))
        self._deal(state, dealer, rng, events)
        return state

    def _deal(self, state: FibberState, dealer: int, rng: Rng, events: list[Event]) -> None:
        """Collect every card, shuffle, deal evenly; the player after the dealer starts."""
        deck = list(range(C.DECK_SIZE))
        rng.shuffle(deck)
        per_hand, spare = C.deal_sizes(state.seats)
        state.set_aside = deck[:spare]  # five players: four cards set aside unseen
        state.hands = [
            sorted(deck[spare + s * per_hand : spare + (s + 1) * per_hand])
            for s in range(state.seats)
        ]
        state.pile = []
        state.pile_plays = []
        state.deal += 1
        state.dealer = dealer
        state.turn = (dealer + 1) % state.seats
        state.phase = PLAY
        state.last_play = None
        state.can_call = False
        state.rank = None if self.easy(state) else C.BIGFOOT
        events.append(
            Event(
                "dealt",
                {
                    "deal": state.deal,
                    "dealer": dealer,
                    "starter": state.turn,
                    "hand_sizes": [per_hand] * state.seats,
                    "set_aside": spare,
                },
                {s: {"hand": C.names(h)} for s, h in enumerate(state.hands)},
            )
        )

    # --- Queries -------------------------------------------------------------------------

    @staticmethod
    def easy(state: FibberState) -> bool:
        return state.options["variant"] == EASY

    def to_act(self, state: FibberState) -> list[int]:
        if state.phase == CALL:
            return list(state.waiting)
        if state.phase in (PLAY, LAST_CALL):
            return [state.turn]
        return []

    def is_over(self, state: FibberState) -> bool:
        return state.phase == OVER

    def _legal_actions(self, state: FibberState, seat: int) -> list[JSON]:
        if self.easy(state):
            return self._easy_legal_actions(state, seat)
        if state.phase == CALL:
            play = state.last_play
            assert play is not None
            what = f"seat {play['seat']}'s {play['count']} × {play['rank'].capitalize()}"
            return [
                entry("call", f"Call FIBBER! on {what}"),
                entry("pass", f"Let {what} stand"),
            ]
        size = len(state.hands[seat])
        assert state.rank is not None
        return [
            entry(
                "play",
                f"Play 1 to {size} cards (by hand position) as {C.rank_label(state.rank)}",
                cards=subset_of(range(size), 1, size),
            )
        ]

    def explain(self, state: FibberState, seat: int, action: Action, reason: str) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        if self.easy(state):
            return self._easy_explain(state, seat, action, kind, reason)
        if state.phase == PLAY and kind in ("call", "pass"):
            return "It is your turn to play cards; calls and passes answer another player's play."
        if state.phase == CALL and kind == "play":
            return "Answer the play first: call or pass."
        if state.phase == PLAY and kind == "play":
            size = len(state.hands[seat])
            return (
                f"{reason} Choose 1 to {size} cards by their positions 0–{size - 1} in your hand"
                f" (sorted by rank); they are announced as {C.rank_label(state.rank or 0)}."
            )
        return reason

    # --- Actions (standard; the easy rules live in easy.py) -----------------------------

    def _apply(
        self, state: FibberState, seat: int, action: Action, rng: Rng, events: list[Event]
    ) -> None:
        if self.easy(state):
            self._easy_apply(state, seat, action, rng, events)
            return
        kind = action["type"]
        if kind == "play":
            self._play(state, seat, action["cards"], events)
        elif kind == "pass":
            self._pass(state, seat, rng, events)
        elif kind == "call":
            self._call(state, seat, rng, events)
        else:  # pragma: no cover - check_action admits only the types above
            raise AssertionError(kind)

    def _take_cards(self, state: FibberState, seat: int, positions: list[int]) -> list[int]:
        hand = state.hands[seat]
        played = [hand[p] for p in positions]
        chosen = set(positions)
        state.hands[seat] = [c for i, c in enumerate(hand) if i not in chosen]
        return played

    def _play(self, state: FibberState, seat: int, positions: list[int], events: list[Event]):
        announced = state.rank
        assert announced is not None
        played = self._take_cards(state, seat, positions)
        # Face down, in an order that tells nothing: the pile keeps the played cards sorted.
        state.pile.extend(sorted(played))
        stats = state.stats[seat]
        stats["plays"] += 1
        if C.is_fib(played, announced):
            stats["fibs"] += 1
        state.last_play = {"seat": seat, "count": len(played), "rank": C.RANKS[announced]}
        state.pile_plays.append(dict(state.last_play))
        state.rank = C.next_rank(announced)  # the Silver Nose moves on
        state.phase = CALL
        state.waiting = [(seat + k) % state.seats for k in range(1, state.seats)]
        state.passed = []
        events.append(
            Event(
                "play",
                {**state.last_play, "hand_size": len(state.hands[seat]), "next_rank": state.rank},
                {seat: {"cards": C.names(played)}},
            )
        )

    def _judged(self, state: FibberState) -> tuple[int, list[int], int]:
        """The play in the call window: (player, its cards, announced rank)."""
        play = state.last_play
        assert play is not None
        return (
            play["seat"],
            state.pile[len(state.pile) - play["count"] :],
            C.RANKS.index(play["rank"]),
        )

    def _pass(self, state: FibberState, seat: int, rng: Rng, events: list[Event]) -> None:
        state.waiting.remove(seat)
        state.passed.append(seat)
        events.append(Event("pass", {"seat": seat, "waiting": list(state.waiting)}))
        if state.waiting:
            return
        player, played, announced = self._judged(state)
        if C.is_fib(played, announced):
            state.stats[player]["fibs_stood"] += 1
        events.append(Event("play_stood", {"seat": player}))
        self._close_window(state, rng, events)

    def _call(self, state: FibberState, seat: int, rng: Rng, events: list[Event]) -> None:
        player, played, announced = self._judged(state)
        fib = C.is_fib(played, announced)
        state.stats[seat]["calls"] += 1
        if fib:
            state.stats[seat]["calls_right"] += 1
            state.stats[player]["fibs_called"] += 1
        loser = player if fib else seat
        called = state.called = self.called(state)
        called[player] = [called[player][0] + 1, called[player][1] + fib]
        nose = self._take_nose(state, loser)
        taken = state.pile
        state.hands[loser] = sorted(state.hands[loser] + taken)
        state.pile = []
        state.pile_plays = []
        state.last_call = {
            "deal": state.deal,
            "caller": seat,
            "player": player,
            "count": len(played),
            "rank": C.RANKS[announced],
            "fib": fib,
            # A fibber does not show the cards (original rules); a true play is shown.
            "cards": None if fib else C.names(played),
            "loser": loser,
            "nose": nose,
            "pile_taken": len(taken),
        }
        events.append(
            Event(
                "call",
                {**state.last_call, "noses": list(state.noses), "silver_nose": state.silver},
                {loser: {"taken": C.names(taken)}},
            )
        )
        self._close_window(state, rng, events)

    def _take_nose(self, state: FibberState, seat: int) -> str:
        """A penalty: a plain nose while any remain on the table, else the Silver Nose."""
        state.stats[seat]["noses_taken"] += 1
        if state.table_noses > 0:
            state.table_noses -= 1
            state.noses[seat] += 1
            return "plain"
        state.silver = seat
        return "silver"

    def _close_window(self, state: FibberState, rng: Rng, events: list[Event]) -> None:
        """The play is resolved: empty hand, Silver Nose, safety end, or the next player."""
        player = state.turn
        state.plays += 1
        state.waiting = []
        state.passed = []
        emptied = not state.hands[player]
        if emptied:
            # The play stood (a caught fibber holds the pile), so the noses go back; this
            # happens even when the call also handed out the Silver Nose (Fine points).
            returned = state.noses[player]
            state.noses[player] = 0
            state.table_noses += returned
            state.stats[player]["hands_emptied"] += 1
            events.append(Event("hand_emptied", {"seat": player, "noses_returned": returned}))
        if state.silver is not None:
            self._finish(state, "silver_nose", events)
        elif state.plays >= state.options["max_plays"]:
            self._finish(state, "max_plays", events)  # the safety end (D): no redeal
        elif emptied:
            self._deal(state, player, rng, events)  # the player after them starts on Bigfoot
        else:
            state.phase = PLAY
            state.turn = (player + 1) % state.seats

    def _finish(self, state: FibberState, reason: str, events: list[Event]) -> None:
        state.phase = OVER
        state.end_reason = reason
        state.waiting = []
        state.can_call = False
        events.append(
            Event("match_over", {"reason": reason, "placements": self._placements(state)})
        )

    # --- Results -------------------------------------------------------------------------

    def end_reason(self, state: FibberState) -> str:
        assert state.end_reason is not None
        return state.end_reason

    @staticmethod
    def called(state: FibberState) -> list[list[int]]:
        """Per seat: how many of their plays were called in this match, and how many of those
        were fibs (public: everyone sees every call's outcome)."""
        if len(state.called) != state.seats:
            return [[0, 0] for _ in range(state.seats)]
        return [list(c) for c in state.called]

    def nose_counts(self, state: FibberState) -> list[int]:
        """Noses worn, the Silver Nose counting as one (standard)."""
        return [n + (state.silver == s) for s, n in enumerate(state.noses)]

    def _placements(self, state: FibberState) -> list[int]:
        if self.easy(state):
            return competition_ranking(state.scores)  # lowest total wins; ties share
        noses = self.nose_counts(state)
        return competition_ranking(
            [(noses[s], len(state.hands[s])) for s in range(state.seats)]
        )  # fewest noses, then fewest cards; remaining ties share

    def stats(self, state: FibberState) -> list[JSON]:
        return [dict(s) for s in state.stats]

    def summary(self, state: FibberState) -> JSON:
        out: JSON = {"variant": state.options["variant"], "plays": state.plays}
        if self.easy(state):
            out["scores"] = list(state.scores)
        else:
            out.update(deals=state.deal, noses=self.nose_counts(state), end_reason=state.end_reason)
        return out

    def clone(self, state: FibberState) -> FibberState:
        """The generic deep copy, written out field by field: ``apply`` clones on every action
        and this is several times faster. ``test_clone_is_a_deep_copy`` keeps it honest."""
        new = object.__new__(FibberState)
        fields = dict(vars(state))
        for key in ("pile", "set_aside", "waiting", "passed", "noses", "scores"):
            fields[key] = list(fields[key])
        fields["options"] = dict(state.options)
        fields["hands"] = [list(h) for h in state.hands]
        fields["stats"] = [dict(s) for s in state.stats]
        fields["pile_plays"] = [dict(p) for p in state.pile_plays]
        fields["last_play"] = None if state.last_play is None else dict(state.last_play)
        fields["last_call"] = copy_json(state.last_call)
        fields["called"] = [list(c) for c in state.called]
        new.__dict__.update(fields)
        return new

    # --- Views ---------------------------------------------------------------------------

    def public_view(self, state: FibberState) -> JSON:
        easy = self.easy(state)
        out: JSON = {
            "variant": state.options["variant"],
            "phase": state.phase,
            "dealer": state.dealer,
            "turn": state.turn if state.phase in (PLAY, LAST_CALL) else None,
            "last_play": None if state.last_play is None else dict(state.last_play),
            "hand_sizes": [len(h) for h in state.hands],
            "pile": len(state.pile),
            "pile_plays": [dict(p) for p in state.pile_plays],
            "set_aside": len(state.set_aside),
            "noses": list(state.noses),
            "plays": state.plays,
            "last_call": None if state.last_call is None else dict(state.last_call),
        }
        rank = None if state.rank is None else C.RANKS[state.rank]
        if easy:
            out.update(
                round=state.deal,
                rounds=self.ROUNDS,
                rank_in_play=rank,
                can_call=state.phase == PLAY and state.can_call,
                scores=list(state.scores),
                totals=[a + b for a, b in zip(state.scores, state.noses, strict=True)],
            )
        else:
            out.update(
                deal=state.deal,
                silver_nose_rank=None if state.silver is not None else rank,
                silver_nose=state.silver,
                table_noses=state.table_noses,
                nose_counts=self.nose_counts(state),
                waiting=list(state.waiting),
                passed=list(state.passed),
                max_plays=state.options["max_plays"],
                end_reason=state.end_reason,
                called=self.called(state),
            )
        return out

    def private_view(self, state: FibberState, seat: int) -> JSON:
        return {"hand": C.names(state.hands[seat])}

    def hidden_variant(
        self, state: FibberState, seat: int | None, rng: random.Random
    ) -> FibberState:
        new = self.clone(state)
        # The cards of a play still open to a call are known to the seat that played them.
        known_top = 0
        if seat is not None and new.last_play is not None and new.last_play["seat"] == seat:
            judged = new.phase == CALL or (
                self.easy(new) and (new.can_call or new.phase == LAST_CALL)
            )
            if judged:
                known_top = new.last_play["count"]
        hidden_pile = new.pile[: len(new.pile) - known_top]
        hidden = list(hidden_pile) + list(new.set_aside)
        others = [s for s in range(new.seats) if s != seat]
        for other in others:
            hidden += new.hands[other]
        rng.shuffle(hidden)
        cut = len(hidden_pile)
        new.pile = hidden[:cut] + new.pile[cut:]
        new.set_aside = hidden[cut : cut + len(new.set_aside)]
        cut += len(new.set_aside)
        for other in others:
            size = len(new.hands[other])
            new.hands[other] = sorted(hidden[cut : cut + size])
            cut += size
        redraw_secrets(new, rng)
        return new

    def determinize(self, view: JSON, rng: random.Random) -> FibberState:
        return determinize(self, view, rng)

    # --- Invariants (tests and simulate) -------------------------------------------------

    def invariants(self, state: FibberState) -> list[str]:
        problems = []
        all_cards = state.pile + state.set_aside + [c for h in state.hands for c in h]
        if sorted(all_cards) != list(range(C.DECK_SIZE)):
            problems.append(
                f"cards not accounted for: {len(all_cards)} cards, {len(set(all_cards))} distinct"
            )
        if any(h != sorted(h) for h in state.hands):
            problems.append("a hand is not sorted")
        if len(state.set_aside) != C.deal_sizes(state.seats)[1]:
            problems.append(f"{len(state.set_aside)} cards set aside")
        if sum(p["count"] for p in state.pile_plays) != len(state.pile):
            problems.append("the pile does not match the plays in it")
        if any(n < 0 for n in state.noses):
            problems.append(f"negative noses: {state.noses}")
        if not self.easy(state):
            if state.table_noses < 0 or state.table_noses + sum(state.noses) != C.PLAIN_NOSES:
                problems.append(
                    f"plain noses not accounted for: {state.table_noses} on the table,"
                    f" {state.noses} worn"
                )
            if state.silver is not None and state.phase != OVER:
                problems.append("the Silver Nose is worn while the game goes on")
            if state.plays > state.options["max_plays"]:
                problems.append(f"{state.plays} plays beyond max_plays")
        elif state.deal > self.ROUNDS:
            problems.append(f"round {state.deal} of {self.ROUNDS}")
        if state.phase == PLAY and not state.hands[state.turn]:
            problems.append(f"seat {state.turn} must play with an empty hand")
        if state.phase == CALL and (not state.waiting or state.turn in state.waiting):
            problems.append(f"bad call window: {state.waiting}")
        return problems
