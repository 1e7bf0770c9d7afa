"""The record of a finished match as named components: its replay, the replay re-run step by
step, and its bluff statistics (the per-game parts come from :mod:`.games`)."""

from __future__ import annotations

from api.play.queries import MAX_SEATS
from games.engine import registry
from games.engine.replay import FORMAT, JOIN_ACTION

from . import games as g
from .builders import (
    BOOL,
    COMPONENTS,
    HEX64,
    NAT,
    UUID,
    Schema,
    arr,
    boolean,
    define,
    described,
    enum,
    integer,
    obj,
    one_of,
    ref,
    string,
)

# --- Replay ----------------------------------------------------------------------------------

CHANCE = arr(
    {
        "oneOf": [
            string(),
            integer(),
            arr(integer()),
        ]
    },
    min_items=3,
    max_items=3,
    description='A random outcome: `[kind, bound, result]`, e.g. `["die", 6, 3]`.',
)
RECORDED_EVENT = define(
    "RecordedEvent",
    obj(
        {
            "type": string(),
            "public": obj(open=True),
            "private": {
                "type": "object",
                "additionalProperties": obj(open=True),
                "description": "Every seat's private part, by seat number.",
            },
        },
        description="An event with all its parts (hidden information included).",
    ),
)
EVENTS = arr(RECORDED_EVENT)


#: A late entrant's seat (Fibber's Dice single-round events): a step with no move.
JOIN_STEP = define(
    "ReplayJoinStep",
    obj(
        {
            "n": integer(1),
            "seat": g.SEAT,
            "action": obj({"type": enum("JoinActionType", [JOIN_ACTION["type"]])}),
            "join": define(
                "ReplayJoinFlag",
                {"type": "boolean", "enum": [True], "description": "A late entry."},
            ),
            "chance": arr(CHANCE),
            "events": EVENTS,
        },
        description="A late entrant took seat `seat` (the next seat number): re-run with the "
        "engine's add_seat, not as a move.",
    ),
)


def _replay_step(game: str) -> Schema:
    step = obj(
        {
            "n": integer(1),
            "seat": g.SEAT,
            "action": g.GAME_ACTIONS[game],
            "chance": arr(CHANCE),
            "events": EVENTS,
        },
        {"by_bot": BOOL},
        description="An action, the chance outcomes it drew and its events.",
    )
    if game != "fibbers_dice":
        return step
    return {"oneOf": [step, JOIN_STEP]}


def _replay(game: str) -> Schema:
    return obj(
        {
            "format": enum("ReplayFormat", [FORMAT]),
            "game": ref(f"{g.NAMES[game]}Game"),
            "seats": integer(1, MAX_SEATS),
            "options": g.OPTIONS[game],
            "seed": described(HEX64, "The secret seed, revealed after the end."),
            "seed_commitment": HEX64,
            "setup": obj({"chance": arr(CHANCE), "events": EVENTS}),
            "steps": arr(_replay_step(game)),
            "result": obj(
                {
                    "over": BOOL,
                    "placements": g.PLACEMENTS,
                    "stats": arr(g.STATS[game]),
                    "state_digest": HEX64,
                },
                {"end_reason": g.ENDINGS[game]},
                description="What the engine's re-run gives: every decision counted "
                "(`end_reason`: why it ended; records of older matches have none).",
            ),
        },
        {
            "attribution": arr(
                obj(
                    {"stats": g.STATS[game], "bot_stats": g.BOT_STATS[game]},
                    description="A seat's statistics split into the player's own decisions "
                    "and those a bot took for the player after a deadline (they add up to "
                    "`result.stats`). In records written by the server.",
                )
            ),
        },
        description=f"The complete record of a finished {registry.get(game).name} match.",
    )


REPLAY_OUT = define(
    "ReplayOut",
    {
        **one_of(g.per_game("Replay", _replay), "game"),
        "description": "The complete record of a finished match, hidden information included "
        "(docs/replay.md): enough to re-run it with the engine.",
    },
)

# --- Replay, step by step --------------------------------------------------------------------

SETUP_STEP = define(
    "ReplaySetupStep",
    obj(
        {"n": integer(0, 0), "chance": arr(CHANCE), "events": EVENTS},
        description="The set-up (step 0): the deal or first roll, no seat acted.",
    ),
)


def _replay_point(game: str) -> Schema:
    return obj(
        {
            "match": UUID,
            "game": ref(f"{g.NAMES[game]}Game"),
            "n": described(NAT, "The step shown: 0 is the set-up."),
            "last": described(NAT, "The record's number of steps: `n` runs from 0 to `last`."),
            "step": {
                "oneOf": [SETUP_STEP, _replay_step(game)],
                "description": "Step `n` as recorded (its seat, action and `by_bot`), with the "
                "chance outcomes and events (every private part) of the engine's re-run.",
            },
            "view": described(
                g.VIEWS[game],
                "The spectator's view after step `n` (its `to_act`: whose turn it was then).",
            ),
            "private": arr(
                g.PRIVATE[game],
                description="Every seat's private view after step `n`, by seat number (all "
                "revealed once the match has ended).",
            ),
            "legal_actions": arr(
                arr(g.LEGAL_ACTION),
                description="Every seat's legal actions after step `n`, by seat number (empty "
                "for a seat that had nothing to decide).",
            ),
            "matched": boolean(
                "The re-run gave exactly the recorded chance outcomes and events for the set-up "
                "and every step up to `n` (and, at the last step, the recorded result)."
            ),
            "differences": arr(
                string(),
                description="How the re-run differed from the record up to `n` (empty when "
                "`matched`), e.g. `step 12: events differ`.",
            ),
        },
        description=f"A finished {registry.get(game).name} match after one step of its "
        "record, re-run by the engine from the revealed seed.",
    )


REPLAY_STEP_OUT = define(
    "ReplayStepOut",
    {
        **one_of(g.per_game("ReplayStep", _replay_point), "game"),
        "description": "A finished match after step `n` of its record, re-run by the engine "
        "from the revealed seed and checked against the record (docs/replay.md).",
    },
)

# --- Statistics ------------------------------------------------------------------------------


def _match_stats(game: str) -> Schema:
    seat_stats = obj(
        {
            **COMPONENTS["SeatOut"]["properties"],
            "stats": g.STATS[game],
            "bot_stats": g.BOT_STATS[game],
        },
        description="A seat and its bluff statistics.",
    )
    return obj(
        {
            "match": UUID,
            "game": ref(f"{g.NAMES[game]}Game"),
            "placements": g.PLACEMENTS,
            "seats": arr(seat_stats),
        },
        description=f"The bluff statistics of a finished {registry.get(game).name} match.",
    )


MATCH_STATS_OUT = define(
    "MatchStatsOut",
    {
        **one_of(g.per_game("MatchStats", _match_stats), "game"),
        "description": "Bluff statistics of a finished match, per seat.",
    },
)
