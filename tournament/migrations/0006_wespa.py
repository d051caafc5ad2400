from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0005_audit"),
    ]

    operations = [
        migrations.AddField(
            model_name="division",
            name="tou",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="player",
            name="wespa",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="game",
            name="tou",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
