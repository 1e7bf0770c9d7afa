"""The response shapes of the match API as named components (see :mod:`.builders` for the
conventions): a match and its seats, lists, events, the inbox, replays, statistics and errors.

The per-game parts come from :mod:`.games`. ``COMPONENTS`` holds all of them once this module is
imported.
"""

from __future__ import annotations

from api.rest import serializers as inputs
from games.engine.replay import FORMAT, JOIN_ACTION
from games.models import Match
from games.timecontrol import TIME_CONTROLS

from . import games as g
from .builders import (
    BOOL,
    COMPONENTS,
    DATETIME,
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
    nullable,
    obj,
    one_of,
    ref,
    referenced,
    string,
)

__all__ = ["COMPONENTS"]

MATCH_STATUS = enum("MatchStatus", Match.Status.values)
VISIBILITY = enum("Visibility", Match.Visibility.values)
TIME_CONTROL = enum("TimeControl", list(TIME_CONTROLS))
BOT_LEVEL = enum("BotLevel", inputs.ALL_BOT_LEVELS)

# --- A match ---------------------------------------------------------------------------------

SEAT_OUT = define(
    "SeatOut",
    obj(
        {
            "position": g.SEAT,
            "user": nullable(
                define(
                    "PlayerOut",
                    obj(
                        {"id": integer(1), "name": string("The name other players see.")},
                        description="The person in a seat.",
                    ),
                )
            ),
            "bot_level": nullable(described(BOT_LEVEL, "Set for a bot seat.")),
            "must_act": BOOL,
            "deadline": nullable(described(DATETIME, "When this seat's decision is due.")),
            "away": boolean("A bot plays for the seat until its player acts again."),
            "place": nullable(integer(1, inputs.MAX_SEATS)),
        },
        description="A seat at the table.",
    ),
)
EVENT_OUT = define(
    "EventOut",
    obj(
        {
            "seq": integer(1, description="Sequence number: 1, 2, … with no gaps."),
            "version": NAT,
            "type": string("What happened (each game's events: docs/rules/)."),
        },
        {
            "private": obj(open=True, description="Your own part of the event, if any."),
            "by_bot": boolean(
                "A bot took this decision for a human seat (after a deadline, or while the "
                "player is marked away); a bot seat's own decisions are not marked."
            ),
        },
        open=True,
        description="An event as the caller may see it: its public fields sit next to `seq`, "
        "`version` and `type`.",
    ),
)
YOU = define(
    "YouOut",
    obj(
        {
            "seat": described(g.SEAT, "The seat you look through (see `?seat=`)."),
            "seats": g.SEATS,
        },
        description="Your seats in this match (two in Skull's two_tribes).",
    ),
)
MATCH_OUT = define(
    "MatchOut",
    obj(
        {
            "id": UUID,
            "game": g.GAME,
            "status": MATCH_STATUS,
            "version": described(NAT, "Grows by one with every applied action."),
            "visibility": VISIBILITY,
            "options": ref("MatchOptions"),
            "seat_count": integer(1, inputs.MAX_SEATS),
            "time_control": TIME_CONTROL,
            "decision_seconds": NAT,
            "created_by": nullable(integer(1)),
            "invite_code": nullable(string("Shown to the match's players.")),
            "seed_commitment": nullable(
                described(HEX64, "SHA-256 of the secret seed, revealed by the replay.")
            ),
            "seats": arr(SEAT_OUT),
            "you": nullable(YOU),
            "to_act": g.SEATS,
            "deadline": nullable(DATETIME),
            "legal_actions": arr(g.LEGAL_ACTION, description="What you may do now."),
            "view": nullable(g.GAME_VIEW),
            "placements": nullable(g.PLACEMENTS),
            "end_reason": nullable(g.MATCH_END_REASON),
            "last_seq": NAT,
            "events": arr(EVENT_OUT, description="The most recent events."),
        },
        description="Your view of a match (the spectator view if you have no seat).",
    ),
)

# --- Lists -----------------------------------------------------------------------------------


def page(name: str, item: Schema, what: str) -> Schema:
    return define(
        name,
        obj(
            {
                "count": NAT,
                "next": nullable(string(format="uri")),
                "previous": nullable(string(format="uri")),
                "results": arr(item),
            },
            description=f"A page of {what} (`?limit=` up to 200, `?offset=`).",
        ),
    )


MATCH_SUMMARY_OUT = define(
    "MatchSummaryOut",
    obj(
        {
            "id": UUID,
            "game": g.GAME,
            "status": MATCH_STATUS,
            "visibility": VISIBILITY,
            "options": ref("MatchOptions"),
            "seat_count": integer(1, inputs.MAX_SEATS),
            "filled": NAT,
            "bots": NAT,
            "time_control": TIME_CONTROL,
            "created_at": DATETIME,
            "version": NAT,
        },
        description="A match in a list: public facts only.",
    ),
)
MATCH_SUMMARY_PAGE = page("MatchSummaryPageOut", MATCH_SUMMARY_OUT, "matches")
TURN_OUT = define(
    "TurnOut",
    obj(
        {
            "match": UUID,
            "game": g.GAME,
            "seat": g.SEAT,
            "deadline": nullable(DATETIME),
            "version": NAT,
        },
        description="A seat of yours that must act.",
    ),
)
TURN_PAGE = page("TurnPageOut", TURN_OUT, "your turns, soonest deadline first")
EVENTS_OUT = define(
    "EventsOut",
    obj(
        {
            "events": arr(EVENT_OUT),
            "last_seq": NAT,
            "more": boolean("The page was cut short: ask again after the last `seq`."),
            "version": NAT,
            "status": MATCH_STATUS,
        },
        description="Your events after `after`, in order.",
    ),
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
            "seats": integer(1, inputs.MAX_SEATS),
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
        description=f"The complete record of a finished {g.registry.get(game).name} match.",
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
        description=f"A finished {g.registry.get(game).name} match after one step of its "
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
        description=f"The bluff statistics of a finished {g.registry.get(game).name} match.",
    )


MATCH_STATS_OUT = define(
    "MatchStatsOut",
    {
        **one_of(g.per_game("MatchStats", _match_stats), "game"),
        "description": "Bluff statistics of a finished match, per seat.",
    },
)

# --- Errors ----------------------------------------------------------------------------------

#: status -> (component, codes, extra detail properties, description)
ERRORS: dict[int, tuple[str, list[str], dict[str, Schema], str]] = {
    400: (
        "InvalidError",
        ["invalid", "malformed_request", "invalid_credentials"],
        {
            "fields": {
                "type": "object",
                "additionalProperties": arr(string()),
                "description": "Field path (`options.life`, `bots.0`) -> what is wrong.",
            },
            "field": string("The query parameter that is wrong."),
        },
        "The request does not fit its documented shape (`invalid`), is not JSON "
        "(`malformed_request`), or the credentials are wrong (`invalid_credentials`).",
    ),
    401: (
        "NotAuthenticatedError",
        ["not_authenticated", "authentication_failed"],
        {},
        "No token (`not_authenticated`) or a token that is not valid (`authentication_failed`).",
    ),
    403: (
        "ForbiddenError",
        ["forbidden"],
        {},
        "Not yours to do: not your seat or turn, not the host.",
    ),
    404: ("NotFoundError", ["not_found"], {}, "No such match (or not one you may see)."),
    409: (
        "ConflictError",
        ["conflict", "stale_version", "username_taken", "not_a_guest"],
        {
            "version": described(NAT, "With `stale_version`: the match's current version."),
            "status": MATCH_STATUS,
        },
        "The match or account is not in a state that allows it; `stale_version` when "
        "`expected_version` is behind.",
    ),
    413: ("PayloadTooLargeError", ["payload_too_large"], {}, "The body is over 64 KiB."),
    415: (
        "UnsupportedMediaTypeError",
        ["unsupported_media_type"],
        {},
        "The body is not `application/json`.",
    ),
    422: (
        "RefusedError",
        ["illegal_action", "invalid_options", "idempotency_key_reused"],
        {"field": string("The request field the refusal is about.")},
        "Well-formed, but the game's rules refuse it: an illegal action (the message says "
        "why), options, seats or bots the game does not allow, an Idempotency-Key reused for "
        "another request. Nothing was changed.",
    ),
    429: (
        "ThrottledError",
        ["throttled"],
        {"retry_after": integer(1, description="Seconds to wait (also `Retry-After`).")},
        "Too many requests; try again after `Retry-After` seconds.",
    ),
    503: ("UnavailableError", ["unavailable"], {}, "Try again."),
}
for status, (name, codes, details, description) in ERRORS.items():
    detail = obj(
        {"code": {"type": "string", "enum": codes}, "message": string("Human-readable.")},
        details,
        open=True,
    )
    if status == 429:
        detail["required"].append("retry_after")
    define(name, obj({"error": detail}, description=description))

assert all(
    name in COMPONENTS for schema in list(COMPONENTS.values()) for name in referenced(schema)
), "every referenced component is defined"
