"""Issue 31: one tap is one record (the tap's id on its events), app dice rolled offline on a
phone, no seed that foretells the app's dice, and full time remembered for the privacy rule."""

from django.db import migrations, models
from django.db.models import Q


def remember_full_time(apps, schema_editor):
    # Sessions at or past full time; an abandoned one reached it if a club had confirmed there.
    session = apps.get_model("scoring", "ScoringSession")
    session.objects.filter(
        Q(status__in=["full_time", "submitted"])
        | Q(home_confirmed_by__isnull=False)
        | Q(away_confirmed_by__isnull=False)
    ).update(reached_full_time=True)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_session_dice_record"),
    ]

    operations = [
        migrations.RemoveField(model_name="scoringsession", name="dice_seed"),
        migrations.AddField(
            model_name="scoringevent", name="rolled_offline", field=models.BooleanField(default=False)
        ),
        migrations.AddField(
            model_name="scoringevent", name="tap_id", field=models.CharField(blank=True, max_length=64)
        ),
        migrations.AddField(
            model_name="scoringsession", name="reached_full_time", field=models.BooleanField(default=False)
        ),
        migrations.AddIndex(
            model_name="scoringevent",
            index=models.Index(fields=["session", "tap_id"], name="scoring_event_tap_id"),
        ),
        migrations.RunPython(remember_full_time, migrations.RunPython.noop),
    ]
