"""Rebuild every career, rating and rating-history point from the match history.

The end-of-match work keeps these up to date one match at a time; this replays the whole
history through the same :func:`.tally.tally_match`, in the order the work was first applied
(:class:`RecordedMatch` ids), so it gives the same numbers to the last bit. Use it after
changing a board threshold, or to check the incremental aggregates (``manage.py
stats_rebuild --check``). A match's ``rated`` option is read from the match, as the live path
reads it: an unrated match counts in the careers and changes no rating here either.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction

from accounts.models import User

from .. import boards
from ..models import Career, Match, RatingPoint, RecordedMatch, Seat
from .results import decision_counts, facts_of
from .tally import tally_match

CHUNK = 2000


def stats_rebuild(*, game: str | None = None, write: bool = True) -> dict[str, Any]:
    """Recompute the careers (of ``game``, or of every game) from the recorded matches.

    With ``write`` the stored careers and history are replaced, in one transaction that holds
    the end-of-match work back meanwhile; without it nothing is written and the result says
    whether the stored aggregates equal the rebuilt ones (``differences``)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                tables = "games_career, games_ratingpoint, games_recordedmatch"
                cursor.execute(f"LOCK TABLE {tables} IN EXCLUSIVE MODE")
        if write:
            _record_older_matches(game)
        relabel: list[RecordedMatch] = []  # records whose "rated" was not known yet
        careers, points, matches = _replay(game, relabel)
        stored = Career.objects.all() if game is None else Career.objects.filter(game=game)
        history = (
            RatingPoint.objects.all() if game is None else RatingPoint.objects.filter(game=game)
        )
        summary: dict[str, Any] = {
            "matches": matches,
            "careers": len(careers),
            "points": len(points),
        }
        if not write:
            summary["differences"] = differences(stored, history, careers, points)
            return summary
        RecordedMatch.objects.bulk_update(relabel, ["rated"], batch_size=CHUNK)
        history.delete()
        stored.delete()
        Career.objects.bulk_create(careers, batch_size=CHUNK)
        RatingPoint.objects.bulk_create(points, batch_size=CHUNK)
        return summary


def _record_older_matches(game: str | None) -> None:
    """Matches recorded before the record table existed get one, in the order they ended."""
    older = Match.objects.filter(
        status=Match.Status.FINISHED, results_recorded=True, record__isnull=True
    )
    if game is not None:
        older = older.filter(game=game)
    rows = older.order_by("finished_at", "pk").values_list("pk", "game")
    RecordedMatch.objects.bulk_create(
        [RecordedMatch(match_id=pk, game=g) for pk, g in rows], batch_size=CHUNK
    )


def _replay(
    game: str | None, relabel: list[RecordedMatch]
) -> tuple[list[Career], list[RatingPoint], int]:
    thresholds = boards.Thresholds.current()
    records = RecordedMatch.objects.select_related("match").order_by("pk")
    if game is not None:
        records = records.filter(game=game)
    careers: dict[tuple[int, str], Career] = {}
    points: list[RatingPoint] = []
    matches = 0
    chunk: list[RecordedMatch] = []
    for record in records.iterator(chunk_size=CHUNK):
        chunk.append(record)
        if len(chunk) == CHUNK:
            points += _replay_chunk(chunk, careers, thresholds, relabel)
            matches += len(chunk)
            chunk = []
    points += _replay_chunk(chunk, careers, thresholds, relabel)
    matches += len(chunk)
    # A deleted player took part in the matches they played (the others' ratings stay as
    # they were) but keeps no career and no rating history.
    gone = set(User.objects.filter(deleted_at__isnull=False).values_list("pk", flat=True))
    kept = [c for c in careers.values() if c.user_id not in gone]
    return kept, [p for p in points if p.user_id not in gone], matches


def _replay_chunk(
    chunk: list[RecordedMatch],
    careers: dict[tuple[int, str], Career],
    thresholds: boards.Thresholds,
    relabel: list[RecordedMatch],
) -> list[RatingPoint]:
    if not chunk:
        return []
    ids = [record.match_id for record in chunk]
    users: dict[Any, list[int | None]] = {}
    rows = Seat.objects.filter(match_id__in=ids).order_by("match_id", "position")
    ended = {record.match_id: record.match.finished_at for record in chunk}
    for match_id, user_id, deleted in rows.values_list("match_id", "user_id", "user__deleted_at"):
        # A seat whose player was deleted before the match ended was a bot's (as recorded).
        end = ended[match_id]
        gone = deleted is not None and (end is None or deleted <= end)
        users.setdefault(match_id, []).append(None if gone else user_id)
    decisions = decision_counts(ids)
    points: list[RatingPoint] = []
    for record in chunk:
        match = record.match
        facts = facts_of(match, users[match.pk], decisions)
        mine = {}
        for person in facts.participants:
            key = (person.user_id, match.game)
            if key not in careers:
                careers[key] = Career(user_id=person.user_id, game=match.game)
            mine[person.user_id] = careers[key]
        points += tally_match(facts, mine, record, thresholds)
        if record.rated != facts.rated:
            record.rated = facts.rated
            relabel.append(record)
    return points


CAREER_FIELDS = [
    f.attname for f in Career._meta.concrete_fields if f.attname not in ("id", "updated_at")
]
POINT_FIELDS = [f.attname for f in RatingPoint._meta.concrete_fields if f.attname != "id"]


def differences(
    stored: Any, history: Any, careers: list[Career], points: list[RatingPoint]
) -> list[str]:
    """Where the stored aggregates differ from rebuilt ones (empty when they agree)."""
    found: list[str] = []
    have = {(c["user_id"], c["game"]): c for c in stored.values(*CAREER_FIELDS)}
    want = {(c.user_id, c.game): {f: getattr(c, f) for f in CAREER_FIELDS} for c in careers}
    for key in sorted(set(have) | set(want), key=str):
        if have.get(key) != want.get(key):
            found.append(f"career {key}: stored {have.get(key)} != rebuilt {want.get(key)}")
    have_points = {(p["match_id"], p["user_id"]): p for p in history.values(*POINT_FIELDS)}
    want_points = {
        (p.match_id, p.user_id): {f: getattr(p, f) for f in POINT_FIELDS} for p in points
    }
    for point in sorted(set(have_points) | set(want_points), key=str):
        if have_points.get(point) != want_points.get(point):
            found.append(f"rating point {point}: stored {have_points.get(point)} != rebuilt")
    return found
