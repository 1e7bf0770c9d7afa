"""The caller's view of a match: everything a client renders, redacted for the caller, and its
ETag.

- :func:`read_view`: the view and its tag, read by match id in one snapshot;
- :func:`render_view`: the view rendered from rows already in hand (a move's, or a read's);
- :func:`read_tag`: the current tag alone, in one indexed statement (a conditional GET);
- :func:`read_match`: the match row a caller may look at (private matches: their players
  and host only), for the other readers (feeds, replays, statistics).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings

from kernel.errors import Forbidden, NotFound

from ..access import Caller, MatchId, is_host, match_pk, user_seats
from ..engine import registry
from ..models import Event, Match, Seat
from . import store
from .redaction import NOT_YOUR_SEAT, EventRow, event_for, seat_shown


def read_match(match_id: MatchId, caller: Caller) -> Match:
    """A match the caller may look at; private matches only for their players and host."""
    match = Match.objects.filter(pk=match_pk(match_id)).first()
    if match is None:
        raise NotFound("No such match.")
    if (
        match.visibility == Match.Visibility.PRIVATE
        and not is_host(match, caller)
        and not positions_of(match, caller)
    ):
        raise NotFound("No such match.")
    return match


def positions_of(match: Match, caller: Caller) -> list[int]:
    """The positions the caller holds in ``match`` (two only in Skull's two_tribes)."""
    if caller is None or not caller.is_authenticated:
        return []
    return list(
        match.seats.filter(user_id=caller.pk)
        .order_by("position")
        .values_list("position", flat=True)
    )


def viewer_seat(match: Match, caller: Caller, requested: int | None = None) -> int | None:
    """Whose eyes the caller sees ``match`` through: their seat, or ``None`` (a spectator)."""
    state = None
    if match.status == Match.Status.ACTIVE and match.state is not None:
        state = registry.get(match.game).from_json(match.state)
    return seat_shown(match, positions_of(match, caller), requested, state)


def read_view(
    match_id: MatchId, caller: Caller, seat: int | None = None
) -> tuple[dict[str, Any], str]:
    """The caller's view of a match and its ETag (:func:`tag_of`), every part of it read as of
    one moment (:func:`games.reads.store.match_rows`)."""
    found = store.match_rows(match_pk(match_id))
    if found is None:
        raise NotFound("No such match.")
    match, seats, events = found
    mine = user_seats(seats, caller)
    if match.visibility == Match.Visibility.PRIVATE and not is_host(match, caller) and not mine:
        raise NotFound("No such match.")  # as read_match
    return render_view(match, caller, seat, seats, events), tag_of(match, seats, caller, seat)


def _tag(
    match_id: MatchId, version: int, updated_at: Any, caller: Caller, seat: int | None, names: str
) -> str:
    """The ETag of a caller's view, from what the view depends on and not from its body: the
    match's version (every applied step, join, leave, start and end bumps it) and last write,
    who asks (their seats decide ``you``, the invite code and whose eyes the engine view
    takes), the seat they asked to look through, and the seated players' names."""
    who = caller.pk if caller is not None and caller.is_authenticated else "-"
    text = f"{match_id}|{version}|{updated_at.isoformat()}|{who}|{seat}|{names}"
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def _names(pairs: Iterable[tuple[Any, Any]]) -> str:
    return "\x1f".join(f"{display or ''}\x1e{username or ''}" for display, username in pairs)


def tag_of(match: Match, seats: list[Seat], caller: Caller, seat: int | None) -> str:
    """The ETag of a view being rendered, from the rows it is rendered from."""
    pairs = [(s.user.display_name, s.user.username) if s.user else (None, None) for s in seats]
    return _tag(match.pk, match.version, match.updated_at, caller, seat, _names(pairs))


def read_tag(match_id: MatchId, caller: Caller, seat: int | None = None) -> str:
    """The current ETag of the caller's view, in **one** indexed query
    (:func:`games.reads.store.tag_rows`), refusing what :func:`read_view` refuses — a private
    match the caller may not see (404), a seat that is not theirs (403) — so a conditional GET
    answers 304 before anything is rendered."""
    pk = match_pk(match_id)
    rows = store.tag_rows(pk)
    if not rows:
        raise NotFound("No such match.")
    version, updated_at, visibility, created_by, *_ = rows[0]
    uid = caller.pk if caller is not None and caller.is_authenticated else None
    mine = [r[5] for r in rows if uid is not None and r[4] == uid]
    if visibility == Match.Visibility.PRIVATE and not mine and (uid is None or created_by != uid):
        raise NotFound("No such match.")
    if seat is not None and seat not in mine:
        raise Forbidden(NOT_YOUR_SEAT)
    pairs = [(r[6], r[7]) for r in rows if r[5] is not None]
    return _tag(pk, version, updated_at, caller, seat, _names(pairs))


def render_seat(seat: Seat) -> dict[str, Any]:
    """A seat as every view and list shows it (public facts only)."""
    user = seat.user
    return {
        "position": seat.position,
        "user": None if user is None else {"id": user.pk, "name": user.public_name},
        "bot_level": seat.bot_level or None,
        "must_act": seat.must_act,
        "deadline": seat.deadline.isoformat() if seat.deadline else None,
        "away": seat.away,
        "vacation_until": seat.vacation_until.isoformat() if seat.vacation_until else None,
        "place": seat.place,
    }


def render_view(
    match: Match,
    caller: Caller,
    seat: int | None = None,
    seats: list[Seat] | None = None,
    events: Sequence[EventRow] | None = None,
    state: Any = None,
) -> dict[str, Any]:
    """The caller's view of ``match``, rendered from the rows given: its ``seats`` with their
    users (read now if not given), the recent ``events`` (the last ``RECENT_EVENTS`` up to
    ``match.last_seq``; read now if not given) and its engine ``state`` (parsed from the match
    if not given). ``seat`` is the caller's choice of seat (two_tribes); by default the one
    that must act."""
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("position"))
    mine = [s.position for s in user_seats(seats, caller)]
    engine_view = None
    legal: list[Any] = []
    rules = registry.get(match.game)
    if state is None and match.state is not None:
        state = rules.from_json(match.state)
    seat = seat_shown(match, mine, seat, state)
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
        "rated": match.rated,
        "created_by": match.created_by_id,
        "invite_code": match.invite_code if mine else None,
        "seed_commitment": match.seed_commitment or None,
        "seats": [render_seat(s) for s in seats],
        "you": {"seat": seat, "seats": mine} if mine else None,
        "to_act": [s.position for s in seats if s.must_act],
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "legal_actions": legal,
        "view": engine_view,
        "placements": match.placements,
        "end_reason": match.end_reason or None,
        "last_seq": match.last_seq,
        "events": [event_for(e, seat) for e in events],
    }
