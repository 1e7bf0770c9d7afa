"""What one finished match adds to its players' careers: counts, statistics, the rating and the
board values. The end-of-match work (:mod:`.results`, one match at a time, rows locked) and the
rebuild (:mod:`.rebuild`, the whole history in memory) both go through :func:`tally_match`, so
they cannot disagree.

Decisions (docs/ratings.md):

- **Participants** are the game's places (``Rules.places``): a person holding two seats (Skull
  ``two_tribes``) is one participant, placed by the engine (``Rules.person_placements_of``),
  with the statistics of both seats summed. Bot seats are not participants.
- **Bots**: a match is rated among its human participants, by their order at the table (bots
  included in that order, but not rated); with fewer than two humans it is not rated. Its
  counts and statistics count either way.
- **Unrated matches** (``Match.rated`` false, chosen at creation, in the queue or in a
  challenge): no rating change, no rating history point, not in ``rated_matches``; they count
  for matches, wins, places and statistics like any other match.
- **Takeovers**: when bots took most of a player's decisions in a match (their deadlines
  passed), the match is *assisted* for that player: it counts for matches, places and
  ``bot_stats``, but not as a win on the wins board, and it may lower their rating, never
  raise it (an update that would raise it is not applied, and there is no history point).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from .. import boards, rating
from ..engine import registry
from ..engine.core import competition_ranking
from ..models import Career, RatingPoint, RecordedMatch


@dataclasses.dataclass(frozen=True)
class Participant:
    user_id: int
    #: The participant's place in the match, among everyone at the table.
    place: int
    #: Statistics of the participant's own decisions, and of those bots took for them.
    stats: dict[str, int]
    bot_stats: dict[str, int]
    own_decisions: int
    bot_decisions: int

    @property
    def assisted(self) -> bool:
        """Bots took most of this participant's decisions."""
        return self.bot_decisions > self.own_decisions


@dataclasses.dataclass(frozen=True)
class MatchFacts:
    """What the end-of-match work reads of a finished match: nothing else."""

    match_id: uuid.UUID
    game: str
    finished_at: datetime
    participants: list[Participant]
    #: The match's own option (``Match.rated``): false, it changes no rating.
    rated_match: bool = True

    @property
    def rated(self) -> bool:
        """Ratings change: a rated match with two or more human participants."""
        return self.rated_match and len(self.participants) >= 2


def match_facts(
    *,
    match_id: uuid.UUID,
    game: str,
    seat_count: int,
    options: dict[str, Any],
    placements: Sequence[int],
    stats: Sequence[Mapping[str, int]] | None,
    takeover_stats: Sequence[Mapping[str, int]] | None,
    finished_at: datetime,
    seat_users: Sequence[int | None],
    decisions: Mapping[tuple[int, bool], int],
    rated: bool,
) -> MatchFacts:
    """The human participants of a finished match. ``seat_users`` is each position's user
    (``None`` for a bot), ``decisions`` the number of decisions per ``(position, by_bot)``,
    ``rated`` the match's option."""
    rules = registry.get(game)
    groups = rules.places(seat_count, options)
    person_places = rules.person_placements_of(seat_count, options, placements)
    own_stats = stats or [{} for _ in range(seat_count)]
    bot_stats = takeover_stats or [{} for _ in range(seat_count)]
    by_user: dict[int, Participant] = {}
    for group, place in zip(groups, person_places, strict=True):
        user_id = seat_users[group[0]]
        if user_id is None:
            continue
        entry = Participant(
            user_id=user_id,
            place=place,
            stats=_sum(own_stats[p] for p in group),
            bot_stats=_sum(bot_stats[p] for p in group),
            own_decisions=sum(decisions.get((p, False), 0) for p in group),
            bot_decisions=sum(decisions.get((p, True), 0) for p in group),
        )
        if user_id in by_user:  # never arises (one place per person); merge rather than lose
            other = by_user[user_id]
            entry = Participant(
                user_id=user_id,
                place=min(other.place, entry.place),
                stats=_sum([other.stats, entry.stats]),
                bot_stats=_sum([other.bot_stats, entry.bot_stats]),
                own_decisions=other.own_decisions + entry.own_decisions,
                bot_decisions=other.bot_decisions + entry.bot_decisions,
            )
        by_user[user_id] = entry
    participants = sorted(by_user.values(), key=lambda p: p.user_id)
    return MatchFacts(match_id, game, finished_at, participants, rated_match=rated)


def _sum(parts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in parts:
        for key, value in part.items():
            out[key] = out.get(key, 0) + value
    return out


def tally_match(
    facts: MatchFacts,
    careers: Mapping[int, Career],
    record: RecordedMatch,
    thresholds: boards.Thresholds,
) -> list[RatingPoint]:
    """Add ``facts`` to the careers (one per participant, changed in place) and return the
    rating history points to insert. Nothing here touches the database."""
    points: list[RatingPoint] = []
    people = facts.participants
    if facts.rated:
        updated = rating.rate(
            [(careers[p.user_id].mu, careers[p.user_id].sigma) for p in people],
            competition_ranking([p.place for p in people]),
        )
        for person, (mu, sigma) in zip(people, updated, strict=True):
            career = careers[person.user_id]
            value = rating.display(mu, sigma)
            if person.assisted and value > career.rating:
                continue  # a match the bots played for you never raises your rating
            career.mu, career.sigma, career.rating = mu, sigma, value
            career.rated_matches += 1
            points.append(
                RatingPoint(
                    user_id=person.user_id,
                    game=facts.game,
                    match_id=facts.match_id,
                    record=record,
                    mu=mu,
                    sigma=sigma,
                    rating=value,
                    place=person.place,
                    played_at=facts.finished_at,
                )
            )
    for person in people:
        career = careers[person.user_id]
        won = person.place == 1
        career.matches += 1
        career.wins += won
        career.place_sum += person.place
        places = dict(career.places)
        places[str(person.place)] = places.get(str(person.place), 0) + 1
        career.places = places
        career.stats = _sum([career.stats, person.stats])
        career.bot_stats = _sum([career.bot_stats, person.bot_stats])
        if person.assisted:
            career.assisted += 1
            career.assisted_wins += won
        if career.last_played_at is None or facts.finished_at > career.last_played_at:
            career.last_played_at = facts.finished_at
        set_boards(career, thresholds)
    return points


def set_boards(career: Career, thresholds: boards.Thresholds) -> None:
    """Store the career's value on every board (``None``: not on it)."""
    found = boards.values(
        career.game,
        matches=career.matches,
        wins=career.wins,
        assisted_wins=career.assisted_wins,
        rated_matches=career.rated_matches,
        rating=career.rating,
        stats=career.stats,
        thresholds=thresholds,
    )
    for board, value in found.items():
        setattr(career, f"board_{board}", value)


#: The career columns the end-of-match work writes (``results._write_careers``).
TALLIED_FIELDS = [
    "matches",
    "wins",
    "place_sum",
    "places",
    "stats",
    "bot_stats",
    "assisted",
    "assisted_wins",
    "rated_matches",
    "mu",
    "sigma",
    "rating",
    "last_played_at",
    *(f"board_{board}" for board in boards.BOARD_IDS),
    "updated_at",
]
