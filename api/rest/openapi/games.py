"""What depends on the game, as schema components: options, actions, legal-action entries and
their domains, the public and private parts of a view, statistics.

Built from the engines' own constants (claims, ranks, scores, stat keys, option bounds), and
checked against real views of random matches of every game and variant by
``tests/api/test_openapi_views.py``.
"""

from __future__ import annotations

from typing import Any

from api.rest import serializers as inputs
from games.engine import registry
from games.engine.fabfib import rules as fabfib
from games.engine.fibber import cards as fibber_cards
from games.engine.fibber import state as fibber
from games.engine.fibbers_dice import rules as dice
from games.engine.fibbers_dice import scores
from games.engine.skull import cards as skull_cards
from games.engine.skull import rules as skull

from .builders import (
    BOOL,
    NAT,
    Schema,
    arr,
    boolean,
    define,
    described,
    enum,
    integer,
    nullable,
    obj,
    one_of,
    ref,
    string,
)

NAMES = inputs.GAME_COMPONENT  # game id -> component stem ("fibbers_dice" -> "FibbersDice")
GAME_IDS = registry.game_ids()

SEAT = define(
    "Seat", integer(0, inputs.SEAT_MAX, "A seat position: 0 is the first seat, clockwise.")
)
SEATS = arr(SEAT)
PLACE = integer(1, inputs.MAX_SEATS)
PLACEMENTS = arr(PLACE, description="1-based place of every seat; ties share a place.")
#: Why a finished match of each game ended (the engine's vocabulary, docs/rules.md).
ENDINGS = {
    game: enum(
        f"{NAMES[game]}Ending",
        registry.get(game).end_reasons,
        f"Why a {registry.get(game).name} match ended (docs/rules.md).",
    )
    for game in GAME_IDS
}
#: A match's end reason: a game's own once it finished, the server's when it was aborted
#: (``completed``: finished before matches recorded the game's reason).
MATCH_END_REASON = enum(
    "EndReason",
    [
        *dict.fromkeys(r for game in GAME_IDS for r in registry.get(game).end_reasons),
        "abandoned",
        "aborted_by_staff",
        "completed",
    ],
    "Why the match ended: the game's own reason when it finished (`silver_nose`, "
    "`last_alive` …, docs/rules.md), `abandoned` (a lobby left empty) or `aborted_by_staff` "
    "when it was aborted; `completed` for a match that finished before this was recorded.",
)

GAME = enum("Game", GAME_IDS, "A game id.")
for game in GAME_IDS:
    enum(f"{NAMES[game]}Game", [game])
for action_type in inputs.ACTION_TYPES:
    enum(f"{inputs.type_component(action_type)}Type", [action_type])

# --- Options (as a match stores them: normalized, every key present) -------------------------

FIBBER_VARIANT = enum("FibberVariant", list(fibber.VARIANTS))
OPTIONS = {
    "fabfib": define(
        "FabfibOptions",
        obj({"life": integer(1, 30, "Starting life.")}, description="Fab Fib options."),
    ),
    "fibber": define(
        "FibberOptions",
        one_of(
            {
                fibber.STANDARD: define(
                    "FibberStandardOptions",
                    obj(
                        {
                            "variant": enum("FibberStandard", [fibber.STANDARD]),
                            "max_plays": integer(*fibber.MAX_PLAYS_RANGE),
                        },
                        description="Fibber, standard rules.",
                    ),
                ),
                fibber.EASY: define(
                    "FibberEasyOptions",
                    obj(
                        {"variant": enum("FibberEasy", [fibber.EASY])},
                        description="Fibber, easy rules.",
                    ),
                ),
            },
            "variant",
        ),
    ),
    "fibbers_dice": define(
        "FibbersDiceOptions",
        obj(
            {"points": integer(dice.MIN_POINTS, dice.MAX_POINTS, "Starting points.")},
            {
                "event": enum(
                    "FibbersDiceEvent",
                    dice.EVENT_KINDS,
                    "A round of an event (docs/events.md), set by the event: `single` takes "
                    "late entrants, `round` seats up to 64.",
                )
            },
            description="Fibber's Dice options.",
        ),
    ),
    "skull": define(
        "SkullOptions",
        obj(
            {key: boolean() for key in skull.OPTION_KEYS},
            description="Skull options.",
        ),
    ),
}
define(
    "MatchOptions",
    {
        "oneOf": [
            ref("FabfibOptions"),
            ref("FibberStandardOptions"),
            ref("FibberEasyOptions"),
            ref("FibbersDiceOptions"),
            ref("SkullOptions"),
        ],
        "description": "The match's options, normalized (every option present); which game's "
        "they are is the match's `game`.",
    },
)

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
    "bid": {"count": (DOMAINS["count"], integer(1, inputs.MAX_SEATS * 4), True)},
    "reveal": {"seat": (DOMAINS["seat"], SEAT, True)},
    "choose_starter": {"seat": (DOMAINS["seat"], SEAT, True)},
}
assert set(PARAMS) == set(inputs.ACTIONS), "every action type has its parameters described"


def _stem(action_type: str) -> str:
    return inputs.type_component(action_type)


LEGAL: dict[str, Schema] = {}
ACTION: dict[str, Schema] = {}
for action_type, params in PARAMS.items():
    stem = _stem(action_type)
    games, description, _fields = inputs.ACTIONS[action_type]
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
                {t: ACTION[t] for t in inputs.ACTION_TYPES if game in inputs.ACTIONS[t][0]},
                "type",
            ),
            "description": f"An action of {registry.get(game).name}.",
        },
    )
    for game in GAME_IDS
}

# --- Fab Fib ---------------------------------------------------------------------------------

FABFIB_CARD = define(
    "FabfibCard",
    obj({"digit": integer(0, 9), "skulls": integer(1, 3)}, description="A Fab Fib card."),
)
THREE_CARDS = arr(FABFIB_CARD, min_items=3, max_items=3)
REVEAL_CALL = enum("RevealCall", ["call"])
fabfib_reveal = one_of(
    {
        "call": define(
            "FabfibCallReveal",
            obj(
                {
                    "kind": REVEAL_CALL,
                    "round": NAT,
                    "caller": SEAT,
                    "claimant": SEAT,
                    "claim": CLAIM,
                    "cards": THREE_CARDS,
                    "true": boolean("Whether the claim was true."),
                    "loser": SEAT,
                    "damage": NAT,
                },
                description="A call: the cards were revealed.",
            ),
        ),
        "thousand": define(
            "FabfibThousandReveal",
            obj(
                {
                    "kind": enum("RevealThousand", ["thousand"]),
                    "round": NAT,
                    "seat": SEAT,
                    "moment": enum("FabfibThousandMoment", ["draw", "accept", "exchange"]),
                    "cards": THREE_CARDS,
                    "damage": NAT,
                    "victims": SEATS,
                },
                description="Three zeros, the special 1000: revealed the moment they are held.",
            ),
        ),
    },
    "kind",
)
define("FabfibReveal", fabfib_reveal)
FABFIB_PUBLIC = define(
    "FabfibPublic",
    obj(
        {
            "round": NAT,
            "phase": enum("FabfibPhase", [fabfib.CLAIM, fabfib.RESPOND, fabfib.OVER]),
            "life": arr(NAT),
            "out": arr(BOOL),
            "holder": SEAT,
            "responder": nullable(SEAT),
            "claim": nullable(CLAIM),
            "claims": arr(
                obj(
                    {"seat": SEAT, "exchanged": integer(0, 3)},
                    {"claim": CLAIM},
                    description="A turn of this round: who held the hand, how many cards "
                    "they exchanged, and their claim once made.",
                )
            ),
            "may_exchange": BOOL,
            "draw_pile": NAT,
            "discard_pile": NAT,
            "eliminated": arr(SEATS, description="Seats out, in groups, in order."),
            "last_reveal": nullable(ref("FabfibReveal")),
        },
        description="What everyone sees of a Fab Fib match.",
    ),
)
FABFIB_PRIVATE = define(
    "FabfibPrivate",
    obj(
        {
            "hand": nullable(described(THREE_CARDS, "The hand, while you hold it and must claim.")),
            "memory": nullable(
                define(
                    "FabfibMemory",
                    obj(
                        {
                            "cards": THREE_CARDS,
                            "round": NAT,
                            "claim": CLAIM,
                            "possibly_changed": BOOL,
                        },
                        description="The last three cards you passed on, and your claim.",
                    ),
                )
            ),
        },
        description="What only you see of a Fab Fib match.",
    ),
)

# --- Fibber ----------------------------------------------------------------------------------

FIBBER_PLAY = define(
    "FibberPlay", obj({"seat": SEAT, "count": integer(1, 24), "rank": RANK}, description="A play.")
)
FIBBER_NOSE = enum("FibberNose", ["plain", "silver"])
_call_common = {
    "caller": SEAT,
    "player": SEAT,
    "count": integer(1, 24),
    "rank": RANK,
    "fib": boolean("Whether the play was a fib."),
    "cards": nullable(arr(CARD_NAME, description="The cards of a true play (a fib is not shown).")),
    "loser": SEAT,
    "nose": FIBBER_NOSE,
}
_fibber_common = {
    "dealer": SEAT,
    "turn": nullable(SEAT),
    "last_play": nullable(FIBBER_PLAY),
    "hand_sizes": arr(NAT),
    "pile": NAT,
    "pile_plays": arr(FIBBER_PLAY),
    "set_aside": NAT,
    "noses": arr(NAT),
    "plays": NAT,
}
FIBBER_STANDARD_PUBLIC = define(
    "FibberStandardPublic",
    obj(
        {
            "variant": ref("FibberStandard"),
            "phase": enum("FibberStandardPhase", [fibber.PLAY, fibber.CALL, fibber.OVER]),
            **_fibber_common,
            "last_call": nullable(
                define(
                    "FibberStandardCall",
                    obj(
                        {"deal": NAT, **_call_common, "pile_taken": NAT},
                        description="The outcome of the latest call.",
                    ),
                )
            ),
            "deal": NAT,
            "silver_nose_rank": nullable(RANK),
            "silver_nose": nullable(SEAT),
            "table_noses": NAT,
            "nose_counts": arr(NAT),
            "waiting": SEATS,
            "passed": SEATS,
            "max_plays": integer(*fibber.MAX_PLAYS_RANGE),
            "end_reason": nullable(enum("FibberEndReason", ["silver_nose", "max_plays"])),
            "called": arr(
                arr(NAT, min_items=2, max_items=2),
                description="Per seat: how many of its plays were called in this match, and "
                "how many of those were fibs.",
            ),
        },
        description="What everyone sees of a Fibber match (standard rules).",
    ),
)
FIBBER_EASY_PUBLIC = define(
    "FibberEasyPublic",
    obj(
        {
            "variant": ref("FibberEasy"),
            "phase": enum("FibberEasyPhase", [fibber.PLAY, fibber.LAST_CALL, fibber.OVER]),
            **_fibber_common,
            "last_call": nullable(
                define(
                    "FibberEasyCall",
                    obj({"round": NAT, **_call_common}, description="The latest call."),
                )
            ),
            "round": NAT,
            "rounds": NAT,
            "rank_in_play": nullable(RANK),
            "can_call": BOOL,
            "scores": arr(NAT),
            "totals": arr(NAT),
        },
        description="What everyone sees of a Fibber match (easy rules).",
    ),
)
FIBBER_PUBLIC = define(
    "FibberPublic",
    one_of({fibber.STANDARD: FIBBER_STANDARD_PUBLIC, fibber.EASY: FIBBER_EASY_PUBLIC}, "variant"),
)
FIBBER_PRIVATE = define(
    "FibberPrivate",
    obj(
        {"hand": arr(CARD_NAME, description="Your cards, sorted by rank.")},
        description="What only you see of a Fibber match.",
    ),
)

# --- Fibber's Dice ---------------------------------------------------------------------------

DICE = arr(integer(1, 6), min_items=2, max_items=2, description="Two dice, high die first.")
_reveal_common = {
    "sequence": NAT,
    "seat": described(SEAT, "The announcer."),
    "score": SCORE,
    "dice": DICE,
    "shown": SCORE,
    "true": boolean("Whether the dice showed at least the announcement."),
    "loser": SEAT,
}
define(
    "FibbersDiceReveal",
    one_of(
        {
            "max": define(
                "FibbersDiceMaxReveal",
                obj(
                    {"kind": enum("RevealMax", ["max"]), **_reveal_common},
                    description="Max was announced: the dice were shown at once.",
                ),
            ),
            "call": define(
                "FibbersDiceCallReveal",
                obj(
                    {"kind": REVEAL_CALL, **_reveal_common, "caller": SEAT},
                    description="A call: the dice were shown.",
                ),
            ),
        },
        "kind",
    ),
)
DICE_PUBLIC = define(
    "FibbersDicePublic",
    obj(
        {
            "sequence": NAT,
            "phase": enum("FibbersDicePhase", [dice.ANNOUNCE, dice.RESPOND, dice.OVER]),
            "points": arr(NAT),
            "out": arr(BOOL),
            "starter": SEAT,
            "current": nullable(SEAT),
            "announcement": nullable(SCORE),
            "announcer": nullable(SEAT),
            "announcements": arr(obj({"seat": SEAT, "score": SCORE})),
            "eliminated": SEATS,
            "last_reveal": nullable(ref("FibbersDiceReveal")),
            "score_order": arr(SCORE, description="Every score, lowest first."),
        },
        {
            "late_entry_open": boolean(
                "Single-round event matches only: a late entrant may still join."
            )
        },
        description="What everyone sees of a Fibber's Dice match.",
    ),
)
DICE_PRIVATE = define(
    "FibbersDicePrivate",
    obj(
        {
            "roll": nullable(
                define(
                    "FibbersDiceRoll",
                    obj({"dice": DICE, "score": SCORE}, description="Your roll."),
                )
            )
        },
        description="What only you see of a Fibber's Dice match.",
    ),
)

# --- Skull -----------------------------------------------------------------------------------

SKULL_CARDS = arr(SKULL_CARD)
SKULL_REVEAL = define("SkullReveal", obj({"seat": SEAT, "card": SKULL_CARD}))
SKULL_PUBLIC = define(
    "SkullPublic",
    obj(
        {
            "round": NAT,
            "phase": enum(
                "SkullPhase",
                [
                    skull.PREPARE,
                    skull.TURN,
                    skull.BID,
                    skull.REVEAL,
                    skull.CHOOSE_STARTER,
                    skull.OVER,
                ],
            ),
            "starter": SEAT,
            "current": nullable(SEAT),
            "people": arr(NAT, description="The person playing each seat (two_tribes)."),
            "out": arr(BOOL),
            "eliminated": SEATS,
            "successes": arr(integer(0, skull.WINS_NEEDED)),
            "mats": arr(SKULL_CARD, description="The side each mat shows."),
            "cards": arr(integer(0, skull_cards.CARDS_PER_PLAYER)),
            "hand_sizes": arr(integer(0, skull_cards.CARDS_PER_PLAYER)),
            "stacks": arr(
                obj(
                    {
                        "height": integer(0, skull_cards.CARDS_PER_PLAYER),
                        "revealed": arr(SKULL_CARD, description="Revealed cards, top first."),
                    }
                )
            ),
            "placed": arr(BOOL),
            "on_mats": NAT,
            "skull_known": arr(
                nullable(boolean("Whether the seat still holds its skull; null: unknown."))
            ),
            "bid": nullable(integer(1)),
            "bidder": nullable(SEAT),
            "passed": arr(BOOL),
            "bids": arr(
                {
                    "oneOf": [
                        obj({"seat": SEAT, "count": integer(1)}, description="A bid."),
                        obj({"seat": SEAT, "pass": BOOL}, description="A pass."),
                    ]
                }
            ),
            "challenger": nullable(SEAT),
            "reveals": arr(SKULL_REVEAL),
            "flowers_revealed": NAT,
            "last_challenge": nullable(
                define(
                    "SkullChallenge",
                    obj(
                        {
                            "round": NAT,
                            "challenger": SEAT,
                            "bid": integer(1),
                            "success": BOOL,
                            "skull_owner": nullable(SEAT),
                            "reveals": arr(SKULL_REVEAL),
                        },
                        description="The outcome of the previous challenge.",
                    ),
                )
            ),
            "winner": nullable(SEAT),
            "end": nullable(
                enum(
                    "SkullEnd",
                    [skull.TWO_SUCCESSES, skull.LAST_STANDING, skull.LAST_PERSON_STANDING],
                )
            ),
        },
        description="What everyone sees of a Skull match.",
    ),
)
SKULL_PRIVATE = define(
    "SkullPrivate",
    obj(
        {
            "hand": SKULL_CARDS,
            "stack": described(SKULL_CARDS, "Your stack, bottom card first."),
            "lost": SKULL_CARDS,
            "has_skull": BOOL,
        },
        description="What only you see of a Skull match.",
    ),
)

# --- Views -----------------------------------------------------------------------------------

PUBLIC = {
    "fabfib": FABFIB_PUBLIC,
    "fibber": FIBBER_PUBLIC,
    "fibbers_dice": DICE_PUBLIC,
    "skull": SKULL_PUBLIC,
}
PRIVATE = {
    "fabfib": FABFIB_PRIVATE,
    "fibber": FIBBER_PRIVATE,
    "fibbers_dice": DICE_PRIVATE,
    "skull": SKULL_PRIVATE,
}
VIEWS = {
    game: define(
        f"{NAMES[game]}View",
        obj(
            {
                "game": ref(f"{NAMES[game]}Game"),
                "seats": integer(1, inputs.MAX_SEATS),
                "options": OPTIONS[game],
                "seat": nullable(described(SEAT, "Whose eyes this is (null: a spectator).")),
                "to_act": SEATS,
                "over": BOOL,
                "public": PUBLIC[game],
                "private": nullable(described(PRIVATE[game], "Null for a spectator.")),
            },
            {"placements": PLACEMENTS, "end_reason": ENDINGS[game]},
            description=f"A {registry.get(game).name} view: what the caller may know.",
        ),
    )
    for game in GAME_IDS
}
GAME_VIEW = define(
    "GameView",
    {
        **one_of({game: VIEWS[game] for game in GAME_IDS}, "game"),
        "description": "The engine's view of the match for the caller (its `legal_actions` are "
        "the match's). `placements` and `end_reason` once it is over.",
    },
)

# --- Statistics ------------------------------------------------------------------------------

STAT_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # game -> (keys every match has, keys only some variants have)
    "fabfib": (fabfib.STAT_KEYS, ()),
    "fibber": (fibber.EASY_STAT_KEYS, tuple(set(fibber.STAT_KEYS) - set(fibber.EASY_STAT_KEYS))),
    "fibbers_dice": (dice.STAT_KEYS, ()),
    "skull": (skull.STAT_KEYS, ()),
}
STATS = {
    game: define(
        f"{NAMES[game]}Stats",
        obj(
            {key: NAT for key in keys},
            {key: NAT for key in sorted(extra)},
            description=f"{registry.get(game).name} bluff statistics of one seat.",
        ),
    )
    for game, (keys, extra) in STAT_KEYS.items()
}
BOT_STATS = {
    game: define(
        f"{NAMES[game]}BotStats",
        obj(
            None,
            {key: NAT for key in (*keys, *sorted(extra))},
            description="What bots did for this seat after its deadlines passed (only the "
            "counts that grew).",
        ),
    )
    for game, (keys, extra) in STAT_KEYS.items()
}


def per_game(stem: str, build: Any) -> dict[str, Schema]:
    """``{game: ref}`` of a component ``<Game><stem>`` built by ``build(game)`` for each game."""
    return {game: define(f"{NAMES[game]}{stem}", build(game)) for game in GAME_IDS}
