"""Read paths: the caller's redacted match view, event feeds, lists, inbox and replay.

Every payload derived from a match's state passes through the engine's ``view`` (STYLE.md
habit 2): nothing here reads hidden state into a response, except the replay of a match that
has ended (its record, and its step-by-step re-run).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from accounts.models import User
from fibserver.errors import Conflict, Forbidden, Invalid, NotFound

from . import hotsql
from .engine import registry
from .engine.core import redact_event
from .engine.replay import FORMAT, JOIN_ACTION, Rerun, RerunError, result_of
from .models import Event, Match, Seat
from .reads import match_rows
from .services.common import Caller, MatchId, is_host, match_pk, user_seats


@contextmanager
def snapshot() -> Iterator[None]:
    """Read several tables as of one moment: a match, its seats and its events must never
    mix versions. On PostgreSQL a REPEATABLE READ transaction (one snapshot for every
    statement, and it never blocks a writer); SQLite's read transactions are snapshots."""
    if connection.in_atomic_block:  # already inside a transaction: it decides
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def match_get(match_id: MatchId, *, user: Caller = None) -> Match:
    """A match the caller may look at; private matches only for their players and host."""
    match = Match.objects.filter(pk=match_pk(match_id)).first()
    if match is None:
        raise NotFound("No such match.")
    if (
        match.visibility == Match.Visibility.PRIVATE
        and not is_host(match, user)
        and not seats_of(match, user)
    ):
        raise NotFound("No such match.")
    return match


def seats_of(match: Match, user: Caller) -> list[int]:
    """The positions the caller holds in ``match`` (two only in Skull's two_tribes)."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        match.seats.filter(user_id=user.pk).order_by("position").values_list("position", flat=True)
    )


def viewer_seat(match: Match, user: Caller, requested: int | None = None) -> int | None:
    """Whose eyes the caller sees through: their seat, or ``None`` (a spectator)."""
    state = None
    if match.status == Match.Status.ACTIVE and match.state is not None:
        state = registry.get(match.game).from_json(match.state)
    return _choose_seat(match, seats_of(match, user), requested, state)


def _choose_seat(match: Match, mine: list[int], requested: int | None, state: Any) -> int | None:
    """The requested seat if it is the caller's; else the caller's seat that must act now
    (two_tribes), else their first; ``None`` for a spectator."""
    if requested is not None:
        if requested not in mine:
            raise Forbidden("That seat is not yours.")
        return requested
    if not mine:
        return None
    if state is not None and match.status == Match.Status.ACTIVE:
        to_act = set(registry.get(match.game).to_act(state))
        for position in mine:
            if position in to_act:
                return position
    return mine[0]


class EventRow(Protocol):
    """What a view reads of a log row: an :class:`Event`, or a row a move has just stored."""

    seq: int
    version: int
    type: str
    public: Any
    private: Any
    by_bot: bool


def event_for_seat(event: EventRow, seat: int | None) -> dict[str, Any]:
    """One log row as ``seat`` may see it (the engine's one redaction rule), with its sequence
    number and version: a seat that may not see a part still gets the number, so no gaps."""
    out: dict[str, Any] = {
        "seq": event.seq,
        "version": event.version,
        **redact_event(event.type, event.public, event.private, seat),
    }
    if event.by_bot:
        out["by_bot"] = True
    return out


EVENTS_PAGE = 200


def events_after(
    match: Match, seat: int | None, after: int, limit: int | None = None
) -> list[dict[str, Any]]:
    """At most ``limit`` (default: ``EVENTS_PAGE``, read when called) events after ``after``."""
    rows = Event.objects.filter(match=match, seq__gt=after).order_by("seq")
    rows = rows[: limit if limit is not None else EVENTS_PAGE]
    return [event_for_seat(e, seat) for e in rows]


def events_page(
    match_id: MatchId, user: Caller, after: int, seat: int | None = None
) -> dict[str, Any]:
    """The caller's events after ``after``, read in one snapshot with the match's version and
    last sequence number (so a feed never skips or repeats an event). ``more`` says a page was
    cut short: continue after the last event's ``seq``."""
    with snapshot():
        match = match_get(match_id, user=user)
        viewer = viewer_seat(match, user, seat)
        events = events_after(match, viewer, after)
    return {
        "events": events,
        "last_seq": match.last_seq,
        "more": bool(events) and events[-1]["seq"] < match.last_seq,
        "version": match.version,
        "status": match.status,
    }


def match_read(match_id: MatchId, user: Caller, seat: int | None = None) -> dict[str, Any]:
    """The caller's view of a match, every part of it read in one snapshot."""
    return match_read_tagged(match_id, user, seat)[0]


def view_tag(
    match_id: MatchId, version: int, updated_at: Any, user: Caller, seat: int | None, names: str
) -> str:
    """The ETag of a caller's view, from what the view depends on and not from its body: the
    match's version (every applied step, join, leave, start and end bumps it) and last write,
    who asks (their seats decide ``you``, the invite code and whose eyes the engine view
    takes), the seat they asked to look through, and the seated players' names."""
    who = user.pk if user is not None and user.is_authenticated else "-"
    text = f"{match_id}|{version}|{updated_at.isoformat()}|{who}|{seat}|{names}"
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def _names(pairs: Iterable[tuple[Any, Any]]) -> str:
    return "\x1f".join(f"{display or ''}\x1e{username or ''}" for display, username in pairs)


def view_tag_of(match: Match, seats: list[Seat], user: Caller, seat: int | None) -> str:
    """:func:`view_tag` of a view being rendered, from the rows it was rendered from."""
    pairs = [(s.user.display_name, s.user.username) if s.user else (None, None) for s in seats]
    return view_tag(match.pk, match.version, match.updated_at, user, seat, _names(pairs))


#: What :func:`view_tag_read` reads on PostgreSQL: the match by its key, its seats and their
#: players — the ORM's query for it, without compiling it again on every conditional GET.
VIEW_TAG_SQL = (
    'SELECT "games_match"."version", "games_match"."updated_at", "games_match"."visibility", '
    '"games_match"."created_by_id", "games_seat"."user_id", "games_seat"."position", '
    '"accounts_user"."display_name", "accounts_user"."username" FROM "games_match" '
    'LEFT OUTER JOIN "games_seat" ON ("games_match"."id" = "games_seat"."match_id") '
    'LEFT OUTER JOIN "accounts_user" ON ("games_seat"."user_id" = "accounts_user"."id") '
    'WHERE "games_match"."id" = %s ORDER BY "games_seat"."position" ASC'
)


def view_tag_read(match_id: MatchId, user: Caller, seat: int | None = None) -> str:
    """The current ETag of the caller's view, in **one** indexed query (the match by its
    primary key, its seats by ``(match, position)`` and their users by key), refusing what
    :func:`match_read` refuses — a private match the caller may not see (404), a seat that is
    not theirs (403) — so a conditional GET answers 304 before anything is rendered."""
    pk = match_pk(match_id)
    rows: list[Any]
    if connection.vendor == "postgresql":
        with hotsql.cursor() as cursor:  # the statement the ORM builds, built once
            cursor.execute(VIEW_TAG_SQL, [pk])
            rows = cursor.fetchall()
    else:
        rows = list(
            Match.objects.filter(pk=pk)
            .order_by("seats__position")
            .values_list(
                "version",
                "updated_at",
                "visibility",
                "created_by_id",
                "seats__user_id",
                "seats__position",
                "seats__user__display_name",
                "seats__user__username",
            )
        )
    if not rows:
        raise NotFound("No such match.")
    version, updated_at, visibility, created_by, *_ = rows[0]
    uid = user.pk if user is not None and user.is_authenticated else None
    mine = [r[5] for r in rows if uid is not None and r[4] == uid]
    if visibility == Match.Visibility.PRIVATE and not mine and (uid is None or created_by != uid):
        raise NotFound("No such match.")
    if seat is not None and seat not in mine:
        raise Forbidden("That seat is not yours.")
    pairs = [(r[6], r[7]) for r in rows if r[5] is not None]
    return view_tag(pk, version, updated_at, user, seat, _names(pairs))


def _seat_json(seat: Seat) -> dict[str, Any]:
    user = seat.user
    return {
        "position": seat.position,
        "user": None if user is None else {"id": user.pk, "name": user.public_name},
        "bot_level": seat.bot_level or None,
        "must_act": seat.must_act,
        "deadline": seat.deadline.isoformat() if seat.deadline else None,
        "away": seat.away,
        "place": seat.place,
    }


def seat_entries(match: Match) -> list[dict[str, Any]]:
    """The public seat entries of a list item, in seat order, from the seats (and their users)
    the queryset prefetched: no query of its own."""
    return [_seat_json(s) for s in sorted(match.seats.all(), key=lambda s: s.position)]


def match_view(
    match: Match, user: Caller, seat: int | None = None, seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The caller's view of a match: everything a client renders, redacted for the caller.

    ``seat`` is the caller's choice of seat (two_tribes); by default the one that must act.
    The seats are read once (or given, with their users, as a move left them) and the engine
    state parsed once."""
    return match_view_tagged(match, user, seat, seats)[0]


def match_read_tagged(
    match_id: MatchId, user: Caller, seat: int | None = None
) -> tuple[dict[str, Any], str]:
    """:func:`match_read` and the view's ETag (:func:`view_tag`), from the same snapshot: on
    PostgreSQL one statement (``games.reads.match_rows``), elsewhere a read transaction."""
    if connection.vendor == "postgresql":
        found = match_rows(match_pk(match_id))
        if found is None:
            raise NotFound("No such match.")
        match, seats, events = found
        mine = user_seats(seats, user)
        if match.visibility == Match.Visibility.PRIVATE and not is_host(match, user) and not mine:
            raise NotFound("No such match.")  # as match_get
        return _view(match, user, seat, seats, events), view_tag_of(match, seats, user, seat)
    with snapshot():
        return match_view_tagged(match_get(match_id, user=user), user, seat)


def match_view_stored(
    match: Match, user: Caller, seat: int, seats: list[Seat], events: list[EventRow], state: Any
) -> dict[str, Any]:
    """:func:`match_view` of a move just stored by ``services.action_submit_optimistic``, from
    the rows it stored — the match, its seats with their users, the recent events (the last
    ``RECENT_EVENTS`` up to ``match.last_seq``) — and its engine state: no query."""
    return _view(match, user, seat, seats, events, state)


def match_view_tagged(
    match: Match, user: Caller, seat: int | None = None, seats: list[Seat] | None = None
) -> tuple[dict[str, Any], str]:
    """:func:`match_view` and its ETag, computed from the rows the view is rendered from."""
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("position"))
    return _view(match, user, seat, seats), view_tag_of(match, seats, user, seat)


def _view(
    match: Match,
    user: Caller,
    seat: int | None,
    seats: list[Seat] | None,
    events: Sequence[EventRow] | None = None,
    state: Any = None,
) -> dict[str, Any]:
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("position"))
    mine = [
        s.position
        for s in seats
        if user is not None and user.is_authenticated and s.user_id == user.pk
    ]
    engine_view = None
    legal: list[Any] = []
    rules = registry.get(match.game)
    if state is None and match.state is not None:
        state = rules.from_json(match.state)
    seat = _choose_seat(match, mine, seat, state)
    if state is not None:
        engine_view = rules.view(state, seat)
        legal = engine_view.pop("legal_actions")
    if events is None:
        recent = settings.FIBSERVER["RECENT_EVENTS"]
        # Bounded above too: a view rendered after its move's commit shows that move's log only.
        events = list(
            Event.objects.filter(
                match=match, seq__gt=max(0, match.last_seq - recent), seq__lte=match.last_seq
            ).order_by("seq")
        )
    return {
        "id": str(match.pk),
        "game": match.game,
        "status": match.status,
        "version": match.version,
        "visibility": match.visibility,
        "options": match.options,
        "seat_count": match.seat_count,
        "time_control": match.time_control,
        "decision_seconds": match.decision_seconds,
        "created_by": match.created_by_id,
        "invite_code": match.invite_code if mine else None,
        "seed_commitment": match.seed_commitment or None,
        "seats": [_seat_json(s) for s in seats],
        "you": {"seat": seat, "seats": mine} if mine else None,
        "to_act": [s.position for s in seats if s.must_act],
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "legal_actions": legal,
        "view": engine_view,
        "placements": match.placements,
        "end_reason": match.end_reason or None,
        "last_seq": match.last_seq,
        "events": [event_for_seat(e, seat) for e in events],
    }


def match_summary(match: Match) -> dict[str, Any]:
    """A lobby or list entry: public facts only. The seat counts come from
    :func:`with_seat_counts` when the list was read with it, else from the prefetched seats."""
    if hasattr(match, "filled_seats"):
        filled, bots = match.filled_seats, match.bot_seats  # type: ignore[attr-defined]
    else:
        seats = list(match.seats.all())
        filled = sum(1 for s in seats if not s.is_empty)
        bots = sum(1 for s in seats if s.is_bot)
    return {
        "id": str(match.pk),
        "game": match.game,
        "status": match.status,
        "visibility": match.visibility,
        "options": match.options,
        "seat_count": match.seat_count,
        "filled": filled,
        "bots": bots,
        "time_control": match.time_control,
        "created_at": match.created_at.isoformat(),
        "version": match.version,
    }


#: The columns a summary (:func:`match_summary`) shows.
SUMMARY_FIELDS = [
    "id",
    "game",
    "status",
    "visibility",
    "options",
    "seat_count",
    "time_control",
    "created_at",
    "version",
]


def with_seat_counts(qs: QuerySet[Match]) -> QuerySet[Match]:
    """A list of matches read for their summaries: the summary's columns only, and the seat
    counts as two subqueries of the same statement (by ``seat_unique_position``), so a page
    costs one query and no seat is turned into a model instance."""
    seats = Seat.objects.filter(match=OuterRef("pk")).order_by().values("match")

    def count(rows: Any) -> Coalesce:
        return Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n")), 0)

    return qs.only(*SUMMARY_FIELDS).annotate(
        filled_seats=count(seats.exclude(user=None, bot_level="")),
        bot_seats=count(seats.exclude(bot_level="")),
    )


def open_matches(*, game: str | None = None) -> QuerySet[Match]:
    qs = Match.objects.filter(status=Match.Status.LOBBY, visibility=Match.Visibility.PUBLIC)
    if game:
        qs = qs.filter(game=game)
    return qs.defer("state").order_by("-created_at")


def my_matches(*, user: User, status: str | None = None) -> QuerySet[Match]:
    """The matches the caller holds a seat in or created (a bot exhibition they host).

    The seats as a subquery (``seat_user_joined`` finds them) rather than a join: no
    ``DISTINCT`` over every column of every match, for the page and for its count; the engine
    state and the end-of-match statistics, which a summary does not show, are not read."""
    seated = Seat.objects.filter(user=user).values("match_id")
    qs = Match.objects.filter(Q(pk__in=seated) | Q(created_by=user))
    if status:
        qs = qs.filter(status=status)
    return qs.defer("state", "stats", "takeover_stats", "placements").order_by("-created_at")


def my_turns(*, user: User) -> list[dict[str, Any]]:
    """The caller's seats that must act, soonest deadline first (no deadline last)."""
    seats = (
        Seat.objects.filter(user=user, must_act=True, match__status=Match.Status.ACTIVE)
        .select_related("match")
        .only("position", "deadline", "match__id", "match__game", "match__version")
    )
    entries = [
        {
            "match": str(s.match.pk),
            "game": s.match.game,
            "seat": s.position,
            "deadline": s.deadline.isoformat() if s.deadline else None,
            "version": s.match.version,
        }
        for s in seats
    ]
    entries.sort(key=lambda e: (e["deadline"] is None, e["deadline"] or ""))
    return entries


NOT_FINISHED = "The replay is available once the match has finished."


def match_replay(match: Match) -> dict[str, Any]:
    """The complete record (docs/replay.md), hidden information included: after the end only."""
    if match.status != Match.Status.FINISHED:
        raise NotFound(NOT_FINISHED)
    rules = registry.get(match.game)
    rows = list(Event.objects.filter(match=match).order_by("seq"))
    if not rows or match.state is None:  # a match made by seed_demo keeps no log
        raise NotFound("This match has no recorded log to replay.")
    by_version: dict[int, list[Event]] = {}
    for row in rows:
        by_version.setdefault(row.version, []).append(row)
    versions = sorted(by_version)
    setup = by_version[versions[0]]

    def events_json(group: list[Event]) -> list[dict[str, Any]]:
        return [
            {"type": e.type, "public": e.public, "private": e.private}
            for e in group
            if not (e.type == "action" and len(group) == 1 and e.public == {"seat": e.actor})
        ]

    steps = []
    joins = 0
    for n, version in enumerate(versions[1:], start=1):
        group = by_version[version]
        first = group[0]
        step = {"n": n, "seat": first.actor, "action": first.action}
        if first.action == JOIN_ACTION and first.type == "seat_joined":
            step["join"] = True  # a late entrant (docs/replay.md), re-run with add_seat
            joins += 1
        if any(e.by_bot for e in group):
            step["by_bot"] = True
        step["chance"] = first.chance or []
        step["events"] = events_json(group)
        steps.append(step)
    assert match.state is not None, "a finished match has its final state"
    state = rules.from_json(match.state)
    return {
        "format": FORMAT,
        "game": match.game,
        "seats": match.seat_count - joins,  # the seats it started with
        "options": match.options,
        "seed": match.seed,
        "seed_commitment": match.seed_commitment,
        "setup": {"chance": setup[0].chance or [], "events": events_json(setup)},
        "steps": steps,
        # Exactly what the engine's re-run gives (``verify`` compares it): the statistics of
        # every decision, whoever took it.
        "result": result_of(rules, state),
        # Who decided: each seat's statistics split into its own decisions and those a bot took
        # for it after a deadline (the two add up to ``result.stats``).
        "attribution": [
            {"stats": own, "bot_stats": bot}
            for own, bot in zip(match.stats or [], _takeover_stats(match), strict=True)
        ],
    }


# --- The step-by-step replay -------------------------------------------------------------------

#: How many matches' re-runs a process keeps (least recently used out first). A re-run keeps
#: its record and the engine state after every 16th step: for a 1,200-step Fibber match 234 KB
#: of record and 105 KB of states as JSON, a few times that as Python objects.
REPLAY_RERUNS = 16
_reruns: OrderedDict[tuple[Any, int], tuple[threading.Lock, Rerun]] = OrderedDict()
_reruns_lock = threading.Lock()
_STEP_NUMBER = re.compile(r"[0-9]+")


def replay_step_number(value: str | int) -> int:
    """A step number as a path segment (REST) or an argument (GraphQL): a whole number from 0,
    else ``400 invalid``. Past the last step is ``404`` (:func:`match_replay_step`)."""
    if type(value) is int and value >= 0:
        return value
    if isinstance(value, str) and _STEP_NUMBER.fullmatch(value):
        if len(value) > 9:  # a whole number, but far past the last step of any match
            raise NotFound("No such step: that is past the last step of this match.")
        return int(value)
    raise Invalid(
        "'n' must be a whole number from 0 (the set-up) to the match's last step.", field="n"
    )


def _rerun_of(match: Match) -> tuple[threading.Lock, Rerun]:
    """The re-run of a finished match's record, from the process's cache or read now. A
    finished match never changes; its version is in the key all the same."""
    key = (match.pk, match.version)
    with _reruns_lock:
        entry = _reruns.get(key)
        if entry is not None:
            _reruns.move_to_end(key)
            return entry
    try:
        rerun = Rerun(match_replay(match))  # the read and the set-up outside the lock
    except RerunError as error:
        raise Conflict(f"The record does not re-run: {error.reason}") from None
    with _reruns_lock:
        entry = _reruns.setdefault(key, (threading.Lock(), rerun))
        _reruns.move_to_end(key)
        while len(_reruns) > REPLAY_RERUNS:
            _reruns.popitem(last=False)
    return entry


def match_replay_step(match: Match, n: int) -> dict[str, Any]:
    """The match after step ``n`` of its record (0: the set-up), re-run by the engine from the
    revealed seed and checked against the record on the way (docs/replay.md "Step by step"):
    every seat's view, everyone's legal actions, the step taken. After the end only."""
    if match.status != Match.Status.FINISHED:
        raise NotFound(NOT_FINISHED)
    lock, rerun = _rerun_of(match)
    if n > rerun.last:
        raise NotFound(f"No step {n}: this match has steps 0 (the set-up) to {rerun.last}.")
    with lock:  # a re-run moves forward from its kept states: one request at a time
        try:
            body = rerun.step_json(n)
        except RerunError as error:
            raise Conflict(f"The record does not re-run: {error.reason}") from None
    return {"match": str(match.pk), "game": match.game, **body}


def _takeover_stats(match: Match) -> list[dict[str, int]]:
    return match.takeover_stats or [{} for _ in range(match.seat_count)]


def match_stats(match: Match) -> dict[str, Any]:
    """Bluff statistics: hidden from everyone, the players included, until the match ends."""
    if match.status != Match.Status.FINISHED or match.stats is None:
        raise NotFound("Statistics are revealed once the match has finished.")
    seats = list(match.seats.select_related("user").order_by("position"))
    takeover = _takeover_stats(match)
    return {
        "match": str(match.pk),
        "game": match.game,
        "placements": match.placements,
        "seats": [
            {
                **_seat_json(seat),
                "stats": match.stats[seat.position],
                # what bots did for this seat after its deadlines passed, counted apart
                "bot_stats": takeover[seat.position],
            }
            for seat in seats
        ],
    }
