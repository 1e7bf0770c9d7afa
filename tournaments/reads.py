"""Read paths of Fibber's Dice tournaments (docs/tournaments.md): lists, the detail with
standings, the raffle and the caller's next match. Nothing here reads a match's hidden state: a
round shows its match id, players and, once over, places; the match itself is read through the
match API."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet

from accounts.models import User
from games.access import Caller
from games.engine import registry
from games.models import Match, Seat
from kernel.errors import NotFound

from .access import may_see, tournament_pk
from .models import Round, Tournament


def read_tournament(tournament_id: uuid.UUID | str, *, user: Caller = None) -> Tournament:
    """The tournament, if the caller may see it (a private one: its host and entrants only)."""
    tournament = (
        Tournament.objects.select_related("host").filter(pk=tournament_pk(tournament_id)).first()
    )
    if tournament is None or not may_see(tournament, user):
        raise NotFound("No such tournament.")
    return tournament


def listed_tournaments(*, status: str | None = None) -> QuerySet[Tournament]:
    """Public tournaments open for registration or running, newest first (or of one status)."""
    statuses = [status] if status else [Tournament.Status.OPEN, Tournament.Status.RUNNING]
    return (
        Tournament.objects.filter(visibility=Match.Visibility.PUBLIC, status__in=statuses)
        .select_related("host")
        .order_by("-created_at", "id")
    )


def _player(user: User) -> dict[str, Any]:
    return {"id": user.pk, "name": user.public_name}


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def registration_open(tournament: Tournament, rounds: list[Round]) -> bool:
    """Whether a new player may register now (the service is the judge; this says it ahead)."""
    if tournament.status == Tournament.Status.OPEN:
        return True
    if tournament.status == Tournament.Status.FINISHED:
        return False
    if tournament.single_round:
        match = rounds[0].match if rounds else None
        if match is None or match.status != Match.Status.ACTIVE or match.state is None:
            return False
        rules = registry.get(match.game)
        return rules.late_entry_closed(rules.from_json(match.state)) is None
    return not any(r.final for r in rounds)


def render_tournament_summary(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": str(tournament.pk),
        "name": tournament.name,
        "game": tournament.game,
        "host": _player(tournament.host),
        "status": tournament.status,
        "visibility": tournament.visibility,
        "starts_at": _iso(tournament.starts_at),
        "format": tournament.format,
        "single_round": tournament.single_round,
        "entrants": tournament.entries.count(),
        "created_at": _iso(tournament.created_at),
    }


def _round_json(rnd: Round) -> dict[str, Any]:
    if rnd.skipped:
        status = "skipped"
    elif rnd.placements is not None:
        status = "over"
    else:
        status = "running"
    return {
        "number": rnd.number,
        "final": rnd.final,
        "status": status,
        "match": None if rnd.match_id is None else str(rnd.match_id),
        "players": list(rnd.players),
        "placements": None
        if rnd.placements is None
        else [
            {"player": int(k), "place": v}
            for k, v in sorted(rnd.placements.items(), key=lambda kv: (kv[1], int(kv[0])))
        ],
        "qualified": list(rnd.qualified),
    }


def render_raffle(tournament: Tournament) -> dict[str, Any]:
    """The door-prize draw: the commitment always; the seed, entrants and winners once drawn."""
    drawn = tournament.raffle_winners is not None
    return {
        "door_prizes": tournament.door_prizes,
        "commitment": tournament.raffle_commitment,
        "drawn": drawn,
        "seed": tournament.raffle_seed if drawn else None,
        "entrants": tournament.raffle_entrants if drawn else None,
        "winners": tournament.raffle_winners if drawn else None,
        "algorithm": "docs/tournaments.md#verifying-the-raffle",
    }


def render_tournament(tournament: Tournament, user: Caller = None) -> dict[str, Any]:
    """Everything about a tournament: settings, entrants with their standing, rounds, prizes."""
    rounds = list(tournament.rounds.select_related("match").order_by("number"))
    entries = list(tournament.entries.select_related("user").order_by("id"))
    qualified_in = {p: r.number for r in rounds for p in r.qualified}
    final = next((r for r in rounds if r.final), None)
    final_places = {int(k): v for k, v in ((final and final.placements) or {}).items()}
    me = user.pk if user is not None and user.is_authenticated else None
    return {
        **render_tournament_summary(tournament),
        "time_control": tournament.time_control,
        "decision_seconds": tournament.decision_seconds,
        "points": tournament.points,
        "auto_advance": tournament.auto_advance,
        "started_at": _iso(tournament.started_at),
        "finished_at": _iso(tournament.finished_at),
        "version": tournament.version,
        "registration_open": registration_open(tournament, rounds),
        "registered": me is not None and any(e.user_id == me for e in entries),
        "standings": [
            {
                "player": _player(e.user),
                "late": e.late,
                "qualified_in_round": qualified_in.get(e.user_id),
                "final_place": final_places.get(e.user_id),
            }
            for e in entries
        ],
        "rounds": [_round_json(r) for r in rounds],
        "prize_picks": tournament.prize_picks,
        "raffle": render_raffle(tournament),
    }


def read_my_match(tournament: Tournament, user: User) -> dict[str, Any]:
    """The caller's match in the tournament: the running round they play in, if any, with their
    seat; otherwise why there is none."""
    entered = tournament.entries.filter(user=user).exists()
    current = tournament.rounds.order_by("-number").first()
    out: dict[str, Any] = {"registered": entered, "round": None, "match": None, "seat": None}
    if current is not None and current.match_id is not None and not current.over:
        seat = Seat.objects.filter(match_id=current.match_id, user=user).first()
        if seat is not None:
            out.update(round=current.number, match=str(current.match_id), seat=seat.position)
    if out["match"] is not None:
        out["reason"] = "playing"
    elif not entered:
        out["reason"] = "not_registered"
    elif tournament.status == Tournament.Status.FINISHED:
        out["reason"] = "finished"
    elif tournament.status == Tournament.Status.OPEN:
        out["reason"] = "not_started"
    elif user.pk in {p for r in tournament.rounds.all() for p in r.qualified}:
        out["reason"] = "qualified"  # D: sits out the remaining qualifying rounds
    else:
        out["reason"] = "waiting"  # for the next round, or out of the tournament
    return out
