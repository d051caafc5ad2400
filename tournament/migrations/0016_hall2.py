import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0015_desk2")]

    operations = [
        migrations.AddField(
            model_name="scoresheet",
            name="sent_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="sheets_sent",
                to="tournament.player",
            ),
        ),
    ]
