"""Fibber's Dice events are tournaments: the reverse name of a round's match, and the option
that marks a tournament's match (``event`` -> ``tournament``) in every stored match and state."""

import django.db.models.deletion
from django.db import migrations, models


def _rename_key(options, old, new):
    if isinstance(options, dict) and old in options:
        options = {(new if key == old else key): value for key, value in options.items()}
    return options


def _move(apps, old, new):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(game="fibbers_dice").only("id", "options", "state"):
        options = _rename_key(match.options, old, new)
        state = match.state
        if isinstance(state, dict):
            state = {**state, "options": _rename_key(state.get("options"), old, new)}
        if options != match.options or state != match.state:
            Match.objects.filter(pk=match.pk).update(options=options, state=state)


def forwards(apps, schema_editor):
    _move(apps, "event", "tournament")


def backwards(apps, schema_editor):
    _move(apps, "tournament", "event")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_lean_indexes"),
    ]

    operations = [
        migrations.AlterField(
            model_name="round",
            name="match",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="tournament_round",
                to="games.match",
            ),
        ),
        migrations.RunPython(forwards, backwards),
    ]
