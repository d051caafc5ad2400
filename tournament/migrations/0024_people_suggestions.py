"""People belong to the events that hold them: the events a people change touched (filled in
from the change log for the changes made before), and the suggestions a name-only link across
events with no director in common leaves for their directors."""

import django.db.models.deletion
from django.db import migrations, models


def touched_events(apps, schema_editor):
    """Each earlier change's events, as the change log recorded them (one row an event)."""
    Change = apps.get_model("tournament", "Change")
    PeopleChange = apps.get_model("tournament", "PeopleChange")
    Through = PeopleChange.events.through
    known = set(PeopleChange.objects.values_list("pk", flat=True))
    rows = set()
    for tournament_id, before in Change.objects.filter(action="people").values_list(
        "tournament_id", "before"
    ):
        pk = before.get("people_change") if isinstance(before, dict) else None
        if isinstance(pk, int) and pk in known and tournament_id is not None:
            rows.add((pk, tournament_id))
    Through.objects.bulk_create(
        [Through(peoplechange_id=c, tournament_id=t) for c, t in sorted(rows)], batch_size=500
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0023_hall_people"),
    ]

    operations = [
        migrations.AddField(
            model_name="peoplechange",
            name="events",
            field=models.ManyToManyField(
                blank=True, related_name="people_changes", to="tournament.tournament"
            ),
        ),
        migrations.CreateModel(
            name="PersonSuggestion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reason", models.CharField(default="name", max_length=20)),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="suggestions",
                        to="tournament.person",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="suggestions",
                        to="tournament.player",
                    ),
                ),
            ],
            options={
                "ordering": ["pk"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("player", "person"), name="one_suggestion_a_pair"
                    )
                ],
            },
        ),
        migrations.RunPython(touched_events, migrations.RunPython.noop),
    ]
