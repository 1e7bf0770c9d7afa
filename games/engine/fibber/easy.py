"""Fibber's easy rules (docs/rules/fibber.md, "Easy rules").

Five rounds; each deals all cards evenly and the dealer moves one seat clockwise each round.
Every play is exactly one card. The starter of a sequence chooses any card and announces any
rank (never Wild; a Wild is never a fib); that rank is in play. The next seat clockwise that
holds cards either plays one card announcing the rank in play or calls:

- no fib: the caller takes a nose, then starts a new sequence;
- fib: the player takes that card back and a nose, then starts a new sequence.

If no other seat holds cards but the player does, the play stands and the same player plays
again, on the same rank. When every hand is empty, the next seat clockwise may call the last
card or pass (D); a caller who must then play with no card ends the round. Noses are unlimited
and score one point each; after five rounds the lowest total wins.

This is a mixin of :class:`.rules.Fibber`, which owns dealing, views and results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import JSON, Action, Event, entry, one_of, subset_of
from ..rng import Rng
from . import cards as C
from .state import LAST_CALL, PLAY, FibberState

if TYPE_CHECKING:
    _Base = Any
else:
    _Base = object


class EasyRules(_Base):
    ROUNDS = 5

    # --- Legal actions -----------------------------------------------------------------

    def _easy_legal_actions(self, state: FibberState, seat: int) -> list[JSON]:
        last = state.last_play
        if state.phase == LAST_CALL:
            assert last is not None
            what = f"seat {last['seat']}'s last card ({last['rank'].capitalize()})"
            return [
                entry("call", f"Call FIBBER! on {what}"),
                entry("pass", f"Let {what} stand: the round ends"),
            ]
        cards = subset_of(range(len(state.hands[seat])), 1, 1)
        if state.rank is None:
            actions = [
                entry(
                    "play",
                    "Start a sequence: play one card (by hand position) and announce any rank",
                    cards=cards,
                    rank=one_of(C.RANKS),
                )
            ]
        else:
            actions = [
                entry(
                    "play",
                    f"Play one card (by hand position) as {C.rank_label(state.rank)}",
                    cards=cards,
                    rank=one_of([C.RANKS[state.rank]]),
                )
            ]
        if state.can_call:
            assert last is not None
            actions.append(
                entry("call", f"Call FIBBER! on seat {last['seat']}'s {last['rank'].capitalize()}")
            )
        return actions

    def _easy_explain(
        self, state: FibberState, seat: int, action: Action, kind: str | None, reason: str
    ) -> str:
        if state.phase == LAST_CALL and kind == "play":
            return "Every hand is empty: call the last card or pass."
        if state.phase != PLAY:
            return reason
        if kind == "pass":
            return "You cannot pass: play a card" + (" or call." if state.can_call else ".")
        if kind == "call" and not state.can_call:
            if state.rank is None:
                return "You start this sequence, so there is no play to call: play a card."
            return "Nobody else holds cards, so there is nobody to answer: play again."
        if kind == "play":
            chosen = action.get("cards")
            if isinstance(chosen, list) and len(chosen) != 1:
                return (
                    "Every play in the easy rules is exactly one card:"
                    " 'cards' lists one hand position."
                )
            announced = action.get("rank")
            if announced == "wild":
                return "Wild cannot be announced; a Wild card is played as the rank you announce."
            if state.rank is not None and announced != C.RANKS[state.rank]:
                rank = C.RANKS[state.rank]
                return (
                    f'The rank in play is {C.rank_label(state.rank)}: announce "{rank}"'
                    " (any card may be played)."
                )
        return reason

    # --- Actions -------------------------------------------------------------------------

    def _easy_apply(
        self, state: FibberState, seat: int, action: Action, rng: Rng, events: list[Event]
    ) -> None:
        kind = action["type"]
        if kind == "play":
            self._easy_play(state, seat, action["cards"][0], action["rank"], events)
        elif kind == "call":
            self._easy_call(state, seat, rng, events)
        elif kind == "pass":
            self._last_play_stands(state)
            events.append(Event("pass", {"seat": seat}))
            self._end_round(state, rng, events)
        else:  # pragma: no cover - check_action admits only the types above
            raise AssertionError(kind)

    def _last_play_stands(self, state: FibberState) -> None:
        last = state.last_play
        assert last is not None
        if C.is_fib(state.pile[-1:], C.RANKS.index(last["rank"])):
            state.stats[last["seat"]]["fibs_stood"] += 1

    def _easy_play(
        self, state: FibberState, seat: int, position: int, rank: str, events: list[Event]
    ) -> None:
        if state.can_call:  # answering by playing: the previous play stands
            self._last_play_stands(state)
        lead = state.rank is None
        announced = C.RANKS.index(rank)
        played = self._take_cards(state, seat, [position])
        state.pile.extend(played)
        stats = state.stats[seat]
        stats["plays"] += 1
        if C.is_fib(played, announced):  # a Wild is never a fib
            stats["fibs"] += 1
        state.plays += 1
        state.rank = announced
        state.last_play = {"seat": seat, "count": 1, "rank": rank}
        state.pile_plays.append(dict(state.last_play))
        answer = self._next_holder(state, seat)
        if answer is not None:
            state.turn, state.can_call = answer, True
        elif state.hands[seat]:
            # Nobody else holds cards: the play stands and the same player plays again.
            self._last_play_stands(state)
            state.turn, state.can_call = seat, False
        else:
            # Every hand is empty: the next seat clockwise may call the last card or pass.
            state.phase = LAST_CALL
            state.turn, state.can_call = (seat + 1) % state.seats, False
        events.append(
            Event(
                "play",
                {
                    **state.last_play,
                    "lead": lead,
                    "hand_size": len(state.hands[seat]),
                    "next": state.turn,
                },
                {seat: {"cards": C.names(played)}},
            )
        )

    def _next_holder(self, state: FibberState, seat: int) -> int | None:
        """The next seat clockwise, other than ``seat``, that holds cards."""
        for step in range(1, state.seats):
            other = (seat + step) % state.seats
            if state.hands[other]:
                return other
        return None

    def _easy_call(self, state: FibberState, seat: int, rng: Rng, events: list[Event]) -> None:
        last = state.last_play
        assert last is not None and state.rank is not None
        player, card = last["seat"], state.pile[-1]
        fib = C.is_fib([card], state.rank)
        state.stats[seat]["calls"] += 1
        private: dict[int, JSON] = {}
        if fib:
            state.stats[seat]["calls_right"] += 1
            state.stats[player]["fibs_called"] += 1
            state.pile.pop()  # the fibber takes that card back
            state.pile_plays.pop()
            state.hands[player] = sorted([*state.hands[player], card])
            private[player] = {"taken_back": C.name(card)}
        loser = player if fib else seat
        state.noses[loser] += 1  # noses are unlimited in the easy rules
        state.stats[loser]["noses_taken"] += 1
        state.last_call = {
            "round": state.deal,
            "caller": seat,
            "player": player,
            "count": 1,
            "rank": last["rank"],
            "fib": fib,
            "cards": None if fib else [C.name(card)],
            "loser": loser,
            "nose": "plain",
        }
        events.append(Event("call", {**state.last_call, "noses": list(state.noses)}, private))
        state.can_call = False
        if state.hands[loser]:
            # The one who took the nose starts a new sequence with any card and any rank.
            state.phase, state.turn, state.rank = PLAY, loser, None
        else:
            self._end_round(state, rng, events)  # a caller with no card to play (D)

    def _end_round(self, state: FibberState, rng: Rng, events: list[Event]) -> None:
        state.scores = [a + b for a, b in zip(state.scores, state.noses, strict=True)]
        events.append(
            Event(
                "round_over",
                {"round": state.deal, "noses": list(state.noses), "scores": list(state.scores)},
            )
        )
        state.noses = [0] * state.seats
        if state.deal >= self.ROUNDS:
            self._finish(state, "rounds", events)
        else:
            self._deal(state, (state.dealer + 1) % state.seats, rng, events)
