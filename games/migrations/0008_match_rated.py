"""``Match.rated``: whether a match changes ratings. Matches made before it existed were rated
exactly when two or more players held their seats, so those that could never be rated (solo,
bots only, one player at the table) are marked unrated; every other one stays rated."""

from django.db import migrations, models
from django.db.models import Count, Q


def mark_unratable(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Match.objects.filter(time_control="solo").update(rated=False)
    started = Match.objects.exclude(status="lobby").annotate(
        humans=Count("seats__user", distinct=True, filter=Q(seats__user__isnull=False))
    )
    Match.objects.filter(pk__in=started.filter(humans__lt=2).values("pk")).update(rated=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_seat_vacation"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="rated",
            field=models.BooleanField(default=True),
        ),
        migrations.RunPython(mark_unratable, migrations.RunPython.noop, elidable=True),
    ]
