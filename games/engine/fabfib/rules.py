"""Fab Fib (docs/rules/fabfib.md).

One hand of three cards travels round the table. Its holder declares a claim; the next player
decides, before looking, to call (reveal; the wrong side takes the cards' skulls as damage) or
to accept (look, exchange 0–3 cards once, then claim strictly higher). Three actual zeros are
revealed at once as the special 1000.
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
    subset_of,
)
from ..options import Option
from ..rng import Rng
from . import cards as C
from .sample import determinize
from .state import CLAIM, LAST_ALIVE, OVER, RESPOND, START_LIFE, STAT_KEYS, FabFibState


class FabFib(Rules[FabFibState]):
    end_reasons = (LAST_ALIVE,)
    game_id = "fabfib"
    name = "Fab Fib"
    bluff_boards = {
        "bluffer": ("bluffs_passed", "bluffs"),
        "detective": ("calls_right", "calls"),
        "boldest": ("bluffs", "claims"),
    }
    min_seats = 3
    max_seats = 10
    state_class = FabFibState

    # --- Set-up ------------------------------------------------------------------------

    options = (Option("life", "Starting life", int, default=START_LIFE, lo=1, hi=30),)

    def normalize_options(self, seats: int, options: JSON) -> JSON:
        self.check_seats(seats, options)
        life = self.option("life").take(options)
        self.refuse_unknown_options(options)
        return {"life": life}

    def _setup(
        self, seats: int, options: JSON, seed: str, rng: Rng, events: list[Event]
    ) -> FabFibState:
        deck = list(range(C.DECK_SIZE))
        rng.shuffle(deck)
        state = FabFibState(
            seats=seats,
            options=options,
            seed=seed,
            rng_counter=0,
            life=[options["life"]] * seats,
            draw_pile=deck,
            discard=[],
            hand=[],
            holder=0,
            responder=None,
            phase=CLAIM,
            accepted=False,
            exchanged=False,
            claim=None,
            round=0,
            claims=[],
            memory=[None] * seats,
            eliminated=[],
            last_reveal=None,
            stats=[dict.fromkeys(STAT_KEYS, 0) for _ in range(seats)],
        )
        starter = rng.randbelow(seats, "first_starter")
        events.append(Event("match_started", {"starter": starter, "life": list(state.life)}))
        self._start_round(state, starter, rng, events)
        return state

    # --- Queries -------------------------------------------------------------------------

    def alive(self, state: FabFibState, seat: int) -> bool:
        return state.life[seat] > 0

    def to_act(self, state: FabFibState) -> list[int]:
        if state.phase == CLAIM:
            return [state.holder]
        if state.phase == RESPOND:
            assert state.responder is not None
            return [state.responder]
        return []

    def is_over(self, state: FabFibState) -> bool:
        return state.phase == OVER

    def _legal_actions(self, state: FabFibState, seat: int) -> list[JSON]:
        if state.phase == RESPOND:
            actions = [entry("call", f"Call {state.claim}: reveal the cards")]
            if state.claim != C.MAX_CLAIM:
                actions.append(entry("accept", f"Accept {state.claim} and look at the cards"))
            return actions
        actions = [entry("claim", "Declare a claim", value=one_of(C.claims_above(state.claim)))]
        if state.accepted and not state.exchanged:
            actions.append(
                entry("exchange", "Exchange 1–3 cards (once)", cards=subset_of(range(3), 1, 3))
            )
        return actions

    def explain(self, state: FabFibState, seat: int, action: Action, reason: str) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "accept" and state.phase == RESPOND and state.claim == C.MAX_CLAIM:
            return "999 cannot be accepted: you must call."
        if kind == "exchange" and state.phase == CLAIM and state.exchanged:
            return "You have already exchanged this turn; now declare a claim."
        if kind == "exchange" and state.phase == CLAIM and not state.accepted:
            return "The starter of a round does not exchange; declare a claim."
        if kind == "claim" and state.phase == CLAIM and "value" in action:
            value = action.get("value")
            if isinstance(value, int) and not isinstance(value, bool):
                value = f"{value:03d}" if 0 <= value <= 999 else str(value)
            if not isinstance(value, str) or len(value) != 3 or not value.isdigit():
                return 'A claim is a three-digit number such as "772", sent as a string.'
            if not C.is_claim(value):
                hint = "".join(sorted(value, reverse=True))
                above = state.claim is not None and hint <= state.claim
                return (
                    f"{value} is not a legal claim: its digits must be in non-increasing order"
                    + (
                        f", and a claim must be higher than {state.claim}."
                        if above
                        else f" ({hint})."
                    )
                )
            if state.claim is not None and value <= state.claim:
                return f"A claim must be strictly higher than {state.claim}."
        return reason

    # --- Actions -------------------------------------------------------------------------

    def _apply(
        self, state: FabFibState, seat: int, action: Action, rng: Rng, events: list[Event]
    ) -> None:
        kind = action["type"]
        if kind == "claim":
            self._claim(state, seat, action["value"], events)
        elif kind == "exchange":
            self._exchange(state, seat, action["cards"], rng, events)
        elif kind == "accept":
            self._accept(state, seat, rng, events)
        elif kind == "call":
            self._call(state, seat, rng, events)
        else:  # pragma: no cover - check_action admits only the types above
            raise AssertionError(kind)

    def _claim(self, state: FabFibState, seat: int, value: str, events: list[Event]) -> None:
        truth = C.reading(state.hand)
        stats = state.stats[seat]
        stats["claims"] += 1
        if value != truth:
            stats["bluffs"] += 1
        self._pending_entry(state, seat)["claim"] = value
        state.claim = value
        state.memory[seat] = {"cards": list(state.hand), "round": state.round, "claim": value}
        state.phase = RESPOND
        state.responder = self.next_alive(state, seat)
        events.append(Event("claim", {"seat": seat, "claim": value, "next": state.responder}))

    def _pending_entry(self, state: FabFibState, seat: int) -> JSON:
        """This turn's public record in ``claims`` (created when the holder got the hand)."""
        if not state.claims or "claim" in state.claims[-1]:
            state.claims.append({"seat": seat, "exchanged": 0})
        return state.claims[-1]

    def _accept(self, state: FabFibState, seat: int, rng: Rng, events: list[Event]) -> None:
        claimant = state.holder
        if state.claim != C.reading(state.hand):
            state.stats[claimant]["bluffs_passed"] += 1
        state.stats[seat]["accepts"] += 1
        state.holder = seat
        state.responder = None
        state.phase = CLAIM
        state.accepted = True
        state.exchanged = False
        self._pending_entry(state, seat)
        events.append(
            Event(
                "accept",
                {"seat": seat, "claim": state.claim},
                {seat: {"cards": C.show_all(state.hand)}},
            )
        )
        self._check_thousand(state, rng, events, moment="accept")

    def _exchange(
        self, state: FabFibState, seat: int, positions: list[int], rng: Rng, events: list[Event]
    ) -> None:
        # Discards go on the discard pile first, then cards are drawn one at a time, so a
        # reshuffle in the middle of an exchange includes the cards just discarded (D).
        for position in positions:
            state.discard.append(state.hand[position])
        for position in sorted(positions):
            state.hand[position] = self._draw(state, rng, events)
        state.exchanged = True
        self._pending_entry(state, seat)["exchanged"] = len(positions)
        events.append(
            Event(
                "exchange",
                {"seat": seat, "count": len(positions)},
                {seat: {"positions": sorted(positions), "cards": C.show_all(state.hand)}},
            )
        )
        self._check_thousand(state, rng, events, moment="exchange")

    def _call(self, state: FabFibState, seat: int, rng: Rng, events: list[Event]) -> None:
        claimant = state.holder
        assert state.claim is not None
        truth = C.reading(state.hand)
        claim_true = state.claim == truth
        damage = C.skull_total(state.hand)
        loser, winner = (seat, claimant) if claim_true else (claimant, seat)
        caller_stats, claimant_stats = state.stats[seat], state.stats[claimant]
        caller_stats["calls"] += 1
        if not claim_true:
            caller_stats["calls_right"] += 1
            claimant_stats["bluffs_called"] += 1
        state.stats[loser]["damage_taken"] += damage
        state.stats[winner]["damage_dealt"] += damage
        state.life[loser] = max(0, state.life[loser] - damage)
        state.last_reveal = {
            "kind": "call",
            "round": state.round,
            "caller": seat,
            "claimant": claimant,
            "claim": state.claim,
            "cards": C.show_all(state.hand),
            "true": claim_true,
            "loser": loser,
            "damage": damage,
        }
        events.append(Event("call", {**state.last_reveal, "life": list(state.life)}))
        state.discard.extend(state.hand)
        state.hand = []
        self._eliminate(state, [loser], events)
        if state.phase == OVER:
            return
        starter = loser if self.alive(state, loser) else self.next_alive(state, loser)
        self._start_round(state, starter, rng, events)

    # --- Rounds, draws, the 1000 and the end ---------------------------------------------

    def _start_round(self, state: FabFibState, starter: int, rng: Rng, events: list[Event]) -> None:
        state.round += 1
        state.holder = starter
        state.responder = None
        state.phase = CLAIM
        state.accepted = False
        state.exchanged = False
        state.claim = None
        state.claims = [{"seat": starter, "exchanged": 0}]
        state.hand = [self._draw(state, rng, events) for _ in range(3)]
        events.append(
            Event(
                "round_started",
                {"round": state.round, "starter": starter},
                {starter: {"cards": C.show_all(state.hand)}},
            )
        )
        self._check_thousand(state, rng, events, moment="draw")

    def _draw(self, state: FabFibState, rng: Rng, events: list[Event]) -> int:
        if not state.draw_pile:
            # Deck exhaustion (D): the discards are shuffled into a new draw pile; the
            # cards currently held stay out.
            state.draw_pile, state.discard = state.discard, []
            rng.shuffle(state.draw_pile)
            events.append(Event("reshuffle", {"cards": len(state.draw_pile)}))
        return state.draw_pile.pop()

    def _check_thousand(
        self, state: FabFibState, rng: Rng, events: list[Event], moment: str
    ) -> None:
        """The special 1000 (D: revealed automatically the moment the holder has it)."""
        if not C.is_thousand(state.hand):
            return
        holder = state.holder
        damage = C.skull_total(state.hand)
        victims = [s for s in range(state.seats) if s != holder and self.alive(state, s)]
        for victim in victims:
            state.life[victim] = max(0, state.life[victim] - damage)
            state.stats[victim]["damage_taken"] += damage
        state.stats[holder]["damage_dealt"] += damage * len(victims)
        state.stats[holder]["thousands"] += 1
        state.life[holder] = state.options["life"]
        state.last_reveal = {
            "kind": "thousand",
            "round": state.round,
            "seat": holder,
            "moment": moment,
            "cards": C.show_all(state.hand),
            "damage": damage,
            "victims": victims,
        }
        events.append(Event("thousand", {**state.last_reveal, "life": list(state.life)}))
        state.discard.extend(state.hand)
        state.hand = []
        self._eliminate(state, victims, events)
        if state.phase != OVER:
            self._start_round(state, holder, rng, events)

    def _eliminate(self, state: FabFibState, candidates: list[int], events: list[Event]) -> None:
        out = [s for s in candidates if state.life[s] <= 0]
        if out:
            state.eliminated.append(out)
            events.append(Event("eliminated", {"seats": out}))
        alive = [s for s in range(state.seats) if self.alive(state, s)]
        if len(alive) <= 1:
            state.phase = OVER
            state.responder = None
            events.append(Event("match_over", {"placements": self._placements(state)}))

    # --- Results -------------------------------------------------------------------------

    def end_reason(self, state: FabFibState) -> str:
        return LAST_ALIVE  # the only way a match ends: one player has life left

    def _placements(self, state: FabFibState) -> list[int]:
        # Reverse order of elimination; seats eliminated by one event share a place.
        return elimination_placements(state.seats, state.eliminated)

    def stats(self, state: FabFibState) -> list[JSON]:
        return [dict(s) for s in state.stats]

    def summary(self, state: FabFibState) -> JSON:
        return {"rounds": state.round, "life": list(state.life)}

    # --- Views ---------------------------------------------------------------------------

    def public_view(self, state: FabFibState) -> JSON:
        return {
            "round": state.round,
            "phase": state.phase,
            "life": list(state.life),
            "out": [not self.alive(state, s) for s in range(state.seats)],
            "holder": state.holder,
            "responder": state.responder,
            "claim": state.claim,
            "claims": [dict(c) for c in state.claims],
            "may_exchange": state.phase == CLAIM and state.accepted and not state.exchanged,
            "draw_pile": len(state.draw_pile),
            "discard_pile": len(state.discard),
            "eliminated": [list(g) for g in state.eliminated],
            "last_reveal": state.last_reveal,
        }

    def private_view(self, state: FabFibState, seat: int) -> JSON:
        holding = state.phase == CLAIM and state.holder == seat
        memory = state.memory[seat]
        return {
            "hand": C.show_all(state.hand) if holding else None,
            "memory": None
            if memory is None
            else {
                "cards": C.show_all(memory["cards"]),
                "round": memory["round"],
                "claim": memory["claim"],
                "possibly_changed": True,
            },
        }

    def hidden_variant(
        self, state: FabFibState, seat: int | None, rng: random.Random
    ) -> FabFibState:
        new = self.clone(state)
        sees_hand = seat is not None and state.phase == CLAIM and state.holder == seat
        hidden = new.draw_pile + new.discard + ([] if sees_hand else new.hand)
        rng.shuffle(hidden)
        draw, discard = len(new.draw_pile), len(new.discard)
        new.draw_pile, new.discard = hidden[:draw], hidden[draw : draw + discard]
        if not sees_hand:
            new.hand = hidden[draw + discard :]
        for other in range(new.seats):
            memory = new.memory[other]
            if other != seat and memory is not None:
                memory["cards"] = rng.sample(range(C.DECK_SIZE), 3)
        redraw_secrets(new, rng)
        return new

    def determinize(self, view: JSON, rng: random.Random) -> FabFibState:
        return determinize(self, view, rng)

    # --- Invariants (tests and simulate) -------------------------------------------------

    def invariants(self, state: FabFibState) -> list[str]:
        problems = []
        all_cards = state.draw_pile + state.discard + state.hand
        if sorted(all_cards) != list(range(C.DECK_SIZE)):
            problems.append(
                f"cards not accounted for: {len(all_cards)} cards, {len(set(all_cards))} distinct"
            )
        top = state.options["life"]
        if any(not 0 <= life <= top for life in state.life):
            problems.append(f"life out of range: {state.life}")
        if state.phase != OVER:
            if len(state.hand) != 3:
                problems.append(f"hand has {len(state.hand)} cards")
            if C.is_thousand(state.hand) and state.phase == CLAIM:
                problems.append("an unrevealed 1000 is held")
            for seat in self.to_act(state):
                if not self.alive(state, seat):
                    problems.append(f"seat {seat} must act but is out")
            claims = [c["claim"] for c in state.claims if "claim" in c]
            if claims != sorted(set(claims)):
                problems.append(f"claims not strictly increasing: {claims}")
        elif sum(self.alive(state, s) for s in range(state.seats)) != 1:
            problems.append("match over without exactly one survivor")
        return problems
