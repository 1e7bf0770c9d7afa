"""The server against its own OpenAPI schema, with every schemathesis check.

This runs schemathesis' engine in-process on the WSGI app, exactly as
``st run /api/schema/ --checks all --mode all`` would against a server: the examples, coverage,
fuzzing and
stateful phases, positive and negative data, and all the checks of the installed version
(``not_a_server_error``, ``status_code_conformance``, ``content_type_conformance``,
``response_headers_conformance``, ``response_schema_conformance``, ``positive_data_acceptance``,
``negative_data_rejection``, ``missing_required_header``, ``unsupported_method``,
``allow_header_conformance``, ``use_after_free``, ``ensure_resource_availability``,
``ignored_auth``, ``object_level_authorization``), plus one check of ours that keeps the few
allowed refusals of valid-looking data honest. Any failure fails the test, with the
reproduction.

(Schemathesis' pytest plugin does not run under pytest 9, and the engine covers more than the
plugin would: the coverage phase's unexpected methods and missing headers, and stateful
sequences following the links it infers from the schema.)

Examples per operation are bounded by ``SCHEMATHESIS_EXAMPLES`` (default 20). The run is split
in two tests (examples+coverage, fuzzing+stateful) so that ``-n 2`` runs them side by side.
"""

from __future__ import annotations

import os
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from django.conf import settings
from django.db import close_old_connections, connections
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.engine import Status
from schemathesis.engine import events as ev
from schemathesis.transport.wsgi import WSGITransport

from accounts.models import User
from accounts.services import token_issue, user_register
from api.play.accounts import REFUSED_CATEGORIES

from .helpers import Player

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "20"))
#: A full account (username, password) that exists when the run starts.
LOGIN = ("fuzz-player", "correct horse battery 7")

#: Schemathesis 4's defaults for positive_data_acceptance (what a valid request may answer),
#: without its 5xx: a server error is never fine here (not_a_server_error says so too).
POSITIVE_OK = ["2xx", "3xx", "401", "403", "404", "409", "429"]

#: Where valid-looking data may truly be refused, and why. A schema says which requests are
#: well formed; these refusals depend on more than the request's shape, so the check's
#: assumption ("valid data is accepted") does not hold for them. Each is allowed for its
#: operation only, and ``refusals_are_the_documented_ones`` below checks that every such
#: refusal is exactly the documented kind (not some other 400 or 422 hiding behind it).
EXPECTED_REFUSALS: dict[str, dict[int, str]] = {
    # Credentials that look right but belong to nobody: 400 invalid_credentials.
    "auth_login": {400: "invalid_credentials"},
    # Django's password validators (common passwords, similarity to the username, all
    # digits …) cannot be written as a schema; and display names refuse the few format and
    # private-use characters beyond the BMP that a portable pattern cannot name.
    "auth_register": {400: "password or display_name policy"},
    "auth_upgrade": {400: "password or display_name policy"},
    "auth_guest_create": {400: "display_name policy"},
    # A password (or a guest's own token) that does not confirm: 400 invalid_credentials; a
    # new password is judged by the same validators as at registration.
    "me_destroy": {400: "invalid_credentials"},
    "me_password_change": {400: "invalid_credentials or the password policy"},
    # What one field means for another (bots that fit the table, solo is you and bots,
    # decision_seconds per time control, Skull's seat counts per option): 422 invalid_options.
    "matches_create": {422: "invalid_options"},
    # The same for a tournament's rounds: decision_seconds per time control.
    "tournaments_create": {422: "invalid_options"},
    # A well-formed action the game's rules do not allow right now: 422 illegal_action (or an
    # Idempotency-Key reused for another request: 422 idempotency_key_reused).
    "matches_actions_create": {422: "illegal_action"},
    # A challenge's or a ticket's options and players judged against the game (seat counts,
    # a player named twice): 422 invalid_options; a challenge's options are a free object
    # whose keys the input guard reads as text (no NUL, no lone surrogate): 400 invalid.
    "challenges_create": {422: "invalid_options", 400: "options keys"},
    "queue_create": {422: "invalid_options"},
    # Any player id fits the schema, the caller's own too: nobody follows or blocks themselves.
    "blocks_create": {422: "invalid_options"},
    "follows_create": {422: "invalid_options"},
    # URLs a schema's `uri` format admits but Django's URL validation does not, and keys that
    # must decode as base64url P-256 points: 400 invalid on those fields.
    "webhooks_create": {400: "url"},
    "push_subscriptions_create": {400: "endpoint or keys"},
    # Time zones the server knows (its tz database), quiet hours both set or both null.
    "notification_preferences_update": {400: "time_zone or quiet hours"},
}
#: The fields whose values a schema admits and the server may still refuse (400 invalid).
FIELD_REFUSALS: dict[str, set[str]] = {
    "webhooks_create": {"url"},
    "push_subscriptions_create": {"endpoint", "keys"},
    "notification_preferences_update": {"time_zone", "quiet_start", "quiet_end"},
}
#: replay and stats are 404 until a match has finished (docs/api.md: hidden until it ends), so a
#: match just created by ``POST /api/matches/`` is rightly "not found" there: the assumption of
#: ``ensure_resource_availability`` (a created resource is at once readable at every path below
#: it) does not fit these two operations; it stays on for every other one.
NOT_YET_AVAILABLE = ["matches_replay_retrieve", "matches_stats_retrieve"]


def _astral_refused(text: Any) -> bool:
    return isinstance(text, str) and any(
        ord(c) > 0xFFFF and unicodedata.category(c) in REFUSED_CATEGORIES for c in text
    )


@schemathesis.check
def refusals_are_the_documented_ones(ctx: Any, response: Any, case: Any) -> None:
    """A valid request refused with a status allowed in ``EXPECTED_REFUSALS`` must be refused
    for exactly the documented reason."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    operation_id = case.operation.definition.raw.get("operationId")
    allowed = EXPECTED_REFUSALS.get(operation_id, {})
    if response.status_code not in allowed:
        return
    error = response.json()["error"]
    body = case.body if isinstance(case.body, dict) else {}
    fields = set(error.get("fields", {}))
    if operation_id in ("auth_login", "me_destroy"):
        assert error["code"] == "invalid_credentials", error
    elif operation_id == "me_password_change":
        assert error["code"] == "invalid_credentials" or set(error["fields"]) == {"new_password"}, (
            error
        )
    elif operation_id in ("matches_create", "tournaments_create"):
        assert error["code"] == "invalid_options", error
    elif operation_id in ("blocks_create", "follows_create"):  # the caller's own id
        assert error["code"] == "invalid_options" and error["field"] == "player", error
    elif operation_id == "matches_actions_create":
        assert error["code"] in ("illegal_action", "idempotency_key_reused"), error
    elif operation_id in ("challenges_create", "queue_create"):
        if response.status_code == 422:
            assert error["code"] == "invalid_options", error
        else:
            assert error["code"] == "invalid" and error["field"].startswith("options."), error
    elif operation_id in FIELD_REFUSALS:
        assert error["code"] == "invalid", error
        fields = set(error.get("fields", {})) or {error.get("field")}
        assert fields <= FIELD_REFUSALS[operation_id], (error, body)
    else:
        assert error["code"] == "invalid", error
        policy = {"display_name"} if _astral_refused(body.get("display_name")) else set()
        if operation_id != "auth_guest_create":
            policy.add("password")
        assert fields and fields <= policy, (error, body)


@dataclass
class World:
    """What the run starts from: a player (whose token every request carries) with matches in
    every state, and their ids for schemathesis to use next to the ids it makes up."""

    user: User
    match_ids: list[str] = field(default_factory=list)
    invite_codes: list[str] = field(default_factory=list)


@pytest.fixture
def world(transactional_db: Any, monkeypatch: pytest.MonkeyPatch) -> World:
    """The requests go to the real WSGI app, from the engine's threads: the data must be
    committed (transactional_db). Throttles are raised so that the logic behind them is what
    gets tested (their 429 has its own tests in test_auth.py)."""
    # Schemathesis 4.32's WSGI transport drops socket-level settings (max_redirects, verify …)
    # only for requests sent with a session; the probes of `ignored_auth` have none and crash
    # werkzeug with `max_redirects`. Drop them for every request, as its own code intends.
    original = WSGITransport.send

    def send(self: Any, case: Any, *, session: Any = None, **kwargs: Any) -> Any:
        for name in ("max_redirects", "verify", "cert", "proxies"):
            kwargs.pop(name, None)
        return original(self, case, session=session, **kwargs)

    monkeypatch.setattr(WSGITransport, "send", send)
    # The engine sends requests from its own worker threads, which Django gives connections of
    # their own; without persistent connections each is closed when its request ends, so none
    # outlives the test (PostgreSQL refuses to drop a test database still in use).
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    # A generated `wait` would hold a feed request up to 30 s; the long-poll has its own tests.
    monkeypatch.setitem(settings.FIBSERVER, "MAX_WAIT_SECONDS", 0.05)
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {scope: "100000/min" for scope in ("guest", "register", "login", "actions")},
    )
    me, second, third = Player("Me"), Player("Second"), Player("Third")
    world = World(user=me.user)
    active = me.create(game="fabfib", seats=3)
    for other in (second, third):
        other.post(f"/api/matches/{active['id']}/join/")
    solo = me.create(game="skull", seats=3, bots=["random", "random"], time_control="solo")
    lobby = me.create(game="fibbers_dice", seats=6)
    open_lobby = second.create(game="fibber", seats=4, options={"variant": "easy"})
    private = third.create(
        game="skull", seats=6, visibility="private", options={"two_tribes": True}
    )
    finished = me.create(game="fibber", seats=2, bots=["random", "random"], join=False)
    world.match_ids = [m["id"] for m in (active, solo, lobby, open_lobby, private, finished)]
    user_register(username=LOGIN[0], password=LOGIN[1])
    world.invite_codes = [private["invite_code"], lobby["invite_code"]]
    return world


def config(world: World, phases: list[str]) -> schemathesis.Config:
    operations: list[dict[str, Any]] = []
    for operation_id, refusals in EXPECTED_REFUSALS.items():
        statuses = POSITIVE_OK + [str(status) for status in refusals]
        operations.append(
            {
                "include-operation-id": operation_id,
                "checks": {"positive_data_acceptance": {"expected-statuses": statuses}},
            }
        )
    operations.append(
        {  # an account that exists, so that logging in can succeed too
            "include-operation-id": "auth_login",
            "parameters": {
                "body.username": {"dictionary": "usernames", "probability": 0.6},
                "body.password": {"dictionary": "passwords", "probability": 0.6},
            },
        }
    )
    operations.append(
        {  # mostly the solo match, where it is the player's turn, so that some actions apply
            "include-operation-id": "matches_actions_create",
            "parameters": {"path.match_id": {"dictionary": "mine", "probability": 0.9}},
        }
    )
    for operation_id in NOT_YET_AVAILABLE:
        operations.append(
            {
                "include-operation-id": operation_id,
                "checks": {"ensure_resource_availability": {"enabled": False}},
            }
        )
    return schemathesis.Config.from_dict(
        {
            "workers": 1,
            "checks": {"enabled": True},
            "generation": {"mode": "all", "max-examples": EXAMPLES, "database": "none"},
            "phases": {
                name: {"enabled": name in phases}
                for name in ("examples", "coverage", "fuzzing", "stateful")
            },
            "cache": {"enabled": False},
            "dictionaries": {
                "matches": {"values": world.match_ids},
                "codes": {"values": world.invite_codes},
                "mine": {"values": [world.match_ids[1]]},
                "usernames": {"values": [LOGIN[0]]},
                "passwords": {"values": [LOGIN[1]]},
            },
            "parameters": {
                "path.match_id": {"dictionary": "matches", "probability": 0.8},
                "body.invite_code": {"dictionary": "codes", "probability": 0.5},
            },
            "operations": operations,
        }
    )


def wsgi_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """The project's WSGI app, its response closed as a WSGI server closes it (werkzeug's test
    client does not), which is when Django ends the request and closes its connections."""
    from fibserver.wsgi import application

    response = application(environ, start_response)
    try:
        return list(response)
    finally:
        response.close()


def load(world: World, phases: list[str]) -> Any:
    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/?format=json", wsgi_app, config=config(world, phases)
    )

    @schema.auth(refresh_interval=None)
    class Token:
        """The player's token, issued again if a request logged them out."""

        def get(self, case: Any, context: Any) -> str:
            try:
                return token_issue(user=world.user)
            finally:  # this runs in the engine's thread, outside any request
                close_old_connections()

        def set(self, case: Any, data: str, context: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}

    return schema


@dataclass
class Outcome:
    cases: int = 0
    operations: set[str] = field(default_factory=set)
    checks: Counter[str] = field(default_factory=Counter)
    statuses: dict[str, Counter[int]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _answer(recorder: Any, case_id: str) -> str:
    interaction = recorder.interactions.get(case_id)
    response = interaction.response if interaction is not None else None
    if response is None:
        return "no response"
    return f"{response.status_code} {response.content[:500]!r}"


def run(schema: Any) -> Outcome:
    outcome = Outcome()
    for event in schemathesis.engine.from_schema(schema).execute():
        if isinstance(event, ev.ScenarioFinished):
            recorder = event.recorder
            outcome.cases += len(recorder.cases)
            outcome.operations.add(recorder.label)
            for case_id, node in recorder.cases.items():
                interaction = recorder.interactions.get(case_id)
                if interaction is not None and interaction.response is not None:
                    label = node.value.operation.label
                    seen = outcome.statuses.setdefault(label, Counter())
                    seen[interaction.response.status_code] += 1
            for case_id, checks in recorder.checks.items():
                for check in checks:
                    outcome.checks[check.name] += 1
                    if check.status == Status.FAILURE and check.failure_info is not None:
                        failure = check.failure_info.failure
                        outcome.failures.append(
                            f"{recorder.label} [{check.name}] {failure.title}\n"
                            f"{failure.message}\n{check.failure_info.code_sample}\n"
                            f"-> {_answer(recorder, case_id)}"
                        )
        elif isinstance(event, ev.NonFatalError):
            outcome.errors.append(f"{event.label}: {event.info.format()}")
        elif isinstance(event, ev.FatalError):
            raise event.exception
        elif isinstance(event, ev.EngineFinished):
            outcome.failures.extend(f"run: {failure.title}" for failure in event.failures)
    return outcome


@pytest.mark.slow  # about a minute each on two cores: CI runs them, the quick loop does not
@pytest.mark.parametrize(
    "phases", [["examples", "coverage"], ["fuzzing", "stateful"]], ids=lambda p: "+".join(p)
)
def test_the_server_and_its_schema_agree_under_every_check(world: World, phases: list[str]):
    outcome = run(load(world, phases))
    print(
        f"\nschemathesis {'+'.join(phases)}: {len(outcome.operations)} operations/scenarios, "
        f"{outcome.cases} test cases, {len(outcome.failures)} failures, "
        f"{len(outcome.errors)} errors; checks run: {dict(sorted(outcome.checks.items()))}"
    )
    for label, seen in sorted(outcome.statuses.items()):
        print(f"  {label}: {dict(sorted(seen.items()))}")
    assert not outcome.errors, "\n\n".join(outcome.errors)
    assert not outcome.failures, "\n\n".join(dict.fromkeys(outcome.failures))
    assert outcome.cases > 0
