"""Tournaments moved from ``games`` to an app of their own without touching a table: a
tournament, its entry and its round stored before the move (games 0008) are the same rows
after it (games 0009 and tournaments 0001 change only Django's state)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0008_match_rated"), ("tournaments", None)]


def _leaves(executor: MigrationExecutor) -> list[tuple[str, str]]:
    return executor.loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_rows_stored_before_the_move_are_the_tournaments_after_it():
    executor = MigrationExecutor(connection)
    leaves = _leaves(executor)
    executor.migrate(BEFORE)
    try:
        old = MigrationExecutor(connection).loader.project_state([BEFORE[0]]).apps
        user = old.get_model("accounts", "User").objects.create(username="host-before")
        match = old.get_model("games", "Match").objects.create(
            game="fibbers_dice", seat_count=3, decision_seconds=75
        )
        tournament = old.get_model("games", "Tournament").objects.create(
            name="Before the move", host_id=user.pk, raffle_seed="s", raffle_commitment="c"
        )
        old.get_model("games", "Entry").objects.create(tournament=tournament, user_id=user.pk)
        old.get_model("games", "Round").objects.create(
            tournament=tournament, number=1, match_id=match.pk, players=[user.pk]
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

    from games.models import Match
    from tournaments.models import Entry, Round, Tournament

    moved = Tournament.objects.get(pk=tournament.pk)
    assert moved.name == "Before the move" and moved.host_id == user.pk
    assert list(Entry.objects.filter(tournament=moved).values_list("user_id", flat=True)) == [
        user.pk
    ]
    assert Round.objects.get(tournament=moved).match_id == match.pk
    assert Match.objects.get(pk=match.pk).tournament_round.tournament_id == moved.pk
    assert Tournament._meta.db_table == "games_tournament"
