"""Every player's name in Latin letters (`Player.latin_name`), and whether a director checked
it; the players already there get the automatic one (`tournament.interchange.names`)."""

from django.db import migrations, models

from tournament.interchange import names


def fill(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    batch = []
    for player in Player.objects.only("pk", "name").iterator(chunk_size=1000):
        player.latin_name = names.automatic(player.name)[:200]
        batch.append(player)
        if len(batch) == 1000:
            Player.objects.bulk_update(batch, ["latin_name"])
            batch = []
    Player.objects.bulk_update(batch, ["latin_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0020_desk_stale"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="latin_name",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AddField(
            model_name="player",
            name="latin_checked",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
