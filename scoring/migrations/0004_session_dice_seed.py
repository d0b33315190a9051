from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_side_branches"),
    ]

    operations = [
        migrations.AddField(
            model_name="scoringsession",
            name="dice_seed",
            field=models.CharField(blank=True, max_length=32),
        ),
    ]
