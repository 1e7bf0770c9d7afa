"""The values actions carry, the legal-action domains and the entries of every game."""

from __future__ import annotations

from api.play import actions
from api.play.queries import MAX_SEATS
from games.engine import registry
from games.engine.fibber import cards as fibber_cards
from games.engine.fibbers_dice import scores
from games.engine.skull import cards as skull_cards

from ..builders import (
    NAT,
    Schema,
    arr,
    define,
    enum,
    integer,
    obj,
    one_of,
    ref,
    string,
)
from .common import GAME_IDS, NAMES, SEAT

# --- Values that actions carry and domains list ---------------------------------------------

CLAIM = define(
    "Claim",
    string(
        'A Fab Fib claim: three digits, highest first (`"000"` … `"999"`).',
        pattern="^[0-9]{3}$",
    ),
)
RANK = enum("FibberRank", fibber_cards.RANKS, "A rank a Fibber play announces.")
CARD_NAME = enum("FibberCard", fibber_cards.NAMES, "A Fibber card as its holder sees it.")
SCORE = enum("Score", scores.SCORES, "A Fibber's Dice score id, lowest first.")
SKULL_CARD = enum("SkullCard", list(skull_cards.KINDS), "A Skull card (or the side a mat shows).")
POSITION = integer(0, 23, "A position in the caller's hand.")

# --- Legal-action domains and entries --------------------------------------------------------


def choice(name: str, values: Schema, what: str) -> Schema:
    return define(
        name,
        obj(
            {"one_of": arr(values, min_items=1)},
            description=f"Choose one value from `one_of` ({what}).",
        ),
    )


DOMAINS = {
    "claim": choice("ClaimChoice", CLAIM, "claims"),
    "rank": choice("RankChoice", RANK, "ranks"),
    "score": choice("ScoreChoice", SCORE, "scores"),
    "card": choice("SkullCardChoice", SKULL_CARD, "cards"),
    "seat": choice("SeatChoice", SEAT, "seats"),
    "positions": define(
        "PositionSubset",
        obj(
            {
                "subset_of": arr(POSITION, min_items=1, unique=True),
                "min": NAT,
                "max": NAT,
            },
            description="Choose `min` to `max` distinct values from `subset_of`, as a list.",
        ),
    ),
    "count": define(
        "CountRange",
        obj(
            {"range": arr(integer(1), min_items=2, max_items=2)},
            description="Choose a whole number from `range[0]` to `range[1]`, both included.",
        ),
    ),
}

#: action type -> {parameter: (domain, action value schema, required)}
PARAMS: dict[str, dict[str, tuple[Schema, Schema, bool]]] = {
    "claim": {"value": (DOMAINS["claim"], CLAIM, True)},
    "exchange": {
        "cards": (
            DOMAINS["positions"],
            arr(integer(0, 2), min_items=1, max_items=3, unique=True),
            True,
        )
    },
    "accept": {},
    "call": {},
    "play": {
        "cards": (
            DOMAINS["positions"],
            arr(POSITION, min_items=1, max_items=24, unique=True),
            True,
        ),
        "rank": (DOMAINS["rank"], RANK, False),
    },
    "pass": {},
    "announce": {"score": (DOMAINS["score"], SCORE, True)},
    "believe": {},
    "place": {"card": (DOMAINS["card"], SKULL_CARD, True)},
    "add": {"card": (DOMAINS["card"], SKULL_CARD, True)},
    "bid": {"count": (DOMAINS["count"], integer(1, MAX_SEATS * 4), True)},
    "reveal": {"seat": (DOMAINS["seat"], SEAT, True)},
    "choose_starter": {"seat": (DOMAINS["seat"], SEAT, True)},
}
assert set(PARAMS) == set(actions.ACTIONS), "every action type has its parameters described"


def _stem(action_type: str) -> str:
    return actions.type_component(action_type)


LEGAL: dict[str, Schema] = {}
ACTION: dict[str, Schema] = {}
for action_type, params in PARAMS.items():
    stem = _stem(action_type)
    games, description, _fields = actions.ACTIONS[action_type]
    type_ref = ref(f"{stem}Type")
    LEGAL[action_type] = define(
        f"Legal{stem}",
        obj(
            {
                "type": type_ref,
                "label": string("A short human-readable label for a button."),
                "params": obj(
                    {name: domain for name, (domain, _, need) in params.items() if need},
                    {name: domain for name, (domain, _, need) in params.items() if not need},
                    description="The domain of each parameter of the action.",
                ),
            },
            description=f"A legal `{action_type}` action. {description}",
        ),
    )
    ACTION[action_type] = define(
        f"{stem}Action",
        obj(
            {"type": type_ref, **{n: v for n, (_, v, need) in params.items() if need}},
            {n: v for n, (_, v, need) in params.items() if not need},
            description=description,
        ),
    )

LEGAL_ACTION = define(
    "LegalAction",
    {
        **one_of(LEGAL, "type"),
        "description": 'One entry of `legal_actions`: post back `{"type": …}` with a value '
        "from every parameter's domain; any such action is legal.",
    },
)
GAME_ACTIONS = {
    game: define(
        f"{NAMES[game]}Action",
        {
            **one_of(
                {t: ACTION[t] for t in actions.ACTION_TYPES if game in actions.ACTIONS[t][0]},
                "type",
            ),
            "description": f"An action of {registry.get(game).name}.",
        },
    )
    for game in GAME_IDS
}
