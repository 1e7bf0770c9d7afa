"""The engine contract shared by every game.

A game is a :class:`Rules` object: pure functions over an immutable-by-convention state.
``apply`` never changes the state it is given; it returns a :class:`Step` with a new state,
the events it produced (a public part and per-seat private parts) and the chance outcomes it
drew. An illegal action raises :class:`IllegalAction` with a reason derived only from what the
acting seat may see.

Legal actions are data: a list of entries ``{"type", "label", "params"}`` where
each parameter has a domain ``{"one_of": [...]}``, ``{"subset_of": [...], "min": a, "max": b}``
or ``{"range": [lo, hi]}``. Any action built by choosing a value from every domain of one entry
is legal, and nothing else is: validation is generic and lives here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from .errors import EngineError, IllegalAction, InvalidOptions, NotYourTurn
from .options import Option, declared
from .rng import Rng

JSON = dict[str, Any]
Action = dict[str, Any]


# --- Legal-action domains -------------------------------------------------------------


def one_of(values: Iterable[Any]) -> JSON:
    return {"one_of": list(values)}


def subset_of(values: Iterable[Any], min_size: int, max_size: int) -> JSON:
    return {"subset_of": list(values), "min": min_size, "max": max_size}


def in_range(lo: int, hi: int) -> JSON:
    return {"range": [lo, hi]}


def entry(action_type: str, label: str, **params: JSON) -> JSON:
    """One legal-action entry: the action type, a label and a domain per parameter."""
    return {"type": action_type, "label": label, "params": params}


def _same(a: Any, b: Any) -> bool:
    """Equality that does not let ``True`` pass for ``1`` or ``1`` for ``"1"``."""
    return type(a) is type(b) and a == b


def _in_values(value: Any, values: Sequence[Any]) -> bool:
    return any(_same(value, v) for v in values)


def _describe(values: Sequence[Any], limit: int = 12) -> str:
    shown = ", ".join(json.dumps(v) for v in values[:limit])
    return shown + (f", … ({len(values)} in all)" if len(values) > limit else "")


def domain_error(name: str, domain: JSON, value: Any) -> str | None:
    """Why ``value`` is outside ``domain`` (a readable sentence), or ``None`` if it is inside."""
    if "one_of" in domain:
        if _in_values(value, domain["one_of"]):
            return None
        return f"'{name}' must be one of: {_describe(domain['one_of'])}."
    if "subset_of" in domain:
        lo, hi, values = domain["min"], domain["max"], domain["subset_of"]
        if not isinstance(value, list):
            return f"'{name}' must be a list."
        if not lo <= len(value) <= hi:
            return f"'{name}' must list {lo} to {hi} items."
        for i, item in enumerate(value):
            if not _in_values(item, values):
                return f"'{name}' may only contain: {_describe(values)}."
            if _in_values(item, value[:i]):
                return f"'{name}' must not repeat an item."
        return None
    if "range" in domain:
        lo, hi = domain["range"]
        if type(value) is not int:
            return f"'{name}' must be a whole number."
        if not lo <= value <= hi:
            return f"'{name}' must be between {lo} and {hi}."
        return None
    raise ValueError(f"unknown domain {domain!r}")


def entry_error(spec: JSON, action: Action) -> str | None:
    """Why ``action`` does not fit the legal-action ``spec``, or ``None`` when it does."""
    params = spec["params"]
    unknown = sorted(set(action) - {"type"} - set(params))
    if unknown:
        return f"'{action['type']}' takes no parameter {', '.join(map(repr, unknown))}."
    for name, domain in params.items():
        if name not in action:
            return f"'{action['type']}' needs the parameter '{name}'."
        error = domain_error(name, domain, action[name])
        if error:
            return error
    return None


def check_action(specs: list[JSON], action: Any) -> None:
    """Raise :class:`IllegalAction` unless ``action`` fits one of ``specs``."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction('An action must be an object with a string "type".')
    matching = [s for s in specs if s["type"] == action["type"]]
    if not matching:
        possible = sorted({s["type"] for s in specs})
        raise IllegalAction(
            f"'{action['type']}' is not possible now; you can: {', '.join(possible)}."
        )
    errors = [entry_error(spec, action) for spec in matching]
    if any(e is None for e in errors):
        return
    raise IllegalAction(next(e for e in errors if e))


# --- Events and steps -----------------------------------------------------------------


def redact_event(
    event_type: str, public: JSON, private: Mapping[Any, JSON], seat: int | None
) -> JSON:
    """The one redaction rule of an event: its type and public part, plus the private part of
    ``seat`` only (``None``: a spectator, who gets none). ``private`` is keyed by seat, as an
    int in the engine or as text once stored."""
    out: JSON = {"type": event_type, **public}
    if seat is not None:
        part = private.get(seat, private.get(str(seat)))
        if part is not None:
            out["private"] = part
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``public`` is seen by everyone; ``private[seat]`` by one seat."""

    type: str
    public: JSON = dataclasses.field(default_factory=dict)
    private: dict[int, JSON] = dataclasses.field(default_factory=dict)

    def for_seat(self, seat: int | None) -> JSON:
        """The event as ``seat`` sees it (``None``: a spectator)."""
        return redact_event(self.type, self.public, self.private, seat)

    def to_json(self) -> JSON:
        return {
            "type": self.type,
            "public": self.public,
            "private": {str(seat): part for seat, part in sorted(self.private.items())},
        }

    @classmethod
    def from_json(cls, data: JSON) -> Event:
        private = {int(seat): part for seat, part in data.get("private", {}).items()}
        return cls(data["type"], data.get("public", {}), private)


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """The outcome of setting up a match or applying an action."""

    state: Any
    events: list[Event]
    chance: list[list[Any]]


# --- State helpers --------------------------------------------------------------------


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-shaped value (dicts, lists and scalars), much faster than deepcopy."""
    kind = type(value)
    if kind is list:
        return [copy_json(v) for v in value]
    if kind is dict:
        return {k: copy_json(v) for k, v in value.items()}
    return value


@dataclasses.dataclass
class BaseState:
    """Fields every game state has. Game states are dataclasses of JSON-native values only."""

    seats: int
    options: JSON
    seed: str
    rng_counter: int


S = TypeVar("S", bound=BaseState)


def competition_ranking(keys: Sequence[Any]) -> list[int]:
    """1-based places with ties sharing a place (1, 2, 2, 4); lower key = better place."""
    places = []
    for key in keys:
        places.append(1 + sum(1 for other in keys if other < key))
    return places


def whole_number_option(name: str, value: Any, lo: int, hi: int) -> int:
    """An option that must be a whole number from ``lo`` to ``hi``, or :class:`InvalidOptions`."""
    if type(value) is not int or not lo <= value <= hi:
        raise InvalidOptions(f"'{name}' must be a whole number from {lo} to {hi}.")
    return value


def elimination_placements(seats: int, out: Sequence[Sequence[int]]) -> list[int]:
    """Placements by reverse order of elimination: ``out`` lists the groups of seats knocked
    out together, first out first; seats never out are first, a group shares a place."""
    rank = {seat: -order for order, group in enumerate(out) for seat in group}
    return competition_ranking([rank.get(seat, -len(out) - 1) for seat in range(seats)])


def next_clockwise(seats: int, seat: int, eligible: Any) -> int:
    """The next seat clockwise from ``seat`` for which ``eligible(seat)`` holds ("next" in
    the rules always means the next seat still in the game, docs/rules.md)."""
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if eligible(candidate):
            return candidate
    raise AssertionError("no eligible seat")


def redraw_secrets(state: BaseState, rng: random.Random) -> None:
    """For ``hidden_variant``: re-draw what every state hides from everyone — the bluff
    statistics (hidden until the end) and the generator's seed and position."""
    for stats in getattr(state, "stats", []):
        for key in stats:
            stats[key] = rng.randrange(100)
    state.seed = rng.randbytes(32).hex()
    state.rng_counter = rng.randrange(1 << 20)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


# --- The rules contract ---------------------------------------------------------------


#: One statistic, or several summed (``("challenges_won", "challenges_lost")``).
StatSum: TypeAlias = str | tuple[str, ...]


def stat_total(stats: Mapping[str, int], spec: StatSum) -> int:
    """The value of ``spec`` in one seat's (or one career's) statistics; a missing key is 0."""
    keys = (spec,) if isinstance(spec, str) else spec
    return sum(int(stats.get(key, 0)) for key in keys)


#: The bluff-statistics leaderboards every game may offer: board id -> what its value is. A
#: game says which of its statistics each board divides (:attr:`Rules.bluff_boards`).
BLUFF_BOARDS: dict[str, str] = {
    "bluffer": "bluffs that stood ÷ bluffs",
    "detective": "right calls ÷ calls",
    "boldest": "bluffs ÷ claims",
}


class Rules(ABC, Generic[S]):
    """One game. Subclasses implement the hooks; the public methods are the contract."""

    game_id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    state_class: type[S]
    #: Options worth exercising in contract tests, simulations and docs (variants).
    option_examples: ClassVar[list[JSON]] = [{}]
    #: The game's options, declared once (:mod:`.options`): the engine checks them with these,
    #: the API documents and checks requests with them.
    options: ClassVar[tuple[Option, ...]] = ()
    #: What the seat count depends on, in words, where options change it (else "").
    seats_note: ClassVar[str] = ""
    #: The game's bluff boards (ids of :data:`BLUFF_BOARDS`): board -> (numerator, denominator),
    #: each a key of :meth:`stats` or a tuple of keys that are summed. A board the game's
    #: statistics cannot express is left out.
    bluff_boards: ClassVar[dict[str, tuple[StatSum, StatSum]]] = {}
    #: Every way a match of this game can end, as :meth:`end_reason` names it (docs/rules.md).
    end_reasons: ClassVar[tuple[str, ...]] = ()

    # Hooks ------------------------------------------------------------------------------

    @abstractmethod
    def normalize_options(self, seats: int, options: JSON) -> JSON:
        """Validate options for ``seats`` and fill defaults; raise :class:`InvalidOptions`."""

    @abstractmethod
    def _setup(self, seats: int, options: JSON, seed: str, rng: Rng, events: list[Event]) -> S:
        """Build the first state (deals, first player) and emit the opening events."""

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """The seats that must act now (several at once where the game needs it)."""

    @abstractmethod
    def _legal_actions(self, state: S, seat: int) -> list[JSON]:
        """Legal-action entries of a seat that must act."""

    @abstractmethod
    def _apply(self, state: S, seat: int, action: Action, rng: Rng, events: list[Event]) -> None:
        """Apply a validated action to ``state`` (a private copy), emitting events."""

    @abstractmethod
    def public_view(self, state: S) -> JSON:
        """What everybody, spectators included, may see."""

    @abstractmethod
    def private_view(self, state: S, seat: int) -> JSON:
        """What only ``seat`` may see, beyond the public view."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def end_reason(self, state: S) -> str:
        """Why a finished match ended: one of :attr:`end_reasons` (docs/rules.md)."""

    @abstractmethod
    def _placements(self, state: S) -> list[int]:
        """1-based place of every seat once the match is over (competition ranking)."""

    @abstractmethod
    def stats(self, state: S) -> list[JSON]:
        """Bluff statistics, one dict per seat (hidden by the server until the end)."""

    @abstractmethod
    def hidden_variant(self, state: S, seat: int | None, rng: random.Random) -> S:
        """A copy of ``state`` in which everything ``seat`` cannot see is re-drawn at random.

        Hands of others, the order and contents of undrawn piles, face-down discards, other
        seats' private memories and the generator's seed may all change; nothing ``seat`` can
        see or infer from what it saw may. The no-leak property tests compare views, events and
        errors across such pairs; ``seat=None`` re-draws everything hidden from spectators.
        """

    def determinize(self, view: JSON, rng: random.Random) -> S:
        """A complete state sampled to fit ``view``, a seat's view (games/engine/sample.py).

        Built from the view alone (the game's public record included), never from a real
        state: what the view shows is copied, what it hides is drawn from ``rng``. Seen from
        that seat, the result gives back exactly ``view``. Search bots (``expert``) play
        forward from such states.
        """
        raise NotImplementedError(f"{self.name} has no determinization")

    def invariants(self, state: S) -> list[str]:
        """Broken invariants of ``state`` (empty when all hold). Used by tests and simulate."""
        return []

    def explain(self, state: S, seat: int, action: Action, reason: str) -> str:
        """A friendlier reason for an illegal action; may use only what ``seat`` can see."""
        return reason

    def summary(self, state: S) -> JSON:
        """A short public summary of a finished state (for simulations and listings)."""
        return {}

    # Contract ---------------------------------------------------------------------------

    def alive(self, state: S, seat: int) -> bool:
        """Whether ``seat`` is still in the game (games that knock players out say how)."""
        return True

    def next_alive(self, state: S, seat: int) -> int:
        """The next seat clockwise from ``seat`` that is still in the game."""
        return next_clockwise(state.seats, seat, lambda s: self.alive(state, s))

    def option(self, key: str) -> Option:
        """The game's declaration of option ``key`` (:attr:`options`)."""
        return declared(self.options, key)

    def refuse_unknown_options(self, options: JSON) -> None:
        """What is left of ``options`` once the known ones were taken is refused, by name."""
        if options:
            raise InvalidOptions(
                f"Unknown option(s) for {self.name}: {', '.join(sorted(options))}."
            )

    def places(self, seats: int, options: JSON) -> list[list[int]]:
        """The seats each participant holds, participant by participant: one seat each by
        default; a game where one person plays several seats (Skull's ``two_tribes``) says
        which. The lobby fills, compacts and rates by these places."""
        return [[seat] for seat in range(seats)]

    def person_placements_of(
        self, seats: int, options: JSON, placements: Sequence[int]
    ) -> list[int]:
        """1-based place of every participant of :meth:`places`, from the seat placements: a
        participant holding several seats is ranked by their best seat's place, then the next
        (competition ranking); with one seat each these are the seat placements."""
        groups = self.places(seats, options)
        if all(len(group) == 1 for group in groups):
            return [placements[group[0]] for group in groups]
        return competition_ranking([tuple(sorted(placements[s] for s in g)) for g in groups])

    def seat_range(self, options: JSON) -> tuple[int, int]:
        """The allowed seat counts for ``options`` (some options widen the table)."""
        return self.min_seats, self.max_seats

    def check_seats(self, seats: int, options: JSON) -> None:
        lo, hi = self.seat_range(options)
        if type(seats) is not int or not lo <= seats <= hi:
            raise InvalidOptions(f"{self.name} is played by {lo} to {hi} seats, not {seats}.")

    def new_game(self, seats: int, options: JSON | None, seed: str) -> Step:
        """A new match for ``seats`` seats with ``options``, deterministic in ``seed``."""
        if not isinstance(options, dict) and options is not None:
            raise InvalidOptions("Options must be an object.")
        normalized = self.normalize_options(seats, dict(options or {}))
        rng = Rng(seed)
        events: list[Event] = []
        state = self._setup(seats, normalized, seed, rng, events)
        state.rng_counter = rng.counter
        return Step(state, events, rng.trace)

    def legal_actions(self, state: S, seat: int | None) -> list[JSON]:
        """The legal-action entries of ``seat``; empty for spectators and seats not to act."""
        if seat is None or self.is_over(state) or seat not in self.to_act(state):
            return []
        return self._legal_actions(state, seat)

    # Late entry (Fibber's Dice tournaments): a seat added to a running match ------------

    def late_entry_closed(self, state: S) -> str | None:
        """Why no seat can be added to ``state`` now (``None``: a late entrant may join).
        Games without late entry always say so."""
        return f"{self.name} takes no late entrants."

    def _add_seat(self, state: S, events: list[Event]) -> None:
        """Seat a late entrant at seat ``state.seats`` of ``state`` (a private copy)."""
        raise NotImplementedError

    def add_seat(self, state: S) -> Step:
        """A late entrant takes the next seat number (``state.seats``); ``state`` is left
        untouched. No chance is drawn; :class:`IllegalAction` when late entry is closed."""
        reason = self.late_entry_closed(state)
        if reason is not None:
            raise IllegalAction(reason)
        new = self.clone(state)
        events: list[Event] = []
        self._add_seat(new, events)
        return Step(new, events, [])

    def apply(self, state: S, seat: int, action: Any) -> Step:
        """Apply ``action`` by ``seat``; ``state`` is left untouched."""
        if self.is_over(state):
            raise NotYourTurn("The match is over.")
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise NotYourTurn("There is no such seat in this match.")
        if seat not in self.to_act(state):
            raise NotYourTurn("It is not your turn to act.")
        try:
            check_action(self._legal_actions(state, seat), action)
        except IllegalAction as error:
            raise IllegalAction(self.explain(state, seat, action, error.reason)) from None
        new = self.clone(state)
        rng = Rng(new.seed, new.rng_counter)
        events: list[Event] = []
        self._apply(new, seat, action, rng, events)
        new.rng_counter = rng.counter
        return Step(new, events, rng.trace)

    def view(self, state: S, seat: int | None) -> JSON:
        """Everything ``seat`` may know (``None``: a spectator). The only way state leaves."""
        over = self.is_over(state)
        out: JSON = {
            "game": self.game_id,
            "seats": state.seats,
            "options": state.options,
            "seat": seat,
            "to_act": [] if over else self.to_act(state),
            "over": over,
            "public": self.public_view(state),
            "private": None if seat is None else self.private_view(state, seat),
            "legal_actions": self.legal_actions(state, seat),
        }
        if over:
            out["placements"] = self.placements(state)
            out["end_reason"] = self.end_reason(state)
        return out

    def placements(self, state: S) -> list[int]:
        if not self.is_over(state):
            raise EngineError("The match is not over yet.")
        return self._placements(state)

    def to_json(self, state: S) -> JSON:
        return copy_json(vars(state))

    def from_json(self, data: JSON) -> S:
        return self.state_class(**copy_json(data))

    def clone(self, state: S) -> S:
        new = object.__new__(type(state))
        new.__dict__.update(copy_json(vars(state)))
        return new

    def state_digest(self, state: S) -> str:
        return digest(self.to_json(state))
