"""Skull (docs/rules/skull.md, which also lists the decisions taken where the rules are silent).

Every player owns three flowers and a skull. A round: everyone places one card face down at
once (preparation); then, clockwise from the starter, each player adds a card to their stack or
starts the bidding; bids rise until all but one have passed (or a bid equals every card on the
mats); the highest bidder, the challenger, reveals their own stack first, then chooses other
stacks' top cards one at a time. Enough flowers are a success (two win); a skull is a failure
that costs the challenger one card, picked blind. Options: ``two_sets`` (7–12 seats) and
``two_tribes`` (each person plays two seats on opposite sides of the table).
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
    in_range,
    one_of,
    redraw_secrets,
)
from ..options import Option
from ..rng import Rng
from . import cards as C
from .sample import determinize
from .state import (
    BID,
    CHOOSE_STARTER,
    FULL_SET,
    LAST_PERSON_STANDING,
    LAST_STANDING,
    OPTION_KEYS,
    OVER,
    PREPARE,
    REVEAL,
    STAT_KEYS,
    TURN,
    TWO_SUCCESSES,
    WINS_NEEDED,
    SkullState,
)


class Skull(Rules[SkullState]):
    end_reasons = (TWO_SUCCESSES, LAST_STANDING, LAST_PERSON_STANDING)
    game_id = "skull"
    name = "Skull"
    #: A challenge is Skull's call (won or lost) and a bid with one's own skull on the mat its
    #: bluff; no statistic says whether such a bid stood, so Skull has no "bluffer" board.
    bluff_boards = {
        "detective": ("challenges_won", ("challenges_won", "challenges_lost")),
        "boldest": ("bids_with_own_skull", "bids"),
    }
    min_seats = 3
    max_seats = 6
    state_class = SkullState
    option_examples = [{}, {"two_sets": True}, {"two_tribes": True}]

    # --- Set-up ------------------------------------------------------------------------

    def seat_range(self, options: JSON) -> tuple[int, int]:
        """3–6 seats with one set; 7–12 with ``two_sets`` (D)."""
        return (7, 12) if options.get("two_sets") is True else (3, 6)

    options = (
        Option("two_sets", "Two sets of cards: 7 to 12 seats (without it 3 to 6)", bool, False),
        Option(
            "two_tribes",
            "Each person plays two seats on opposite sides (an even number of seats)",
            bool,
            False,
        ),
    )
    seats_note = "7 to 12 seats need `two_sets`, and `two_tribes` an even number (else 422)."

    def normalize_options(self, seats: int, options: JSON) -> JSON:
        self.refuse_unknown_options({k: v for k, v in options.items() if k not in OPTION_KEYS})
        normalized = {key: self.option(key).take(dict(options)) for key in OPTION_KEYS}
        self.check_seats(seats, normalized)
        if normalized["two_tribes"] and seats % 2:
            raise InvalidOptions(
                "Two tribes needs an even number of seats: each person plays two seats."
            )
        return normalized

    def _setup(
        self, seats: int, options: JSON, seed: str, rng: Rng, events: list[Event]
    ) -> SkullState:
        state = SkullState(
            seats=seats,
            options=options,
            seed=seed,
            rng_counter=0,
            phase=PREPARE,
            round=0,
            starter=0,
            current=None,
            hands=[list(C.FULL_SET) for _ in range(seats)],
            stacks=[[] for _ in range(seats)],
            lost=[[] for _ in range(seats)],
            successes=[0] * seats,
            eliminated=[],
            skull_known=[True] * seats,
            bid=None,
            bidder=None,
            passed=[False] * seats,
            bids=[],
            challenger=None,
            revealed=[0] * seats,
            reveals=[],
            last_challenge=None,
            winner=None,
            end=None,
            stats=[dict.fromkeys(STAT_KEYS, 0) for _ in range(seats)],
        )
        # First starter (D): chosen at random; the original text does not say.
        starter = rng.randbelow(seats, "first_starter")
        events.append(Event("match_started", {"starter": starter, "people": self.people(state)}))
        self._start_round(state, starter, events)
        return state

    # --- Queries -------------------------------------------------------------------------

    def alive(self, state: SkullState, seat: int) -> bool:
        """A seat is in the game while it owns at least one card."""
        return bool(state.hands[seat] or state.stacks[seat])

    def cards_left(self, state: SkullState, seat: int) -> int:
        return len(state.hands[seat]) + len(state.stacks[seat])

    def on_mats(self, state: SkullState) -> int:
        """Cards on all mats: the highest possible bid."""
        return sum(map(len, state.stacks))

    def flowers_revealed(self, state: SkullState) -> int:
        return sum(1 for r in state.reveals if r["card"] == C.FLOWER)

    def revealable(self, state: SkullState) -> list[int]:
        """Stacks (other than the challenger's) that still have an unrevealed card."""
        return [
            s
            for s in range(state.seats)
            if s != state.challenger and state.revealed[s] < len(state.stacks[s])
        ]

    def places(self, seats: int, options: JSON) -> list[list[int]]:
        """With ``two_tribes`` person i plays seats i and i + n/2, on opposite sides."""
        if not options.get("two_tribes"):
            return super().places(seats, options)
        half = seats // 2
        return [[person, person + half] for person in range(half)]

    def people(self, state: SkullState) -> list[int]:
        """Seat → person (the inverse of :meth:`places`)."""
        owner = [0] * state.seats
        for person, seats in enumerate(self.places(state.seats, state.options)):
            for seat in seats:
                owner[seat] = person
        return owner

    def person_seats(self, state: SkullState, person: int) -> list[int]:
        """The seats person ``person`` plays (two with ``two_tribes``, else one)."""
        return [s for s, p in enumerate(self.people(state)) if p == person]

    def to_act(self, state: SkullState) -> list[int]:
        if state.phase == PREPARE:  # everyone in the game who has not placed yet, at once
            stacks, hands = state.stacks, state.hands
            return [s for s in range(state.seats) if not stacks[s] and hands[s]]
        if state.phase in (TURN, BID, REVEAL, CHOOSE_STARTER):
            assert state.current is not None
            return [state.current]
        return []

    def is_over(self, state: SkullState) -> bool:
        return state.phase == OVER

    def _legal_actions(self, state: SkullState, seat: int) -> list[JSON]:
        hand = state.hands[seat]
        if state.phase == PREPARE:
            return [
                entry("place", "Place a card face down on your mat", card=one_of(C.kinds(hand)))
            ]
        if state.phase == TURN:
            actions = []
            if hand:
                actions.append(
                    entry("add", "Add a card on top of your stack", card=one_of(C.kinds(hand)))
                )
            actions.append(
                entry(
                    "bid",
                    "Start the bidding: how many cards you will reveal without a skull",
                    count=in_range(1, self.on_mats(state)),
                )
            )
            return actions
        if state.phase == BID:
            assert state.bid is not None
            return [
                entry(
                    "bid",
                    f"Raise the bid above {state.bid}",
                    count=in_range(state.bid + 1, self.on_mats(state)),
                ),
                entry("pass", "Pass: out of this bidding (your cards stay on your mat)"),
            ]
        if state.phase == REVEAL:
            return [
                entry(
                    "reveal",
                    "Reveal the top unrevealed card of another player's stack",
                    seat=one_of(self.revealable(state)),
                )
            ]
        if state.phase == CHOOSE_STARTER:
            starters = [s for s in range(state.seats) if self.alive(state, s)]
            return [
                entry("choose_starter", "Choose who starts the next round", seat=one_of(starters))
            ]
        return []

    def explain(self, state: SkullState, seat: int, action: Action, reason: str) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        phase = state.phase
        hand = state.hands[seat]
        if kind in ("place", "add"):
            if phase == PREPARE and kind == "add":
                return "First everyone places one card on their mat: use 'place'."
            if phase == TURN and kind == "place":
                return "Your first card is already on your mat: 'add' a card or start the bidding."
            if phase in (BID, REVEAL):
                return "The bidding has started: no more cards can be added this round."
            if phase == TURN and not hand:
                return "You have no card left in hand: you must start the bidding."
            card = action.get("card")
            if phase in (PREPARE, TURN) and card in C.KINDS and card not in hand:
                return f"You have no {card} in hand; you hold: {', '.join(hand)}."
            if phase in (PREPARE, TURN) and card not in C.KINDS:
                return f"'card' must be one of: {', '.join(map(repr, C.kinds(hand)))}."
        if kind == "bid":
            if phase == PREPARE:
                return "The bidding can start only after everyone has placed a card."
            if phase in (TURN, BID):
                total = self.on_mats(state)
                lo = 1 if state.bid is None else state.bid + 1
                count = action.get("count")
                if type(count) is not int or not lo <= count <= total:
                    if lo > total:  # pragma: no cover - a bid of every card ends the bidding
                        return reason
                    above = "" if state.bid is None else f", higher than the bid of {state.bid}"
                    return (
                        f"A bid is a whole number from {lo} to {total} (the cards on all"
                        f" mats){above}."
                    )
            if phase == REVEAL:
                return "The bidding is over: the challenger is revealing cards."
        if kind == "pass":
            if phase == TURN:
                return "Nobody has bid yet: add a card or start the bidding."
            if phase == PREPARE:
                return "Everyone must place one card on their mat first."
        if kind == "reveal" and phase == REVEAL:
            target = action.get("seat")
            if target == seat:
                return "Your own stack was revealed first; now choose another player's stack."
            if type(target) is int and 0 <= target < state.seats:
                return "That stack has no unrevealed card: choose another one."
        return reason

    # --- Actions -------------------------------------------------------------------------

    def _apply(
        self, state: SkullState, seat: int, action: Action, rng: Rng, events: list[Event]
    ) -> None:
        kind = action["type"]
        if kind in ("place", "add"):
            self._place(state, seat, action["card"], events)
        elif kind == "bid":
            self._bid(state, seat, action["count"], rng, events)
        elif kind == "pass":
            self._pass(state, seat, rng, events)
        elif kind == "reveal":
            self._reveal(state, action["seat"], rng, events)
            if state.phase == REVEAL:
                self._check_reveal(state, rng, events)
        elif kind == "choose_starter":
            events.append(Event("starter_chosen", {"by": seat, "seat": action["seat"]}))
            self._start_round(state, action["seat"], events)
        else:  # pragma: no cover - check_action admits only the types above
            raise AssertionError(kind)

    def _place(self, state: SkullState, seat: int, card: str, events: list[Event]) -> None:
        """Place (preparation, simultaneous) or add (own turn) one card on top of the stack."""
        state.hands[seat].remove(card)
        state.stacks[seat].append(card)
        if card == C.SKULL:
            state.stats[seat]["skulls_placed"] += 1
        height = len(state.stacks[seat])
        if state.phase == PREPARE:
            events.append(Event("placed", {"seat": seat}, {seat: {"card": card}}))
            if not self.to_act(state):
                state.phase = TURN
                state.current = state.starter
                events.append(Event("preparation_done", {"next": state.starter}))
            return
        state.current = self.next_alive(state, seat)
        events.append(
            Event(
                "added",
                {"seat": seat, "height": height, "next": state.current},
                {seat: {"card": card}},
            )
        )

    def _bid(self, state: SkullState, seat: int, count: int, rng: Rng, events: list[Event]) -> None:
        stats = state.stats[seat]
        stats["bids"] += 1
        if C.SKULL in state.stacks[seat]:
            stats["bids_with_own_skull"] += 1
        state.phase = BID
        state.bid = count
        state.bidder = seat
        state.bids.append({"seat": seat, "count": count})
        # A bid of every card on the mats ends the bidding at once (D): nobody can raise it.
        nxt = None if count == self.on_mats(state) else self._next_bidder(state, seat)
        events.append(Event("bid", {"seat": seat, "count": count, "next": nxt}))
        if nxt is None:
            self._start_challenge(state, rng, events)
        else:
            state.current = nxt

    def _next_bidder(self, state: SkullState, seat: int) -> int | None:
        """The next seat clockwise that is in the game and has not passed, other than ``seat``."""
        for step in range(1, state.seats):
            candidate = (seat + step) % state.seats
            if self.alive(state, candidate) and not state.passed[candidate]:
                return candidate
        return None

    def _pass(self, state: SkullState, seat: int, rng: Rng, events: list[Event]) -> None:
        state.passed[seat] = True
        state.bids.append({"seat": seat, "pass": True})
        in_bidding = [s for s in range(state.seats) if self.alive(state, s) and not state.passed[s]]
        # The bidding ends when all but one (the highest bidder) have passed.
        nxt = None if len(in_bidding) == 1 else self._next_bidder(state, seat)
        events.append(Event("passed", {"seat": seat, "next": nxt}))
        if nxt is None:
            self._start_challenge(state, rng, events)
        else:
            state.current = nxt

    # --- The challenge -------------------------------------------------------------------

    def _start_challenge(self, state: SkullState, rng: Rng, events: list[Event]) -> None:
        """The highest bidder reveals their own stack first, top card first, never more
        cards than the bid; then chooses other stacks one card at a time."""
        challenger, bid = state.bidder, state.bid
        assert challenger is not None and bid is not None
        state.phase = REVEAL
        state.challenger = challenger
        state.current = challenger
        events.append(Event("challenge", {"seat": challenger, "count": bid}))
        own = min(len(state.stacks[challenger]), bid)
        for _ in range(own):
            self._reveal(state, challenger, rng, events)
            if state.phase != REVEAL:
                return
        self._check_reveal(state, rng, events)

    def _reveal(self, state: SkullState, owner: int, rng: Rng, events: list[Event]) -> None:
        """Turn the top unrevealed card of ``owner``'s stack; a skull ends the challenge."""
        stack = state.stacks[owner]
        card = stack[len(stack) - 1 - state.revealed[owner]]
        state.revealed[owner] += 1
        state.reveals.append({"seat": owner, "card": card})
        if card == C.SKULL:
            state.skull_known[owner] = True
        elif state.revealed[owner] == self.cards_left(state, owner):
            state.skull_known[owner] = False  # every card it owns is a revealed flower
        events.append(
            Event(
                "revealed",
                {
                    "seat": owner,
                    "card": card,
                    "by": state.challenger,
                    "flowers": self.flowers_revealed(state),
                    "needed": state.bid,
                },
            )
        )
        if card == C.SKULL:
            self._fail(state, owner, rng, events)

    def _check_reveal(self, state: SkullState, rng: Rng, events: list[Event]) -> None:
        """After a flower: success once the bid is reached."""
        assert state.bid is not None
        if self.flowers_revealed(state) >= state.bid:
            self._succeed(state, rng, events)

    def _close_challenge(self, state: SkullState, success: bool, skull_owner: int | None) -> None:
        state.last_challenge = {
            "round": state.round,
            "challenger": state.challenger,
            "bid": state.bid,
            "success": success,
            "skull_owner": skull_owner,
            "reveals": [dict(r) for r in state.reveals],
        }
        state.revealed = [0] * state.seats
        state.reveals = []
        for seat in range(state.seats):  # all cards go back to their owners' hands
            if state.stacks[seat]:
                state.hands[seat] = sorted(state.hands[seat] + state.stacks[seat])
                state.stacks[seat] = []

    def _succeed(self, state: SkullState, rng: Rng, events: list[Event]) -> None:
        challenger = state.challenger
        assert challenger is not None
        state.successes[challenger] += 1
        state.stats[challenger]["challenges_won"] += 1
        self._close_challenge(state, True, None)
        events.append(
            Event(
                "challenge_won",
                {"seat": challenger, "count": state.bid, "successes": state.successes[challenger]},
            )
        )
        if state.successes[challenger] >= WINS_NEEDED:
            self._finish(state, challenger, TWO_SUCCESSES, events)
        else:
            self._start_round(state, challenger, events)

    def _fail(self, state: SkullState, skull_owner: int, rng: Rng, events: list[Event]) -> None:
        challenger = state.challenger
        assert challenger is not None
        state.stats[challenger]["challenges_lost"] += 1
        state.stats[skull_owner]["skulls_sprung"] += 1  # own skull included (D)
        self._close_challenge(state, False, skull_owner)
        events.append(
            Event(
                "challenge_lost",
                {"seat": challenger, "count": state.bid, "skull_owner": skull_owner},
            )
        )
        lost = self._lose_card(state, challenger, rng)
        left = self.cards_left(state, challenger)
        events.append(
            Event(
                "card_lost",
                {"seat": challenger, "picked_by": skull_owner, "cards_left": left},
                {challenger: {"card": lost}},
            )
        )
        if left:
            self._start_round(state, challenger, events)
            return
        state.eliminated.append(challenger)
        events.append(Event("eliminated", {"seat": challenger}))
        if self._check_end(state, events):
            return
        if skull_owner != challenger:
            self._start_round(state, skull_owner, events)
            return
        # Out through their own skull: the challenger chooses the next starter.
        state.phase = CHOOSE_STARTER
        state.current = challenger
        events.append(Event("choose_starter", {"seat": challenger}))

    def _lose_card(self, state: SkullState, seat: int, rng: Rng) -> str:
        """The blind loss (D): the skull's owner picks one of the challenger's shuffled cards,
        which is a uniformly random pick; when they are all of one kind no draw is needed."""
        hand = state.hands[seat]
        one_kind = len(set(hand)) == 1  # Fine points: then the lost card is that kind
        card = hand[0] if one_kind else hand[rng.randbelow(len(hand), "blind_loss")]
        hand.remove(card)
        state.lost[seat].append(card)
        state.stats[seat]["cards_lost"] += 1
        if state.skull_known[seat] and hand:
            state.skull_known[seat] = None  # others cannot tell whether the skull went
        if not hand:
            state.skull_known[seat] = False
        return card

    # --- Rounds and the end --------------------------------------------------------------

    def _start_round(self, state: SkullState, starter: int, events: list[Event]) -> None:
        state.round += 1
        state.phase = PREPARE
        state.starter = starter
        state.current = None
        state.bid = None
        state.bidder = None
        state.passed = [False] * state.seats
        state.bids = []
        state.challenger = None
        state.revealed = [0] * state.seats
        state.reveals = []
        events.append(Event("round_started", {"round": state.round, "starter": starter}))

    def _check_end(self, state: SkullState, events: list[Event]) -> bool:
        """The last player standing wins; with two tribes the match also ends when only one
        person's tribes remain (Fine points)."""
        alive = [s for s in range(state.seats) if self.alive(state, s)]
        if len(alive) == 1:
            self._finish(state, alive[0], LAST_STANDING, events)
            return True
        people = self.people(state)
        if len({people[s] for s in alive}) == 1:
            self._finish(state, None, LAST_PERSON_STANDING, events)
            return True
        return False

    def _finish(self, state: SkullState, winner: int | None, end: str, events: list[Event]) -> None:
        state.phase = OVER
        state.current = None
        state.winner = winner
        state.end = end
        events.append(
            Event(
                "match_over",
                {
                    "winner": winner,
                    "end": end,
                    "placements": self._placements(state),
                    "person_placements": self.person_placements(state),
                },
            )
        )

    # --- Results -------------------------------------------------------------------------

    def end_reason(self, state: SkullState) -> str:
        assert state.end is not None
        return state.end

    def _placements(self, state: SkullState) -> list[int]:
        """Placement (D): the winner first; then the players still in, by successes, then
        cards left; then the eliminated, last eliminated first."""
        order = {seat: i for i, seat in enumerate(state.eliminated)}
        keys = []
        for seat in range(state.seats):
            if seat == state.winner:
                keys.append((0, 0, 0))
            elif seat in order:
                keys.append((2, -order[seat], 0))
            else:
                keys.append((1, -state.successes[seat], -self.cards_left(state, seat)))
        return competition_ranking(keys)

    def person_placements(self, state: SkullState) -> list[int]:
        """1-based place of every person (see :meth:`people`) once the match is over.

        With ``two_tribes`` people are ranked by their better tribe's placement, then by the
        other's (Fine points), so a person wins when either tribe wins. Without it this is
        :meth:`placements`."""
        return self.person_placements_of(state.seats, state.options, self.placements(state))

    def stats(self, state: SkullState) -> list[JSON]:
        return [dict(s) for s in state.stats]

    def summary(self, state: SkullState) -> JSON:
        return {
            "rounds": state.round,
            "winner": state.winner,
            "end": state.end,
            "successes": list(state.successes),
            "cards_left": [self.cards_left(state, s) for s in range(state.seats)],
        }

    def clone(self, state: SkullState) -> SkullState:
        """A copy as deep as ``_apply`` needs, much faster than the generic deep copy.

        Lists and dicts that ``_apply`` changes in place are copied; the rest (options,
        ``last_challenge`` and the entries of ``bids`` and ``reveals``) are only ever replaced,
        never changed, so the copy may share them.
        """
        new = object.__new__(SkullState)
        new.__dict__.update(state.__dict__)
        new.hands = [list(h) for h in state.hands]
        new.stacks = [list(s) for s in state.stacks]
        new.lost = [list(cards) for cards in state.lost]
        new.successes = list(state.successes)
        new.eliminated = list(state.eliminated)
        new.skull_known = list(state.skull_known)
        new.passed = list(state.passed)
        new.bids = list(state.bids)
        new.revealed = list(state.revealed)
        new.reveals = list(state.reveals)
        new.stats = [dict(stats) for stats in state.stats]
        return new

    # --- Views ---------------------------------------------------------------------------

    def public_view(self, state: SkullState) -> JSON:
        cards = [len(h) + len(s) for h, s in zip(state.hands, state.stacks, strict=True)]
        return {
            "round": state.round,
            "phase": state.phase,
            "starter": state.starter,
            "current": state.current,
            "people": self.people(state),
            "out": [not n for n in cards],
            "eliminated": list(state.eliminated),
            "successes": list(state.successes),
            "mats": [C.FLOWER if n else C.SKULL for n in state.successes],
            "cards": cards,
            "hand_sizes": [len(h) for h in state.hands],
            "stacks": [
                {"height": len(stack), "revealed": stack[len(stack) - shown :][::-1]}
                for stack, shown in zip(state.stacks, state.revealed, strict=True)
            ],
            "placed": [bool(stack) for stack in state.stacks],
            "on_mats": self.on_mats(state),
            "skull_known": list(state.skull_known),
            "bid": state.bid,
            "bidder": state.bidder,
            "passed": list(state.passed),
            "bids": [dict(b) for b in state.bids],
            "challenger": state.challenger,
            "reveals": [dict(r) for r in state.reveals],
            "flowers_revealed": self.flowers_revealed(state),
            "last_challenge": copy_json(state.last_challenge),
            "winner": state.winner,
            "end": state.end,
        }

    def private_view(self, state: SkullState, seat: int) -> JSON:
        return {
            "hand": list(state.hands[seat]),
            "stack": list(state.stacks[seat]),
            "lost": list(state.lost[seat]),
            "has_skull": C.SKULL in state.hands[seat] or C.SKULL in state.stacks[seat],
        }

    def hidden_variant(self, state: SkullState, seat: int | None, rng: random.Random) -> SkullState:
        """Re-draw, for every other seat still in, whether it still holds its skull (unless
        that is public, see ``skull_known``), which of its cards lie unrevealed in its stack
        and which are in its hand, and which cards it lost."""
        new = self.clone(state)
        for other in range(new.seats):
            if other != seat and self.alive(new, other):
                self._redraw(new, other, rng)
        redraw_secrets(new, rng)
        return new

    def _redraw(self, state: SkullState, seat: int, rng: random.Random) -> None:
        stack, hand = state.stacks[seat], state.hands[seat]
        shown = state.revealed[seat]
        visible = stack[len(stack) - shown :]  # revealed top cards, bottom first
        hidden_in_stack = len(stack) - shown
        total = len(stack) + len(hand)
        has_skull = state.skull_known[seat]
        if has_skull is None:
            has_skull = rng.random() < 0.5
        skulls = int(has_skull)
        cards = [C.FLOWER] * (total - skulls) + [C.SKULL] * skulls
        for card in visible:
            cards.remove(card)
        rng.shuffle(cards)
        state.stacks[seat] = cards[:hidden_in_stack] + visible
        state.hands[seat] = sorted(cards[hidden_in_stack:])
        lost = C.complement(cards + visible)
        rng.shuffle(lost)
        state.lost[seat] = lost

    def determinize(self, view: JSON, rng: random.Random) -> SkullState:
        return determinize(self, view, rng)

    # --- Invariants (tests and simulate) -------------------------------------------------

    def invariants(self, state: SkullState) -> list[str]:
        problems = []
        eliminated = set(state.eliminated)
        for seat in range(state.seats):
            hand, stack = state.hands[seat], state.stacks[seat]
            owned = hand + stack + state.lost[seat]
            if sorted(owned) != FULL_SET:
                problems.append(f"seat {seat}: cards not accounted for: {owned}")
            if len(hand) > 1 and hand != sorted(hand):
                problems.append(f"seat {seat}: hand not in canonical order")
            in_game = bool(hand or stack)
            if in_game == (seat in eliminated):
                problems.append(f"seat {seat}: in the game {in_game}, eliminated list disagrees")
            known = state.skull_known[seat]
            if known is not None and known != (C.SKULL in hand or C.SKULL in stack):
                problems.append(f"seat {seat}: public skull knowledge {known} is wrong")
            if not 0 <= state.revealed[seat] <= len(stack):
                problems.append(f"seat {seat}: {state.revealed[seat]} revealed cards")
        if len(set(state.eliminated)) != len(state.eliminated):
            problems.append(f"a seat eliminated twice: {state.eliminated}")
        if any(not 0 <= n <= WINS_NEEDED for n in state.successes):
            problems.append(f"successes out of range: {state.successes}")
        winners = [s for s, n in enumerate(state.successes) if n >= WINS_NEEDED]
        alive = [s for s in range(state.seats) if self.alive(state, s)]
        if state.phase == OVER:
            problems.extend(self._end_problems(state, winners, alive))
            return problems
        if winners:
            problems.append(f"seats {winners} have two successes but the match goes on")
        people = self.people(state)
        if len(alive) < 2 or len({people[s] for s in alive}) < 2:
            problems.append("the match goes on with one person left")
        to_act = self.to_act(state)
        if state.phase == CHOOSE_STARTER:
            if state.current not in state.eliminated or any(state.stacks):
                problems.append("only a challenger just eliminated chooses the next starter")
        elif any(not self.alive(state, s) for s in to_act):
            problems.append(f"seats out of the game must act: {to_act}")
        if state.phase == PREPARE:
            if any(len(stack) > 1 for stack in state.stacks):
                problems.append("more than one card placed in the preparation step")
            expected = [s for s in alive if not state.stacks[s]]
            if to_act != expected:
                problems.append(f"to act {to_act}, but {expected} have not placed")
        if state.phase in (TURN, BID, REVEAL) and any(not state.stacks[s] for s in alive):
            problems.append("a player in the game has no card on the mat after preparation")
        if state.phase in (BID, REVEAL):
            total = self.on_mats(state)
            if state.bid is None or not 1 <= state.bid <= total:
                problems.append(f"bid {state.bid} outside 1..{total}")
            if state.bidder is None or state.passed[state.bidder]:
                problems.append("the highest bidder has passed")
            if state.phase == BID and state.current in (state.bidder, None):
                problems.append("the highest bidder is asked to bid against themselves")
        if state.phase == REVEAL:
            if state.current != state.challenger:
                problems.append("someone other than the challenger reveals")
            if any(r["card"] == C.SKULL for r in state.reveals):
                problems.append("a revealed skull did not end the challenge")
            assert state.bid is not None and state.challenger is not None
            own = min(len(state.stacks[state.challenger]), state.bid)
            if state.revealed[state.challenger] != own:
                problems.append("the challenger's own stack was not revealed first")
            if self.flowers_revealed(state) >= state.bid:
                problems.append("a successful challenge did not end")
        elif any(state.revealed):
            problems.append("cards revealed outside a challenge")
        return problems

    def _end_problems(self, state: SkullState, winners: list[int], alive: list[int]) -> list[str]:
        problems = []
        if state.end == TWO_SUCCESSES:
            if winners != [state.winner]:
                problems.append(f"winner {state.winner} but two successes for {winners}")
        elif state.end == LAST_STANDING:
            if alive != [state.winner] or winners:
                problems.append(f"last standing {state.winner}, but in the game: {alive}")
        elif state.end == LAST_PERSON_STANDING:
            people = self.people(state)
            if len({people[s] for s in alive}) != 1 or winners:
                problems.append(f"last person standing, but in the game: {alive}")
        else:
            problems.append(f"unknown end {state.end!r}")
        if any(state.stacks):
            problems.append("cards left on the mats at the end")
        return problems
